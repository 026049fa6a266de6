import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rememberEnv } from '../environment/remembered-env.js'
import { DEMO_TEMPLATES_ENV } from './demo-templates.js'
import { createTestMailroom, type TestMailroom } from './test-database.js'

// The same state as a fresh migration and demo load: the demo's users sign in and there is nothing to migrate.
describe('test Mailrooms copied from the run’s PGlite demo template', () => {
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

  it('starts from an empty database when the test asks for no demo', async () => {
    const empty = await createTestMailroom({ demo: false })
    opened.push(empty)
    expect(await empty.mailroom.db.selectFrom('users').select('id').execute()).toEqual([])
  })
})
