import { existsSync } from 'node:fs'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { claimDatabaseLock, databaseLockFile } from '../src/embedded/database-lock.js'
import { runMailroomProcess } from './cli-process.js'
import { embeddedDemoDataDir } from './demo-database.js'
import { basicAuth, type ServerProcess, startServerProcess } from './process-server.js'

const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const MINUTES = 60_000

/** A bearer token from POST /rest/authenticate. */
async function logIn(url: string, login: string, password: string): Promise<string | null> {
  const response = await fetch(`${url}/rest/authenticate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
  })
  return response.status === 204 ? response.headers.get('token') : null
}

/** The status of an entity read as a user sees it: with a bearer token or HTTP Basic. */
async function readEntity(url: string, entity: string, auth: { bearer: string } | Record<string, string>) {
  const headers = 'bearer' in auth ? { authorization: `Bearer ${auth.bearer}` } : auth
  const response = await fetch(`${url}/rest/entities/${entity}`, { headers })
  await response.arrayBuffer()
  return response.status
}

const ARCHIVES =
  'version: 1\nentities:\n  - { id: ARCH, label: Archives, shortLabel: Archives, type: Service, parent: DGS }\n'

describe.runIf(!onPostgres)('commands beside a server on the embedded database', () => {
  let dataDir: string
  let env: Record<string, string>
  let server: ServerProcess
  const mailroom = (args: string[], stdin?: string) => runMailroomProcess(args, env, stdin)
  const tokens: { cchaplin?: string } = {}

  beforeAll(async () => {
    dataDir = await embeddedDemoDataDir('mailroom-one-writer-')
    // DATABASE_URL emptied: the embedded database in the data directory, whatever the test runner's environment.
    env = { MAILROOM_DATA_DIR: dataDir, DATABASE_URL: '', USER: 'ops', MAILROOM_PASSWORD_MIN_LENGTH: '10' }
    await writeFile(join(dataDir, 'archives.yaml'), ARCHIVES)
    server = await startServerProcess(env)
  }, 5 * MINUTES)
  afterAll(async () => {
    server?.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
  })

  it(
    'disables and enables a user in the running server at once: their token and password are refused, then accepted',
    async () => {
      const token = await logIn(server.url, 'bblier', 'maarch')
      expect(token).not.toBeNull()
      expect(await readEntity(server.url, 'DGS', { bearer: token! })).toBe(200)

      expect(await mailroom(['user', 'disable', 'bblier'])).toMatchObject({ code: 0, out: 'user bblier disabled\n' })
      // The command returned once the server had made the change: refused at the next call, no waiting.
      expect(await readEntity(server.url, 'DGS', { bearer: token! })).toBe(401)
      expect(await readEntity(server.url, 'DGS', basicAuth('bblier'))).toBe(401)

      expect(await mailroom(['user', 'enable', 'bblier'])).toMatchObject({ code: 0, out: 'user bblier enabled\n' })
      expect(await readEntity(server.url, 'DGS', basicAuth('bblier'))).toBe(200)
      expect(await mailroom(['user', 'disable', 'bblier'])).toMatchObject({ code: 0 })
    },
    5 * MINUTES,
  )

  it(
    'adds a user and changes a password through the server; a refusal is told as on its own',
    async () => {
      expect(await mailroom(['user', 'add', 'zzz', '--password-stdin'], 'first-password\n')).toMatchObject({
        code: 0,
        out: expect.stringMatching(/^user zzz added \(id \d+\)\n$/),
      })
      expect(await logIn(server.url, 'zzz', 'first-password')).not.toBeNull()
      expect(await mailroom(['user', 'passwd', 'zzz'], 'second-password\n')).toMatchObject({
        code: 0,
        out: 'password of zzz changed\n',
      })
      expect(await logIn(server.url, 'zzz', 'first-password')).toBeNull()
      expect(await logIn(server.url, 'zzz', 'second-password')).not.toBeNull()
      // The server's own refusal, as the command prints it when it runs alone.
      expect(await mailroom(['user', 'passwd', 'zzz'], 'short\n')).toMatchObject({
        code: 1,
        out: '',
        err: 'Password does not follow the password rules: at least 10 characters\n',
      })
      const listed = (await mailroom(['user', 'list', '--json'])).out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ login: 'zzz', enabled: true }),
          expect.objectContaining({ login: 'bblier', enabled: false }),
        ]),
      )
    },
    5 * MINUTES,
  )

  it(
    'applies the organisation, issues tokens that revoke the previous one, and keeps history, through the server',
    async () => {
      const dryRun = await mailroom(['org', 'apply', '--dry-run', join(dataDir, 'archives.yaml')])
      expect(dryRun).toMatchObject({ code: 0, out: 'entities: +1 ~0 -0 (added: ARCH)\ndry run: nothing was changed\n' })
      // 400 is Maarch's answer for an unknown entity.
      expect(await readEntity(server.url, 'ARCH', basicAuth('superadmin'))).toBe(400)
      const applied = await mailroom(['org', 'apply', join(dataDir, 'archives.yaml')])
      expect(applied).toMatchObject({ code: 0, out: 'entities: +1 ~0 -0 (added: ARCH)\napplied\n' })
      expect(await readEntity(server.url, 'ARCH', basicAuth('superadmin'))).toBe(200)
      expect((await mailroom(['org', 'export'])).out).toContain('id: ARCH')

      const first = (await mailroom(['token', 'cchaplin'])).out.trim()
      expect(await readEntity(server.url, 'PJS', { bearer: first })).toBe(200)
      const second = await mailroom(['token', 'cchaplin'])
      expect(second.code).toBe(0)
      tokens.cchaplin = second.out.trim()
      expect(await readEntity(server.url, 'PJS', { bearer: first })).toBe(401)
      expect(await readEntity(server.url, 'PJS', { bearer: tokens.cchaplin })).toBe(200)
      expect(await mailroom(['token', 'nobody'])).toMatchObject({ code: 1, err: 'no such user: nobody\n' })

      expect(await mailroom(['demo'])).toMatchObject({ code: 0, out: 'users already exist: demo dataset not loaded\n' })
      expect(await mailroom(['journal', 'verify'])).toMatchObject({ code: 0 })
      const history = (await mailroom(['org', 'history', '--limit', '3'])).out
      expect(history).toMatch(/ORG_APPLY by cli:ops: entities: \+1 ~0 -0 \(added: ARCH\)/)
      expect(history).toMatch(/USER_PASSWORD by cli:ops/)
    },
    5 * MINUTES,
  )

  it(
    'refuses what it cannot send to the server, exit 1, naming the server and what to do',
    async () => {
      const pid = server.child.pid!
      const refusals = await Promise.all(
        [
          ['migrate'],
          ['fsck'],
          ['fsck', '--dry-run'],
          ['docserver', 'copy', '--to', join(dataDir, 'elsewhere')],
          ['import', 'maarch', '--from', 'postgres://127.0.0.1:1/maarch', '--docservers', dataDir],
        ].map((args) => mailroom(args)),
      )
      for (const refused of refusals) {
        expect(refused.code).toBe(1)
        expect(refused.out).toBe('')
        expect(refused.err).toContain(`\`mailroom serve\` (pid ${pid}, ${server.url}) holds the embedded database`)
        expect(refused.err).toMatch(/stop the server \(nothing is lost\), run the command, then start the server again/)
      }
      expect(existsSync(join(dataDir, 'elsewhere'))).toBe(false)

      const second = await startServerProcess(env).then(
        () => 'started',
        (error: Error) => error.message,
      )
      expect(second).toContain(`\`mailroom serve\` (pid ${pid}, ${server.url}) holds the embedded database`)
      expect(second).toContain('a second server on it would lose changes: use the running server, or stop it first')
      // The first server still answers.
      expect(await readEntity(server.url, 'PJS', basicAuth('bbain'))).toBe(200)
    },
    5 * MINUTES,
  )

  it(
    'keeps every change a command reported once the server has stopped, read back by new processes',
    async () => {
      server.kill('SIGTERM')
      expect(await server.exited).toEqual({ code: 0, signal: null })
      expect(existsSync(databaseLockFile(dataDir))).toBe(false)
      expect(existsSync(join(dataDir, 'operator.sock'))).toBe(false)

      const listed = (await mailroom(['user', 'list', '--json'])).out
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(listed).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ login: 'zzz', enabled: true }),
          expect.objectContaining({ login: 'bblier', enabled: false }),
        ]),
      )
      server = await startServerProcess(env)
      expect(await logIn(server.url, 'zzz', 'second-password')).not.toBeNull()
      expect(await logIn(server.url, 'bblier', 'maarch')).toBeNull()
      expect(await readEntity(server.url, 'ARCH', basicAuth('superadmin'))).toBe(200)
      expect(await readEntity(server.url, 'PJS', { bearer: tokens.cchaplin! })).toBe(200)
    },
    5 * MINUTES,
  )

  it(
    'does not start a server while a command holds the embedded database, and names the command',
    async () => {
      server.kill('SIGTERM')
      await server.exited
      const claim = await claimDatabaseLock(dataDir, 'import maarch')
      if (!claim.taken) throw new Error('the test must hold the lock')
      try {
        const refused = await startServerProcess(env).then(
          () => 'started',
          (error: Error) => error.message,
        )
        expect(refused).toContain(
          `\`mailroom import maarch\` (pid ${process.pid}) holds the embedded database in ${dataDir}: start the server once that command has finished`,
        )
        const user = await mailroom(['user', 'enable', 'bblier'])
        expect(user).toMatchObject({ code: 1, out: '' })
        expect(user.err).toContain('run `mailroom user enable` again once that command has finished')
      } finally {
        claim.lock.release()
      }
    },
    5 * MINUTES,
  )
})

describe.runIf(onPostgres)('commands beside a server on PostgreSQL', () => {
  let database: TestDatabase
  let dataDir: string
  let server: ServerProcess
  beforeAll(async () => {
    database = await createTestDatabase('postgres', { withDemo: true })
    dataDir = await mkdtemp(join(tmpdir(), 'mailroom-shared-'))
  })
  afterAll(async () => {
    server?.kill('SIGKILL')
    await database?.drop()
    await rm(dataDir, { recursive: true, force: true })
  })

  it(
    'take no lock: the server and the command share the database, and a disabled user is refused at once',
    async () => {
      const env = {
        DATABASE_URL: database.url!,
        MAILROOM_SECRET: 'shared-database-secret-0123',
        MAILROOM_DATA_DIR: dataDir,
        MAILROOM_DEMO: '1',
      }
      server = await startServerProcess(env)
      expect(existsSync(databaseLockFile(dataDir))).toBe(false)
      expect(await readEntity(server.url, 'DGS', basicAuth('bblier'))).toBe(200)
      expect(await runMailroomProcess(['user', 'disable', 'bblier'], env)).toMatchObject({ code: 0 })
      expect(await readEntity(server.url, 'DGS', basicAuth('bblier'))).toBe(401)
      expect(await runMailroomProcess(['fsck', '--dry-run'], env)).toMatchObject({ code: 0 })
    },
    5 * MINUTES,
  )
})
