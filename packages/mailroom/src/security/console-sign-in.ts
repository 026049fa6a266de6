import { createHmac, timingSafeEqual } from 'node:crypto'
import { type AuthService, type Clock, type ConsoleSignInService, fail } from '@mailroom/core'
import type { OidcIdentityProvider, PendingSignIn } from '@mailroom/directory'

/** How long a sign-in may stay at the provider before its callback is refused. */
const SIGN_IN_SECONDS = 10 * 60

interface SealedChecks extends PendingSignIn {
  /** Expiry, seconds since the epoch. */
  readonly exp: number
}

/**
 * The console's OpenID Connect sign-in: the provider's code flow, with its checks (state, nonce, PKCE
 * verifier) sealed by an HMAC of the deployment's secret under their own label, so any server sharing the
 * secret completes a sign-in another one began, and nothing is kept in memory between the two.
 */
export function createConsoleSignIn(deps: {
  readonly provider: OidcIdentityProvider
  readonly auth: Pick<AuthService, 'signInThroughProvider'>
  readonly secret: string
  readonly clock: Clock
}): ConsoleSignInService {
  const key = createHmac('sha256', deps.secret).update('mailroom-console-sign-in').digest()
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest('base64url')
  const now = () => Math.floor(deps.clock.now().getTime() / 1000)

  const seal = (checks: SealedChecks) => {
    const payload = Buffer.from(JSON.stringify(checks)).toString('base64url')
    return `${payload}.${mac(payload)}`
  }
  const unseal = (sealed: string | undefined): PendingSignIn => {
    const [payload, signature] = (sealed ?? '').split('.')
    const expected = payload ? Buffer.from(mac(payload)) : undefined
    if (!payload || !signature || !expected || expected.length !== signature.length)
      fail('IDENTITY_PROVIDER_SIGN_IN_FAILED')
    if (!timingSafeEqual(expected, Buffer.from(signature))) fail('IDENTITY_PROVIDER_SIGN_IN_FAILED')
    const checks = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as SealedChecks
    if (!(checks.exp > now())) fail('IDENTITY_PROVIDER_SIGN_IN_FAILED')
    return checks
  }

  return {
    providerName: deps.provider.providerName,
    async begin() {
      const { authorizationUrl, pending } = await deps.provider.beginSignIn()
      return { authorizationUrl, sealedChecks: seal({ ...pending, exp: now() + SIGN_IN_SECONDS }) }
    },
    async complete(callbackQuery, sealedChecks) {
      const login = await deps.provider.completeSignIn(callbackQuery, unseal(sealedChecks))
      return { login, ...(await deps.auth.signInThroughProvider(login)) }
    },
  }
}
