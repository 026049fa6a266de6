import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@mailroom/testing'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureCli } from '../test/capture-cli.js'
import { loadConfig } from './config.js'
import { startServer } from './serve.js'

let database: TestDatabase
let dataDir: string
beforeAll(async () => {
  database = await createTestDatabase()
  dataDir = await mkdtemp(join(tmpdir(), 'mailroom-cli-'))
})
afterAll(async () => {
  await database.drop()
  await rm(dataDir, { recursive: true, force: true })
})

function env(): NodeJS.ProcessEnv {
  // No MAILROOM_SECRET on purpose: migrate and demo sign nothing.
  return database.url
    ? { DATABASE_URL: database.url, MAILROOM_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
    : { MAILROOM_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }
}

const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => captureCli(args, { ...env(), ...extra })

describe('mailroom CLI', () => {
  it('migrates, loads the demo once, and issues service tokens', async () => {
    expect((await run(['migrate'])).out).toMatch(/applied: 0001-initial-schema|database is up to date/)
    expect((await run(['migrate'])).out).toBe('database is up to date\n')
    expect(await run(['demo'])).toMatchObject({ code: 0, out: 'demo dataset loaded\n' })
    expect(await run(['demo'])).toMatchObject({ code: 0, out: 'users already exist: demo dataset not loaded\n' })
    const secret = { MAILROOM_SECRET: 'cli-test-secret-0123456789' }
    const token = await run(['token', 'cchaplin'], secret)
    expect(token.code).toBe(0)
    expect(token.out.trim()).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(await run(['token', 'nobody'], secret)).toMatchObject({ code: 1, err: 'no such user: nobody\n' })

    // What the commands reported is what a server started afterwards serves: the demo users and the last token.
    const server = await startServer(loadConfig({ ...env(), ...secret, PORT: '0' }), pino({ level: 'silent' }))
    try {
      const read = (authorization: string) =>
        fetch(`${server.url}/rest/entities/PJS`, { headers: { authorization } }).then((r) => r.status)
      expect(await read(`Basic ${Buffer.from('bbain:maarch').toString('base64')}`)).toBe(200)
      expect(await read(`Bearer ${token.out.trim()}`)).toBe(200)
    } finally {
      await server.stop()
    }
  }, 180_000)

  it('explains its usage and refuses unknown commands', async () => {
    expect((await run(['help'])).out).toMatch(/Usage: mailroom <command>/)
    expect(await run(['frobnicate'])).toMatchObject({ code: 2 })
    expect(await run([])).toMatchObject({ code: 2 })
    const fsckHelp = await run(['help', 'fsck'])
    expect(fsckHelp).toMatchObject({ code: 0 })
    expect(fsckHelp.out).toMatch(/--grace-minutes <minutes>/)
    const badGrace = await run(['fsck', '--grace-minutes', 'soon'])
    expect(badGrace.code).toBe(2)
    expect(badGrace.err).toMatch(/a whole number of minutes is expected/)
    expect(await run(['token'])).toMatchObject({
      code: 2,
      err: expect.stringMatching(/missing required argument 'login'/),
    })
  })

  it('prints its version and lists every setting in its help', async () => {
    const { version } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'))
    for (const flag of ['--version', '-V']) expect(await run([flag])).toMatchObject({ code: 0, out: `${version}\n` })
    const help = (await run(['help'])).out
    for (const name of [
      'MAILROOM_SOFFICE',
      'MAILROOM_WATERMARK_TEXT',
      'MAILROOM_PG_POOL_SIZE',
      'MAILROOM_STATEMENT_TIMEOUT_MS',
      'MAILROOM_PREVIOUS_SECRETS',
    ])
      expect(help).toContain(name)
  })
})
