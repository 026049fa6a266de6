import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { slapdMissing, startTestDirectory, type TestDirectory } from '../../../testing/src/directory/slapd-server.js'
import { startTestServer, type TestServer } from '../../../testing/src/servers/test-server.js'

const missing = slapdMissing()
if (missing) console.log(missing)

/**
 * Users whose method is `ldap` sign in with the password their directory knows, through every door a
 * password opens (HTTP Basic, POST /rest/authenticate); the directory's outage is a 503, never a 401.
 */
describe.skipIf(missing !== null)('signing in through the organisation directory', () => {
  let directory: TestDirectory
  let s: TestServer
  beforeAll(async () => {
    directory = await startTestDirectory([
      { uid: 'bbain', password: 'Annuaire-2026!' },
      { uid: 'parti', password: 'Annuaire-2026!', disabled: true },
    ])
    s = await startTestServer({
      mailroom: {
        directory: { url: directory.ldapsUrl, ca: directory.ca, bindTemplate: `uid={login},${directory.peopleBase}` },
        // The reference's account lock, low: wrong directory passwords count like any other.
        throttle: { lockAttempts: 4, lockSeconds: 60 },
      },
    })
    const exported = await s.mailroom.organisation.export()
    const bbain = exported.users!.find((u) => u.login === 'bbain')!
    await s.mailroom.organisation.apply({
      version: 1,
      users: [
        { ...bbain, authentication: 'ldap' },
        { login: 'parti', authentication: 'ldap', groups: ['AGENT'], entities: [{ id: 'PJS', primary: true }] },
      ],
    })
  }, 120_000)
  afterAll(async () => {
    await s?.close()
    await directory?.stop()
  })

  const list = (auth: string) =>
    s.call('POST', '/rest/res/list', { auth, body: { select: 'res_id', clause: '1=1', limit: 1 } })

  it('takes the directory password by HTTP Basic and POST /rest/authenticate, and no longer the stored one', async () => {
    expect((await list('bbain:Annuaire-2026!')).status).toBe(200)
    expect((await list('bbain:maarch')).status).toBe(401)
    const login = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'bbain', password: 'Annuaire-2026!' },
    })
    expect(login.status).toBe(204)
    const token = login.headers.get('token')
    expect(token).toBeTruthy()
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: token! } })).status).toBe(200)
  })

  it('refuses a wrong password and an account the directory disabled with 401, as for any password', async () => {
    const wrong = await list('bbain:not-this-one')
    expect(wrong.status).toBe(401)
    expect(wrong.json).toEqual({ errors: 'Authentication Failed' })
    expect((await list('parti:Annuaire-2026!')).status).toBe(401)
  })

  it('refuses a NUL or another control character in a directory login or password with 401, not 500', async () => {
    for (const auth of [
      'bbain\0:Annuaire-2026!',
      'bbain:Annuaire-2026!\0',
      'parti\u0001:x',
      'bbain:\nAnnuaire-2026!',
    ]) {
      const answer = await list(auth)
      expect([answer.status, answer.json], JSON.stringify(auth)).toEqual([401, { errors: 'Authentication Failed' }])
    }
    expect((await list('bbain:Annuaire-2026!')).status).toBe(200)
  })

  it('counts wrong directory passwords like any other: the account lock stops guessing before the directory sees it', async () => {
    for (let attempt = 0; attempt < 4; attempt++) expect((await list('parti:guess')).status).toBe(401)
    const locked = await list('parti:guess')
    expect(locked.status).toBe(401)
    expect(locked.json).toEqual({ errors: 'Account Locked' })
  })

  it("leaves the other users' passwords where they were", async () => {
    expect((await list('ppetit:maarch')).status).toBe(200)
  })

  it('answers 503 naming the directory, not 401, while the directory is down, and local users still sign in', async () => {
    const down = await startTestServer({
      mailroom: { directory: { url: 'ldaps://127.0.0.1:9', bindTemplate: 'uid={login},ou=people', timeoutMs: 1_000 } },
    })
    try {
      const bbain = (await down.mailroom.organisation.export()).users!.find((u) => u.login === 'bbain')!
      await down.mailroom.organisation.apply({ version: 1, users: [{ ...bbain, authentication: 'ldap' }] })
      const answer = await down.call('POST', '/rest/res/list', {
        auth: 'bbain:Annuaire-2026!',
        body: { select: 'res_id', clause: '1=1' },
      })
      expect(answer.status).toBe(503)
      expect(answer.json).toEqual({
        errors: 'The directory that checks this password cannot be reached, try again later',
      })
      // A local user is not held back by the directory's outage.
      expect(
        (
          await down.call('POST', '/rest/res/list', {
            auth: 'ppetit:maarch',
            body: { select: 'res_id', clause: '1=1' },
          })
        ).status,
      ).toBe(200)
    } finally {
      await down.close()
    }
  })

  it('asks the directory at every sign-in: nothing it answered is kept as a password', async () => {
    expect((await list('bbain:Annuaire-2026!')).status).toBe(200)
    await directory.stop()
    // The same credentials a moment later: the directory is asked again, and is gone.
    expect((await list('bbain:Annuaire-2026!')).status).toBe(503)
  })
})
