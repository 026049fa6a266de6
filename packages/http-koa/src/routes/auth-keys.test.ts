import { HmacTokenSigner, signingKeyId } from '@mailroom/mailroom'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, TEST_SECRET, type TestServer } from '../../../testing/src/index.js'

const ROTATED_SECRET = 'rotated-secret-0123456789-abcdefghij'
const FAILED = { errors: 'Authentication Failed' }
const inMinutes = (minutes: number) => Math.floor(Date.now() / 1000) + minutes * 60
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'))
const kidOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')).kid

// The server runs after a rotation: the test secret is now a previous one.
let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ mailroom: { secret: ROTATED_SECRET, previousSecrets: [TEST_SECRET] } })
})
afterAll(async () => s?.close())

describe('signing secret rotation', () => {
  it('signs new tokens with the current secret, named by its kid', async () => {
    const r = await s.call('POST', '/rest/authenticate', { auth: null, body: { login: 'bblier', password: 'maarch' } })
    expect(r.status).toBe(204)
    expect(kidOf(r.headers.get('token')!)).toBe(signingKeyId(ROTATED_SECRET))
    expect(kidOf(r.headers.get('refresh-token')!)).toBe(signingKeyId(ROTATED_SECRET))
  })

  it('keeps the sessions and service tokens signed with the previous secret valid', async () => {
    const before = new HmacTokenSigner(TEST_SECRET)
    const bbain = await s.mailroom.actor('bbain')
    const session = before.sign({ kind: 'access', userId: bbain.id, tokenId: 'old-session', expiresAt: inMinutes(10) })
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: session } })).status).toBe(200)
    // The service token issued before the rotation: same id, signed with the previous secret.
    const { sub, jti } = claimsOf(await s.mailroom.auth.issueServiceToken('cchaplin'))
    const service = before.sign({ kind: 'service', userId: sub, tokenId: jti })
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: service } })).status).toBe(200)
    // Revocation still applies to it.
    await s.mailroom.auth.issueServiceToken('cchaplin')
    expect((await s.call('GET', '/rest/entities/PJS', { auth: { bearer: service } })).status).toBe(401)
  })

  it('refuses tokens of a secret that is neither current nor previous', async () => {
    const stranger = new HmacTokenSigner('stranger-secret-0123456789-abcdef').sign({
      kind: 'access',
      userId: 1,
      tokenId: 'x',
      expiresAt: inMinutes(10),
    })
    const r = await s.call('GET', '/rest/entities/PJS', { auth: { bearer: stranger } })
    expect([r.status, r.json]).toEqual([401, FAILED])
  })
})

describe('WWW-Authenticate on 401', () => {
  it('challenges a failed bearer token with Bearer (no browser login box)', async () => {
    const r = await s.call('GET', '/rest/entities/PJS', { auth: { bearer: 'a.b.c' } })
    expect([r.status, r.json]).toEqual([401, FAILED])
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="mailroom", error="invalid_token"')
  })

  it('challenges a failed sign-in or refresh with Bearer: their credentials are in the body or query, no browser login box', async () => {
    const login = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'bbain', password: 'wrong' },
    })
    expect([login.status, login.json]).toEqual([401, FAILED])
    expect(login.headers.get('www-authenticate')).toBe('Bearer realm="mailroom"')
    const refresh = await s.call('GET', '/rest/authenticate/token?refreshToken=a.b.c', { auth: null })
    expect(refresh.status).toBe(401)
    expect(refresh.headers.get('www-authenticate')).toBe('Bearer realm="mailroom"')
  })

  it('challenges failed or missing password credentials with Basic', async () => {
    for (const auth of ['bbain:wrong', null]) {
      const r = await s.call('GET', '/rest/entities/PJS', { auth })
      expect(r.status).toBe(401)
      expect(r.headers.get('www-authenticate')).toBe('Basic realm="mailroom", charset="UTF-8"')
    }
  })
})
