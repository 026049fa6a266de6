import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MIGRATIONS } from '@mailroom/mailroom'
import { createTestDatabase, type TestDatabase } from '@mailroom/testing'
import { Kysely, Migrator, PostgresDialect } from 'kysely'
import pg from 'pg'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../src/config.js'
import { type RunningServer, startServer } from '../src/serve.js'

const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const SECRET = 'replicas-test-secret-0123456789'

/** Rows of every table of the public schema, by table. */
async function rowCounts(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const tables = await client.query<{ name: string }>(
      "select tablename as name from pg_tables where schemaname = 'public' order by tablename",
    )
    const counts: Record<string, number> = {}
    // auth_failures holds the throttle's memory of the logins made by expectServing (a known address), not start-up writes.
    for (const { name } of tables.rows)
      if (name !== 'auth_failures')
        counts[name] = Number((await client.query(`select count(*) as n from "${name}"`)).rows[0].n)
    return counts
  } finally {
    await client.end()
  }
}

/** Starts `count` servers on one database at the same instant, as an orchestrator does. */
async function startTogether(database: TestDatabase, docserverDir: string, count: number): Promise<RunningServer[]> {
  const env = {
    DATABASE_URL: database.url!,
    MAILROOM_SECRET: SECRET,
    MAILROOM_DEMO: '1',
    MAILROOM_DOCSERVER_DIR: docserverDir,
    PORT: '0',
    MAILROOM_PG_POOL_SIZE: '2',
  }
  const started = await Promise.allSettled(
    Array.from({ length: count }, () => startServer(loadConfig(env), pino({ level: 'silent' }))),
  )
  const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))
  if (failures.length > 0) {
    await Promise.all(servers.map((server) => server.stop()))
    throw new Error(`${failures.length} of ${count} servers failed to start:\n${failures.join('\n')}`)
  }
  return servers
}

async function expectServing(servers: readonly RunningServer[]) {
  for (const server of servers) {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
    const entity = await fetch(`${server.url}/rest/entities/PJS`, {
      headers: { authorization: `Basic ${Buffer.from('bbain:maarch').toString('base64')}` },
    })
    expect(entity.status).toBe(200)
  }
}

describe.runIf(onPostgres)('several replicas starting together on one PostgreSQL', () => {
  const databases: TestDatabase[] = []
  let docserverDir: string
  let once: Record<string, number>
  beforeAll(async () => {
    docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-replicas-'))
    // What one server alone makes of an empty database: the counts the replicas must match.
    const alone = await createTestDatabase('postgres')
    databases.push(alone)
    const [server] = await startTogether(alone, docserverDir, 1)
    await server!.stop()
    once = await rowCounts(alone.url!)
  })
  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()))
    await rm(docserverDir, { recursive: true, force: true })
  })

  it('all start on an empty database, with one copy of the migrations and the demo data', {
    timeout: 120_000,
  }, async () => {
    const database = await createTestDatabase('postgres')
    databases.push(database)
    const servers = await startTogether(database, docserverDir, 3)
    try {
      await expectServing(servers)
    } finally {
      await Promise.all(servers.map((server) => server.stop()))
    }
    const counts = await rowCounts(database.url!)
    expect(counts).toEqual(once)
    expect(counts.users).toBe(6)
    expect(counts.mailroom_migrations).toBe(Object.keys(MIGRATIONS).length)
  })

  it('all start on a database one migration behind, which is brought up to date once', {
    timeout: 120_000,
  }, async () => {
    const database = await createTestDatabase('postgres')
    databases.push(database)
    const names = Object.keys(MIGRATIONS)
    const db = new Kysely<unknown>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url!, max: 1 }) }),
    })
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: async () => MIGRATIONS },
        migrationTableName: 'mailroom_migrations',
        migrationLockTableName: 'mailroom_migrations_lock',
      })
      const { error } = await migrator.migrateTo(names[names.length - 2]!)
      expect(error).toBeUndefined()
    } finally {
      await db.destroy()
    }
    expect((await rowCounts(database.url!)).mailroom_migrations).toBe(names.length - 1)
    const servers = await startTogether(database, docserverDir, 3)
    try {
      await expectServing(servers)
    } finally {
      await Promise.all(servers.map((server) => server.stop()))
    }
    expect(await rowCounts(database.url!)).toEqual(once)
  })
})
