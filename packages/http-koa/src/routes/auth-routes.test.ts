import { HmacTokenSigner } from '@mailroom/mailroom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, TEST_SECRET, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

const FAILED = { errors: 'Authentication Failed' }

describe('authentication on /rest', () => {
  it('accepts Basic credentials', async () => {
    const r = await s.call('GET', '/rest/entities/PJS', { auth: 'bbain:maarch' })
    expect(r.status).toBe(200)
  })

  it('accepts the login case-insensitively, as the reference does', async () => {
    expect((await s.call('GET', '/rest/entities/PJS', { auth: 'BBAIN:maarch' })).status).toBe(200)
  })

  it.each([
    ['no header', null],
    ['wrong password', 'bblier:nope'],
    ['unknown user', 'nobody:maarch'],
    ['empty password', 'bblier:'],
  ])('refuses %s with 401 Authentication Failed', async (_name, auth) => {
    const r = await s.call('GET', '/rest/entities/PJS', { auth })
    expect(r.status).toBe(401)
    expect(r.json).toEqual(FAILED)
    expect(r.headers.get('content-type')).toMatch(/application\/json/)
  })

  it('refuses a malformed Authorization header', async () => {
    const r = await s.call('GET', '/rest/entities/PJS', { auth: null, headers: { authorization: 'Digest abc' } })
    expect(r.status).toBe(401)
    expect(r.json).toEqual(FAILED)
  })

  it('issues Token and Refresh-Token on POST /rest/authenticate and accepts the bearer token', async () => {
    const r = await s.call('POST', '/rest/authenticate', { auth: null, body: { login: 'bblier', password: 'maarch' } })
    expect(r.status).toBe(204)
    const token = r.headers.get('token')!
    const refresh = r.headers.get('refresh-token')!
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(refresh).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    const ok = await s.call('GET', '/rest/entities/DGS', { auth: { bearer: token } })
    expect(ok.status).toBe(200)
    // A refresh token is not an access token.
    expect((await s.call('GET', '/rest/entities/DGS', { auth: { bearer: refresh } })).status).toBe(401)

    const refreshed = await s.call('GET', `/rest/authenticate/token?refreshToken=${encodeURIComponent(refresh)}`, {
      auth: null,
    })
    expect(refreshed.status).toBe(200)
    expect(typeof refreshed.json.token).toBe('string')
    expect((await s.call('GET', '/rest/entities/DGS', { auth: { bearer: refreshed.json.token } })).status).toBe(200)
  })

  it('answers the reference messages for bad authenticate and refresh calls', async () => {
    const missing = await s.call('POST', '/rest/authenticate', { auth: null, body: { login: 'bblier' } })
    expect([missing.status, missing.json]).toEqual([400, { errors: 'Bad Request' }])
    const wrong = await s.call('POST', '/rest/authenticate', { auth: null, body: { login: 'ppetit', password: 'x' } })
    expect([wrong.status, wrong.json]).toEqual([401, FAILED])
    const empty = await s.call('GET', '/rest/authenticate/token', { auth: null })
    expect([empty.status, empty.json]).toEqual([400, { errors: 'Refresh Token is empty' }])
    const forged = await s.call('GET', '/rest/authenticate/token?refreshToken=a.b.c', { auth: null })
    expect([forged.status, forged.json]).toEqual([401, FAILED])
  })

  it('refuses forged and expired tokens', async () => {
    const other = new HmacTokenSigner('another-secret-another-secret-42')
    const forged = other.sign({
      kind: 'access',
      userId: 1,
      tokenId: 'x',
      expiresAt: Math.floor(Date.now() / 1000) + 600,
    })
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: forged } })).json).toEqual(FAILED)
    const signer = new HmacTokenSigner(TEST_SECRET)
    const expired = signer.sign({
      kind: 'access',
      userId: 1,
      tokenId: 'x',
      expiresAt: Math.floor(Date.now() / 1000) - 1,
    })
    const r = await s.call('GET', '/rest/entities/PJS', { auth: { bearer: expired } })
    expect([r.status, r.json]).toEqual([401, FAILED])
    const valid = signer.sign({
      kind: 'access',
      userId: 1,
      tokenId: 'x',
      expiresAt: Math.floor(Date.now() / 1000) + 60,
    })
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: valid } })).status).toBe(200)
    // Tampering with the payload breaks the signature.
    const [h, , sig] = valid.split('.')
    const payload = Buffer.from(JSON.stringify({ sub: 2, typ: 'access', jti: 'x', exp: 9999999999 })).toString(
      'base64url',
    )
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: `${h}.${payload}.${sig}` } })).status).toBe(401)
  })

  it('revokes the previous service token when a new one is issued', async () => {
    const first = await s.mailroom.auth.issueServiceToken('cchaplin')
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: first } })).status).toBe(200)
    const second = await s.mailroom.auth.issueServiceToken('cchaplin')
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: first } })).status).toBe(401)
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: second } })).status).toBe(200)
  })
})
