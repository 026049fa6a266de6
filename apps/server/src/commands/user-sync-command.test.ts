import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { slapdMissing, startTestDirectory, type TestDatabase, type TestDirectory } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { captureCli } from '../../test/capture-cli.js'
import { createDemoDatabase } from '../../test/demo-database.js'

const missing = slapdMissing()
if (missing) console.log(missing)

// In the command's own process, on both databases (test/directory-sync.test.ts: beside a running server).
describe.skipIf(missing !== null)('mailroom user sync on its own', () => {
  let database: TestDatabase
  let directory: TestDirectory
  let dataDir: string
  let env: NodeJS.ProcessEnv
  const run = (args: string[], extra: NodeJS.ProcessEnv = {}) => captureCli(args, { ...env, ...extra })
  const file = (name: string) => join(dataDir, name)

  beforeAll(async () => {
    directory = await startTestDirectory(
      [
        { uid: 'jdupont', password: 'Dir-Secret-1', givenName: 'Jean', surname: 'Dupont' },
        { uid: 'amartin', password: 'Dir-Secret-2', surname: 'Martin' },
      ],
      [{ cn: 'agents', members: ['jdupont'] }],
    )
    dataDir = await mkdtemp(join(tmpdir(), 'mailroom-user-sync-cli-'))
    database = await createDemoDatabase(dataDir)
    await writeFile(file('ca.pem'), directory.ca)
    env = {
      MAILROOM_DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      USER: 'ops',
      MAILROOM_LDAP_URL: directory.ldapsUrl,
      MAILROOM_LDAP_CA_FILE: file('ca.pem'),
      // Sign-ins bind by template; the sync searches with the service account.
      MAILROOM_LDAP_BIND_TEMPLATE: `uid={login},${directory.peopleBase}`,
      MAILROOM_LDAP_SYNC_BASE: directory.peopleBase,
      MAILROOM_LDAP_BIND_DN: directory.adminDn,
      MAILROOM_LDAP_BIND_PASSWORD: directory.adminPassword,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    }
  }, 180_000)
  afterAll(async () => {
    await directory?.stop()
    await database?.drop()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  it('refuses a mapping it cannot read or that is wrong, saying where, and changes nothing', async () => {
    expect(await run(['user', 'sync', '--mapping', file('none.yaml')])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^cannot read the mapping .*none\.yaml: ENOENT/),
    })
    await writeFile(
      file('bad.yaml'),
      'groups:\n  - directoryGroup: agents\n    groups: [NOT A CODE]\nattributes: { login: 1 }\n',
    )
    expect(await run(['user', 'sync', '--mapping', file('bad.yaml')])).toMatchObject({
      code: 1,
      err: 'Directory mapping is not valid (2 errors):\nattributes.login: Invalid input: expected string, received number\ngroups.0.groups.0: letters, digits, "_", "-" and "." only\n',
    })
    await writeFile(
      file('unknown-group.yaml'),
      'groups:\n  - { directoryGroup: agents, groups: [AGNT] }\ngroupEntries: { base: "ou=groups,dc=mailroom,dc=test" }\n',
    )
    expect(await run(['user', 'sync', '--mapping', file('unknown-group.yaml')])).toMatchObject({
      code: 1,
      err: expect.stringMatching(
        /^Organisation document is not valid \(1 error\):\nusers\[0\]\.groups\[0\]: no group "AGNT"\n$/,
      ),
    })
    expect(
      await run(['user', 'sync', '--dry-run'], { MAILROOM_LDAP_SYNC_BASE: '', MAILROOM_LDAP_SEARCH_BASE: '' }),
    ).toMatchObject({
      code: 1,
      err: 'configuration error: user sync needs where the people are: set MAILROOM_LDAP_SYNC_BASE (or MAILROOM_LDAP_SEARCH_BASE)\n',
    })
    expect((await run(['user', 'list'])).out).not.toContain('jdupont')
  })

  it('provisions over LDAPS with a mapping from MAILROOM_LDAP_SYNC_MAPPING, then finds nothing to change', async () => {
    await writeFile(
      file('mapping.yaml'),
      `groupEntries: { base: "${directory.groupsBase}" }\ngroups:\n  - { directoryGroup: agents, groups: [AGENT], entities: [PJS] }\n`,
    )
    const mapping = { MAILROOM_LDAP_SYNC_MAPPING: file('mapping.yaml') }
    expect(await run(['user', 'sync'], mapping)).toMatchObject({
      code: 0,
      out: 'users: +2 ~0 -0 (added: jdupont, amartin)\napplied\n',
    })
    const listed = (await run(['user', 'list', '--json'])).out
    expect(listed).toContain('"login":"jdupont","firstname":"Jean","lastname":"Dupont"')
    expect(listed).toMatch(/"login":"jdupont".*"groups":\["AGENT"\],"primaryEntity":"PJS"/)
    expect(listed).toMatch(/"login":"amartin".*"groups":\[\],"primaryEntity":null/)
    expect(await run(['user', 'sync', '--dry-run'], mapping)).toMatchObject({ code: 0, out: 'no changes\n' })
  })
})
