import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { providerTokens } from '../../../testing/src/identity/code-flow.js'
import {
  startTestIdentityProvider,
  type TestIdentityProvider,
} from '../../../testing/src/identity/oidc-provider-server.js'
import { freeLoopbackPort, startTestServer, type TestServer } from '../../../testing/src/servers/test-server.js'

/**
 * Users whose method is `oidc` sign in at the organisation's OpenID Connect provider (a real `oidc-provider`
 * on loopback): API clients with the provider's access tokens, the console through the code flow.
 */
describe('signing in through an OpenID Connect provider', () => {
  let provider: TestIdentityProvider
  let s: TestServer
  let callback: string
  beforeAll(async () => {
    provider = await startTestIdentityProvider()
    const port = await freeLoopbackPort()
    callback = `http://127.0.0.1:${port}/rest/authenticate/oidc/callback`
    provider.allowRedirects([callback])
    s = await startTestServer({
      port,
      mailroom: {
        oidc: provider.settingsFor(callback, 'Keycloak de la mairie'),
      },
    })
    const exported = await s.mailroom.organisation.export()
    const bbain = exported.users!.find((u) => u.login === 'bbain')!
    await s.mailroom.organisation.apply({ version: 1, users: [{ ...bbain, authentication: 'oidc' }] })
  }, 120_000)
  afterAll(async () => {
    await s?.close()
    await provider?.stop()
  })

  const entity = (token: string) => s.call('GET', '/rest/entities/PJS', { auth: { bearer: token } })

  it("takes the provider's real access token as a bearer token, for the user its claim names", async () => {
    const { accessToken } = await providerTokens(provider, { login: 'bbain', redirectUri: callback })
    const answer = await entity(accessToken)
    expect(answer.status).toBe(200)
    expect(answer.json.entity.entity_id).toBe('PJS')
    // The user's perimeter is Mailroom's: a search answers what bbain's groups give.
    const list = await s.call('POST', '/rest/res/list', {
      auth: { bearer: accessToken },
      body: { select: 'res_id', clause: '1=1' },
    })
    expect(list.status).toBe(200)
  })

  it('refuses a token of another issuer, for another audience, expired, badly signed, or naming a user who does not sign in there', async () => {
    const claims = { iss: provider.issuer, aud: provider.audience, sub: 'bbain', preferred_username: 'bbain' }
    expect((await entity(await provider.sign(claims))).status).toBe(200)
    const refused = [
      await provider.sign({ ...claims, iss: 'https://other.example/realms/x' }),
      await provider.sign({ ...claims, aud: 'another-service' }),
      await provider.sign(claims, { expiresInSeconds: -120 }),
      // ppetit exists but signs in with a Mailroom password, not through the provider.
      await provider.sign({ ...claims, sub: 'ppetit', preferred_username: 'ppetit' }),
      await provider.sign({ ...claims, sub: 'nobody', preferred_username: 'nobody' }),
    ]
    const valid = await provider.sign(claims)
    const [header, payload] = valid.split('.')
    refused.push(`${header}.${payload}.${'A'.repeat(342)}`)
    refused.push('not-a-token')
    for (const token of refused) {
      const answer = await entity(token)
      expect(answer.status, token.slice(0, 60)).toBe(401)
      expect(answer.json).toEqual({ errors: 'Authentication Failed' })
    }
  })

  it("refuses the password of a user who signs in through the provider, and keeps Mailroom's own tokens working", async () => {
    expect((await s.call('GET', '/rest/entities/PJS', { auth: 'bbain:maarch' })).status).toBe(401)
    const login = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'ppetit', password: 'maarch' },
    })
    expect((await entity(login.headers.get('token')!)).status).toBe(200)
  })

  it('tells the console which provider it offers', async () => {
    const offer = await s.call('GET', '/rest/authenticate/oidc', { auth: null })
    expect(offer.status).toBe(200)
    expect(offer.json).toEqual({ providerName: 'Keycloak de la mairie', signInPath: '/rest/authenticate/oidc/sign-in' })
  })

  it('refuses a callback without the sign-in it belongs to, back to the console with the reason', async () => {
    const answer = await fetch(`${s.baseUrl}/rest/authenticate/oidc/callback?code=stolen&state=guessed`, {
      redirect: 'manual',
    })
    expect(answer.status).toBe(302)
    expect(answer.headers.get('location')).toBe(
      `/console/#sign-in-error=${encodeURIComponent('Sign-in through the identity provider failed')}`,
    )
  })

  it('answers 503, not 401, while the provider cannot be reached', async () => {
    const token = await provider.sign({ iss: provider.issuer, aud: provider.audience, preferred_username: 'bbain' })
    const down = await startTestServer({
      mailroom: { oidc: { issuer: 'http://127.0.0.1:9/', clientId: 'x', timeoutMs: 1_000 } },
    })
    try {
      const forged = await provider.sign({ iss: 'http://127.0.0.1:9', aud: 'x', preferred_username: 'bbain' })
      const bbain = (await down.mailroom.organisation.export()).users!.find((u) => u.login === 'bbain')!
      await down.mailroom.organisation.apply({ version: 1, users: [{ ...bbain, authentication: 'oidc' }] })
      const answer = await down.call('GET', '/rest/entities/PJS', { auth: { bearer: forged } })
      expect(answer.status).toBe(503)
      expect(answer.json).toEqual({
        errors: 'The identity provider that signs this user in cannot be reached, try again later',
      })
      // A token of another issuer is not the provider's business: refused at once, whatever its state.
      expect((await down.call('GET', '/rest/entities/PJS', { auth: { bearer: token } })).status).toBe(401)
    } finally {
      await down.close()
    }
  })
})
