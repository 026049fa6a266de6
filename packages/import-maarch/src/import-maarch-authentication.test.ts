import {
  slapdMissing,
  startTestDirectory,
  startTestServer,
  type TestDirectory,
  type TestServer,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'

const missing = slapdMissing()
if (missing) console.log(missing)

// Maarch 20.10 says how its users sign in in a file (login_method.xml), not in its database: the operator
// tells the import, and the users come over with that method, web-service and root users excepted.
describe.skipIf(missing !== null)('importing an installation that signed in through its LDAP directory', () => {
  let directory: TestDirectory
  let source: GeneratedSource
  let s: TestServer
  const DIRECTORY_PASSWORD = 'Dir-Cmorel-1'

  beforeAll(async () => {
    directory = await startTestDirectory([{ uid: 'cmorel', password: DIRECTORY_PASSWORD, surname: 'Morel' }])
    source = await createGeneratedSource()
    s = await startTestServer({
      mailroom: {
        demo: false,
        directory: { url: directory.url, ca: directory.ca, bindTemplate: `uid={login},${directory.peopleBase}` },
      },
    })
    const report = await importCollecting(s.mailroom, {
      from: source.url,
      docservers: { root: source.docservers },
      only: 'reference',
      authentication: 'ldap',
    })
    expect(report.organisation?.applied).toBe(true)
  }, 180_000)
  afterAll(async () => {
    await s?.close()
    await source?.drop()
    await directory?.stop()
  })

  const status = async (login: string, password: string) =>
    (await s.call('POST', '/rest/authenticate', { body: { login, password } })).status

  it('gives the users the directory method, but keeps web-service and root users on their Maarch password', async () => {
    const users = (await s.mailroom.organisation.export()).users ?? []
    const method = Object.fromEntries(users.map((user) => [user.login, user.authentication]))
    expect(method).toMatchObject({ cmorel: 'ldap', pgarnier: 'ldap', capture: 'standard', superadmin: 'standard' })
    for (const agent of source.installation.facts.agents) expect(method[agent], agent).toBe('ldap')
  })

  it("signs the users in with the directory's password, not Maarch's; web-service and root users with Maarch's", async () => {
    const maarch = source.installation.facts.password
    expect(await status('cmorel', DIRECTORY_PASSWORD)).toBe(204)
    expect(await status('cmorel', maarch)).toBe(401)
    expect(await status('capture', maarch)).toBe(204)
    expect(await status('superadmin', maarch)).toBe(204)
  })
})
