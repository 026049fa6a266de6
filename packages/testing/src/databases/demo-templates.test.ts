import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createMailroom } from '@mailroom/mailroom'
import { pendingMigrations } from '@mailroom/storage'
import { sql } from 'kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rememberEnv } from '../environment/remembered-env.js'
import { postgresAdminUrl, postgresTemplateName, TEMPLATE_CONTENTS } from './demo-template-names.js'
import { DEMO_TEMPLATES_ENV } from './demo-templates.js'
import { createDemoTemplatesFolder, removeDemoTemplates } from './demo-templates-setup.js'
import {
  copyDemoDatabaseTo,
  createTestDatabase,
  createTestMailroom,
  TEST_SECRET,
  type TestMailroom,
} from './test-database.js'

// The same state as a fresh migration and demo load: the demo's users sign in and there is nothing to migrate.
describe('test Mailrooms copied from the run’s PGlite templates', () => {
  let folder: string
  const opened: TestMailroom[] = []
  const restoreRunTemplates = rememberEnv(DEMO_TEMPLATES_ENV)
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mailroom-templates-test-'))
    process.env[DEMO_TEMPLATES_ENV] = folder
  })
  afterAll(async () => {
    for (const test of opened) await test.cleanup()
    restoreRunTemplates()
    await rm(folder, { recursive: true, force: true })
  })

  it('builds the template once, and each copy is a database of its own with the demo loaded', async () => {
    const first = await createTestMailroom()
    opened.push(first)
    expect((await readdir(folder)).filter((name) => name.endsWith('.tar'))).toEqual(['pglite-demo.tar'])
    // Small WAL segments, old ones not kept: what every copy reads is the database, not 16 MB of log.
    const wal = await sql<{ size: string; segments: number }>`select current_setting('wal_segment_size') as size,
      (select count(*)::int from pg_ls_waldir()) as segments`.execute(first.mailroom.db)
    expect(wal.rows[0]?.size).toBe('1MB')
    expect(wal.rows[0]?.segments).toBeLessThanOrEqual(4)
    const second = await createTestMailroom()
    opened.push(second)
    for (const test of [first, second]) {
      const actor = await test.mailroom.auth.authenticatePassword('bbain', 'maarch')
      expect(actor.login).toBe('bbain')
      expect(await test.mailroom.loadDemo()).toBe(false)
    }
    await first.mailroom.db.insertInto('tags').values({ label: 'only in the first' }).execute()
    const labels = async (test: TestMailroom) =>
      (await test.mailroom.db.selectFrom('tags').select('label').execute()).map((row) => row.label)
    expect(await labels(first)).toContain('only in the first')
    expect(await labels(second)).not.toContain('only in the first')
  })

  it('unpacks into a data directory on disk that opens with nothing to migrate and the demo loaded', async () => {
    const dataDir = join(folder, 'a-server-data-dir', 'pglite')
    expect(await copyDemoDatabaseTo(dataDir)).toBe(true)
    const docserverDir = await mkdtemp(join(folder, 'docservers-'))
    // Migrations off: what is found is the copy as unpacked, not brought up to date.
    const onDisk = await createMailroom({
      database: { kind: 'pglite', dataDir },
      docserverDir,
      secret: TEST_SECRET,
      migrate: false,
      fulltext: { workers: 0 },
    })
    try {
      expect(await pendingMigrations(onDisk.db)).toEqual([])
      expect((await onDisk.auth.authenticatePassword('bbain', 'maarch')).login).toBe('bbain')
      expect(await onDisk.loadDemo()).toBe(false)
    } finally {
      await onDisk.close()
    }
  })

  it('writes nothing outside a run: the process then migrates and loads the demo itself', async () => {
    const dataDir = join(folder, 'outside-a-run', 'pglite')
    delete process.env[DEMO_TEMPLATES_ENV]
    try {
      expect(await copyDemoDatabaseTo(dataDir)).toBe(false)
    } finally {
      process.env[DEMO_TEMPLATES_ENV] = folder
    }
    expect(await stat(dataDir).catch(() => null)).toBeNull()
  })

  it('starts a test that asks for no demo from a copy of a migrated database with nothing in it', async () => {
    const empty = await createTestMailroom({ demo: false })
    opened.push(empty)
    expect((await readdir(folder)).filter((name) => name.endsWith('.tar')).sort()).toEqual([
      'pglite-demo.tar',
      'pglite-empty.tar',
    ])
    expect(await empty.mailroom.db.selectFrom('users').select('id').execute()).toEqual([])
    expect(await pendingMigrations(empty.mailroom.db)).toEqual([])
    const again = await createTestMailroom({ demo: false })
    opened.push(again)
    await empty.mailroom.db.insertInto('tags').values({ label: 'only in the first' }).execute()
    expect(await again.mailroom.db.selectFrom('tags').select('label').execute()).toEqual([])
  })

  it('starts a test that sets `migrate` from a database with no migration applied', async () => {
    const database = await createTestDatabase('pglite', {})
    const unmigrated = await createMailroom({
      database: database.target,
      docserverDir: await mkdtemp(join(folder, 'docservers-')),
      secret: TEST_SECRET,
      migrate: false,
      fulltext: { workers: 0 },
    })
    try {
      expect((await pendingMigrations(unmigrated.db)).length).toBeGreaterThan(0)
    } finally {
      await unmigrated.close()
    }
  })
})

/** Whether the tests' PostgreSQL server answers (this package's tests run on PGlite; `npm test` always has one). */
async function postgresAnswers(): Promise<boolean> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl(), connectionTimeoutMillis: 3000 })
  try {
    await admin.connect()
    return true
  } catch {
    return false
  } finally {
    await admin.end().catch(() => {})
  }
}

// `npm test` makes one folder for the whole run (scripts/bootstrap.mjs) and removes it, with the PostgreSQL
// template it names, once every package has run.
describe.runIf(await postgresAnswers())('a run’s demo templates, removed', () => {
  it('leaves neither the folder nor the PostgreSQL template', async () => {
    const folder = await createDemoTemplatesFolder()
    await writeFile(join(folder, 'pglite-demo.tar'), 'a tarball')
    const names = TEMPLATE_CONTENTS.map((contents) => postgresTemplateName(folder, contents))
    expect(new Set(names).size).toBe(TEMPLATE_CONTENTS.length)
    const admin = new pg.Client({ connectionString: postgresAdminUrl() })
    await admin.connect()
    try {
      for (const name of names) await admin.query(`create database ${name}`)
      await removeDemoTemplates(folder)
      expect(await stat(folder).catch(() => null)).toBeNull()
      expect((await admin.query('select 1 from pg_database where datname = any($1)', [names])).rowCount).toBe(0)
    } finally {
      for (const name of names) await admin.query(`drop database if exists ${name}`)
      await admin.end()
    }
  })
})
