import { DomainError, domainError, type IdentityProvider } from '@mailroom/core'
import { createRemoteJWKSet, decodeJwt, errors as joseErrors, jwtVerify } from 'jose'
import * as oidc from 'openid-client'
import type { OidcSettings } from './oidc-settings.js'

const DEFAULT_TIMEOUT_MS = 5_000

/** What a sign-in started at the provider must find again at the callback (kept by the caller, sealed). */
export interface PendingSignIn {
  readonly state: string
  readonly nonce: string
  readonly codeVerifier: string
}

/** The organisation's OpenID Connect provider: access tokens of API clients and the console's sign-in. */
export interface OidcIdentityProvider extends IdentityProvider {
  readonly providerName: string
  /** Whether the console may sign users in through it (a redirect URL is configured). */
  readonly consoleSignIn: boolean
  /** Where to send the browser (authorization code with PKCE), and what the callback must check. */
  beginSignIn(): Promise<{ readonly authorizationUrl: string; readonly pending: PendingSignIn }>
  /**
   * The login of the user the provider sent back to the redirect URL with `callbackQuery` (its code and
   * state); IDENTITY_PROVIDER_SIGN_IN_FAILED when refused.
   */
  completeSignIn(callbackQuery: string, pending: PendingSignIn): Promise<string>
}

/**
 * An OpenID Connect provider through `openid-client` (discovery, PKCE, the code exchange and the ID token's
 * checks) and `jose` (access tokens verified with the provider's JWKS: signature, issuer, audience, expiry).
 * Its discovery is read at first use and kept; an unreachable provider throws IDENTITY_PROVIDER_UNAVAILABLE.
 * Plain HTTP is accepted for a provider on loopback only (development and tests).
 */
export function createOidcIdentityProvider(settings: OidcSettings): OidcIdentityProvider {
  const issuer = new URL(settings.issuer)
  const timeoutMs = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const audience = settings.audience ?? settings.clientId
  const loginClaim = settings.loginClaim ?? 'preferred_username'
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname)
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && loopback))
    throw new Error(`OpenID Connect issuer must be https:// (http:// on loopback only), got ${settings.issuer}`)

  let discovered: Promise<{ config: oidc.Configuration; keys: ReturnType<typeof createRemoteJWKSet> }> | undefined
  const discover = () => {
    discovered ??= (async () => {
      const config = await oidc.discovery(
        issuer,
        settings.clientId,
        undefined,
        settings.clientSecret === undefined ? oidc.None() : oidc.ClientSecretBasic(settings.clientSecret),
        { timeout: Math.ceil(timeoutMs / 1000), ...(loopback ? { execute: [oidc.allowInsecureRequests] } : {}) },
      )
      const jwksUri = config.serverMetadata().jwks_uri
      if (!jwksUri) throw new Error('the provider announces no jwks_uri')
      return { config, keys: createRemoteJWKSet(new URL(jwksUri), { timeoutDuration: timeoutMs }) }
    })().catch((error: unknown) => {
      // Not kept: the next request asks again once the provider is back.
      discovered = undefined
      throw error
    })
    return discovered.catch((error: unknown) => unavailable(error))
  }
  const expectedIssuer = () => settings.issuer.replace(/\/$/, '')

  return {
    providerName: settings.providerName ?? 'OpenID Connect',
    consoleSignIn: settings.redirectUrl !== undefined,

    async loginOfAccessToken(token) {
      // Decoded first, without the network: a token of another kind or issuer is not the provider's business.
      let issued: string | undefined
      try {
        issued = decodeJwt(token).iss
      } catch {
        return null
      }
      if (issued?.replace(/\/$/, '') !== expectedIssuer()) return null
      const { config, keys } = await discover()
      try {
        const { payload } = await jwtVerify(token, keys, { issuer: config.serverMetadata().issuer, audience })
        const login = payload[loginClaim]
        return typeof login === 'string' && login !== '' ? login : null
      } catch (error) {
        if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) unavailable(error)
        return null
      }
    },

    async beginSignIn() {
      if (settings.redirectUrl === undefined) throw new Error('OpenID Connect: no redirect URL, no console sign-in')
      const { config } = await discover()
      const pending = {
        state: oidc.randomState(),
        nonce: oidc.randomNonce(),
        codeVerifier: oidc.randomPKCECodeVerifier(),
      }
      const authorizationUrl = oidc.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUrl,
        scope: 'openid profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.codeVerifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      })
      return { authorizationUrl: authorizationUrl.href, pending }
    },

    async completeSignIn(callbackQuery, pending) {
      if (settings.redirectUrl === undefined) throw new Error('OpenID Connect: no redirect URL, no console sign-in')
      // The URL the provider was told to come back to, not the one this request reached (a proxy may sit between).
      const callbackUrl = new URL(settings.redirectUrl)
      callbackUrl.search = callbackQuery
      const { config } = await discover()
      let claims: oidc.IDToken | undefined
      try {
        const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: pending.state,
          expectedNonce: pending.nonce,
          idTokenExpected: true,
        })
        claims = tokens.claims()
      } catch (error) {
        // A refusal of the provider or a check that failed is the sign-in's failure; no answer is an outage.
        if (error instanceof TypeError && !(error instanceof oidc.ResponseBodyError)) unavailable(error)
        signInFailed(error)
      }
      const login = claims?.[loginClaim]
      if (typeof login !== 'string' || login === '') signInFailed(new Error(`the ID token has no ${loginClaim}`))
      return login
    },
  }
}

function unavailable(error: unknown): never {
  const { code, message, kind } = domainError('IDENTITY_PROVIDER_UNAVAILABLE')
  const reason = error instanceof Error ? error.message : String(error)
  throw new DomainError(code, message, kind, { cause: error, details: { identityProvider: reason } })
}

function signInFailed(error: unknown): never {
  const { code, message, kind } = domainError('IDENTITY_PROVIDER_SIGN_IN_FAILED')
  const reason = error instanceof Error ? error.message : String(error)
  throw new DomainError(code, message, kind, { cause: error, details: { identityProvider: reason } })
}
