import {
  freeLoopbackPort,
  startTestIdentityProvider,
  startTestServer,
  type TestIdentityProvider,
  type TestServer,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from './client.js'

describe('sdk: the identity provider a server offers for signing in', () => {
  let provider: TestIdentityProvider
  let withProvider: TestServer
  let without: TestServer
  beforeAll(async () => {
    provider = await startTestIdentityProvider()
    const port = await freeLoopbackPort()
    const callback = `http://127.0.0.1:${port}/rest/authenticate/oidc/callback`
    provider.allowRedirects([callback])
    withProvider = await startTestServer({ port, mailroom: { oidc: provider.settingsFor(callback, 'Keycloak') } })
    without = await startTestServer()
  })
  afterAll(async () => {
    await withProvider?.close()
    await without?.close()
    await provider?.stop()
  })

  it('names the provider and the path a browser opens to sign in there, without credentials', async () => {
    const client = createClient({ baseUrl: withProvider.baseUrl, auth: null })
    expect(await client.getIdentityProviderSignIn()).toEqual({
      providerName: 'Keycloak',
      signInPath: '/rest/authenticate/oidc/sign-in',
    })
  })

  it('is null when the server offers no provider (its 404)', async () => {
    const client = createClient({ baseUrl: without.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
    expect(await client.getIdentityProviderSignIn()).toBeNull()
  })
})
