import { rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { slapdMissing, startTestDirectory, type TestDirectory } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runMailroomProcess } from './cli-process.js'
import { embeddedDemoDataDir } from './demo-database.js'
import { basicAuth, type ServerProcess, startServerProcess } from './process-server.js'

const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const MINUTES = 60_000
const missing = slapdMissing()
if (missing) console.log(missing)

/** The status of GET /rest/entities/PJS for a login and password: what a user signing in sees. */
async function signIn(url: string, login: string, password: string): Promise<number> {
  const response = await fetch(`${url}/rest/entities/PJS`, { headers: basicAuth(login, password) })
  await response.arrayBuffer()
  return response.status
}

const MAPPING = (groupsBase: string) => `# directory groups → Mailroom groups and entities
groupEntries:
  base: ${groupsBase}
groups:
  - directoryGroup: courrier
    groups: [COURRIER]
    entities: [COU]
  - directoryGroup: cn=agents,${groupsBase}
    groups: [AGENT]
    entities: [PJS]
`

// The embedded database, with `mailroom serve` holding it: every sync goes through the server's operator channel.
describe.runIf(!onPostgres && missing === null)(
  'mailroom user sync against a real OpenLDAP server, beside a server',
  () => {
    let directory: TestDirectory
    let dataDir: string
    let env: Record<string, string>
    let server: ServerProcess
    const mailroom = (args: string[]) => runMailroomProcess(args, env)
    const users = async () =>
      Object.fromEntries(
        (await mailroom(['user', 'list', '--json'])).out
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { login: string })
          .map((user) => [user.login, user]),
      )

    beforeAll(async () => {
      directory = await startTestDirectory(
        [
          {
            uid: 'jdupont',
            password: 'Dir-Secret-1',
            mail: 'jdupont@mairie.test',
            givenName: 'Jean',
            surname: 'Dupont',
          },
          { uid: 'amartin', password: 'Dir-Secret-2', givenName: 'Anne', surname: 'Martin' },
          // A demo user's login: a standard user, which sync never touches.
          { uid: 'bbain', password: 'Dir-Secret-3', surname: 'Bain' },
        ],
        [
          { cn: 'courrier', members: ['amartin'] },
          { cn: 'agents', members: ['jdupont', 'amartin'] },
        ],
      )
      dataDir = await embeddedDemoDataDir('mailroom-user-sync-')
      await writeFile(join(dataDir, 'ca.pem'), directory.ca)
      await writeFile(join(dataDir, 'mapping.yaml'), MAPPING(directory.groupsBase))
      env = {
        MAILROOM_DATA_DIR: dataDir,
        DATABASE_URL: '',
        USER: 'ops',
        MAILROOM_LDAP_URL: directory.url,
        MAILROOM_LDAP_CA_FILE: join(dataDir, 'ca.pem'),
        MAILROOM_LDAP_SEARCH_BASE: directory.peopleBase,
        MAILROOM_LDAP_BIND_DN: directory.adminDn,
        MAILROOM_LDAP_BIND_PASSWORD: directory.adminPassword,
        MAILROOM_LDAP_SYNC_MAPPING: join(dataDir, 'mapping.yaml'),
      }
      server = await startServerProcess(env)
    }, 5 * MINUTES)
    afterAll(async () => {
      server?.kill('SIGKILL')
      await directory?.stop()
      if (dataDir) await rm(dataDir, { recursive: true, force: true })
    })

    it(
      'prints the plan with --dry-run and changes nothing',
      async () => {
        expect(await mailroom(['user', 'sync', '--dry-run'])).toEqual({
          code: 0,
          out:
            'users: +2 ~0 -0 (added: jdupont, amartin)\n' +
            'skipped bbain: a standard user has this login (sync changes ldap users only)\n' +
            'dry run: nothing was changed\n',
          err: '',
        })
        expect(Object.keys(await users())).not.toContain('jdupont')
        expect(await signIn(server.url, 'jdupont', 'Dir-Secret-1')).toBe(401)
      },
      5 * MINUTES,
    )

    it(
      "provisions the directory's people as ldap users with their mapped groups and entities; they sign in with the directory's password",
      async () => {
        expect(await mailroom(['user', 'sync'])).toMatchObject({
          code: 0,
          out:
            'users: +2 ~0 -0 (added: jdupont, amartin)\n' +
            'skipped bbain: a standard user has this login (sync changes ldap users only)\n' +
            'applied\n',
        })
        const listed = await users()
        expect(listed.jdupont).toMatchObject({
          firstname: 'Jean',
          lastname: 'Dupont',
          mail: 'jdupont@mairie.test',
          enabled: true,
          groups: ['AGENT'],
          primaryEntity: 'PJS',
        })
        expect(listed.amartin).toMatchObject({ groups: ['AGENT', 'COURRIER'], primaryEntity: 'COU' })
        expect((await mailroom(['org', 'export'])).out).toMatch(
          /login: jdupont\n(\s+\w+: .*\n)*?\s+authentication: ldap/,
        )
        expect(await signIn(server.url, 'jdupont', 'Dir-Secret-1')).toBe(200)
        expect(await signIn(server.url, 'jdupont', 'wrong')).toBe(401)
        // The standard user keeps Mailroom's own password, not the directory's.
        expect(await signIn(server.url, 'bbain', 'maarch')).toBe(200)
        expect(await signIn(server.url, 'bbain', 'Dir-Secret-3')).toBe(401)
        expect(await mailroom(['user', 'sync'])).toMatchObject({
          code: 0,
          out: 'no changes\nskipped bbain: a standard user has this login (sync changes ldap users only)\n',
        })
      },
      5 * MINUTES,
    )

    it(
      'updates what the directory changed, and disables the ldap users it no longer lists, recorded in history',
      async () => {
        await directory.changePerson('jdupont', 'mail', 'jean.dupont@mairie.test')
        await directory.removePerson('amartin')
        expect(await mailroom(['user', 'sync', '--dry-run'])).toMatchObject({
          code: 0,
          out:
            'users: +0 ~2 -0 (changed: jdupont, amartin)\n' +
            'skipped bbain: a standard user has this login (sync changes ldap users only)\n' +
            'disabled, no longer in the directory: amartin\n' +
            'dry run: nothing was changed\n',
        })
        expect((await users()).amartin).toMatchObject({ enabled: true })
        expect((await mailroom(['user', 'sync'])).out).toMatch(
          /^users: \+0 ~2 -0 \(changed: jdupont, amartin\)\n[\s\S]*applied\n$/,
        )
        const listed = await users()
        expect(listed.jdupont).toMatchObject({ mail: 'jean.dupont@mairie.test', enabled: true })
        expect(listed.amartin).toMatchObject({ enabled: false })
        expect(listed.bbain).toMatchObject({ enabled: true })
        expect((await mailroom(['org', 'history', '--limit', '1'])).out).toMatch(
          /ORG_APPLY by cli:ops: users: \+0 ~2 -0 \(changed: jdupont, amartin\)/,
        )
        // Back in the directory, a disabled user stays disabled until an operator enables them.
        await directory.addPerson({ uid: 'amartin', password: 'Dir-Secret-2', givenName: 'Anne', surname: 'Martin' })
        await mailroom(['user', 'sync'])
        expect((await users()).amartin).toMatchObject({ enabled: false })
      },
      5 * MINUTES,
    )

    it(
      'refuses, changing nothing, when the directory cannot be searched or finds nobody',
      async () => {
        const unreachable = await runMailroomProcess(['user', 'sync'], {
          ...env,
          MAILROOM_LDAP_URL: 'ldap://127.0.0.1:9',
        })
        expect(unreachable.code).toBe(1)
        expect(unreachable.err).toMatch(
          /^The directory cannot be searched now, nothing was changed: try again later \(StartTLS: /,
        )
        const nobody = await runMailroomProcess(['user', 'sync'], {
          ...env,
          MAILROOM_LDAP_SYNC_FILTER: '(uid=nobody-here)',
        })
        expect(nobody).toMatchObject({
          code: 1,
          err: 'The directory search found nobody, nothing was changed: check MAILROOM_LDAP_SYNC_BASE and MAILROOM_LDAP_SYNC_FILTER\n',
        })
        expect((await users()).jdupont).toMatchObject({ enabled: true })
      },
      5 * MINUTES,
    )
  },
)
