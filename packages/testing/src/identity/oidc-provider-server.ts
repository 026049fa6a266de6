import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose'
import Provider from 'oidc-provider'

/** A real OpenID Connect provider (`oidc-provider`, certified) for the tests, on loopback. */
export interface TestIdentityProvider {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** The audience of its JWT access tokens (the resource Mailroom is to them). */
  readonly audience: string
  /**
   * Lets the provider send users back to these URLs (Mailroom's callback, known once its server listens);
   * until called, the provider answers 503.
   */
  allowRedirects(redirectUris: readonly string[]): void
  /** Mailroom's `oidc` settings for this provider, its console coming back to `redirectUrl`. */
  settingsFor(
    redirectUrl: string,
    providerName?: string,
  ): {
    issuer: string
    clientId: string
    clientSecret: string
    audience: string
    redirectUrl: string
    providerName?: string
  }
  /** Signs a token with the provider's own key, claims as given: what only the provider could forge. */
  sign(claims: Record<string, unknown>, options?: { expiresInSeconds?: number }): Promise<string>
  stop(): Promise<void>
}

export interface IdentityProviderOptions {
  readonly audience?: string
  /** A port to listen on (default: any free one); a provider restarted on the same port keeps its issuer. */
  readonly port?: number
}

/**
 * Starts `oidc-provider` with its development sign-in pages (any login, any password) over HTTP on
 * 127.0.0.1, one confidential client with PKCE, JWT access tokens for `audience` carrying
 * `preferred_username`, and a signing key this helper keeps so tests can forge tokens with it.
 */
export async function startTestIdentityProvider(options: IdentityProviderOptions = {}): Promise<TestIdentityProvider> {
  const audience = options.audience ?? 'urn:mailroom:test'
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const privateJwk: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = 'mailroom-console'
  const clientSecret = 'mailroom-console-secret-for-tests'
  const configure = (redirectUris: readonly string[]) =>
    new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: [...redirectUris],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [privateJwk] },
      findAccount: async (_ctx, id) => ({
        accountId: id,
        claims: async () => ({ sub: id, preferred_username: id, name: id.toUpperCase() }),
      }),
      claims: { openid: ['sub'], profile: ['preferred_username', 'name'] },
      scopes: ['openid', 'profile', 'offline_access'],
      pkce: { required: () => true },
      features: {
        devInteractions: { enabled: true },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => audience,
          useGrantedResource: () => true,
          getResourceServerInfo: () => ({
            scope: 'openid profile',
            audience,
            accessTokenFormat: 'jwt',
            jwt: { sign: { alg: 'RS256' } },
          }),
        },
      },
      extraTokenClaims: async (_ctx, token) =>
        'accountId' in token && typeof token.accountId === 'string'
          ? { preferred_username: token.accountId }
          : undefined,
    })
  let handle: ReturnType<Provider['callback']> | undefined
  server.on('request', (request, response) => {
    if (handle) return handle(request, response)
    response.statusCode = 503
    response.end()
  })
  return {
    issuer,
    clientId,
    clientSecret,
    audience,
    settingsFor(redirectUrl, providerName) {
      return { issuer, clientId, clientSecret, audience, redirectUrl, ...(providerName ? { providerName } : {}) }
    },
    allowRedirects(redirectUris) {
      handle = configure(redirectUris).callback()
    },
    async sign(claims, signOptions = {}) {
      const now = Math.floor(Date.now() / 1000)
      return new SignJWT({ iat: now, exp: now + (signOptions.expiresInSeconds ?? 600), ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key', typ: 'at+jwt' })
        .sign(privateKey)
    },
    async stop() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
