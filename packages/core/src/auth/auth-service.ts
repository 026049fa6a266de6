import type { Actor } from '../actors/actor.js'
import { fail, isDomainError } from '../errors/domain-error.js'
import type { AuthenticationMethod, AuthObserver } from '../observability/ports.js'
import { refuseAttempt } from './auth-refusal.js'
import { Credentials } from './credentials.js'
import { LoginThrottle } from './login-throttle.js'
import type {
  AuthThrottle,
  Clock,
  DirectoryAuthenticator,
  IdentityProvider,
  IdGenerator,
  PasswordHasher,
  TokenSigner,
  UserRepository,
} from './ports.js'
import { DEFAULT_THROTTLE_POLICY, type ThrottlePolicy } from './throttle-policy.js'
import type { SessionTokens } from './token-service.js'
import { TokenService } from './token-service.js'

/** Lifetimes and limits of authentication (runtime-contract.md: access tokens live 30 minutes). */
export interface AuthSettings {
  readonly accessTokenSeconds: number
  readonly refreshTokenSeconds: number
  readonly refreshTokensKept: number
  /** How long a successfully checked password stays trusted in memory, so Basic auth on every call stays cheap. */
  readonly verifiedCredentialSeconds: number
  /**
   * How long a loaded user (status, entities, groups) is reused between requests. Changes to a user
   * reach running servers within this delay; 0 disables the cache.
   */
  readonly actorCacheSeconds: number
}

/** Defaults: 30-minute access tokens, 7-day refresh tokens (the reference's cookieTime). */
export const DEFAULT_AUTH_SETTINGS: AuthSettings = {
  accessTokenSeconds: 30 * 60,
  refreshTokenSeconds: 7 * 24 * 60 * 60,
  refreshTokensKept: 10,
  verifiedCredentialSeconds: 60,
  actorCacheSeconds: 5,
}

/** What the authentication use cases need. */
export interface AuthDependencies {
  readonly users: UserRepository
  readonly hasher: PasswordHasher
  readonly tokens: TokenSigner
  readonly clock: Clock
  readonly ids: IdGenerator
  /** Failure counters shared by the servers; without it nothing is counted (the check gate still applies). */
  readonly throttle?: AuthThrottle
  /** Limits of the throttle (throttle-policy.ts); the account lock is off unless `lockAttempts` > 0. */
  readonly throttlePolicy?: Partial<ThrottlePolicy>
  /** Waits the progressive delay (default: a timer); injectable for tests. */
  readonly wait?: (ms: number) => Promise<void>
  /** Keyed digest of login + password for the in-memory cache of verified credentials (never the password itself). */
  readonly credentialDigest: (login: string, password: string) => string
  readonly settings?: Partial<AuthSettings>
  /** Told of every refused authentication (metrics); nothing by default. */
  readonly observer?: AuthObserver
  /** The organisation's directory, for users whose method is `ldap`. */
  readonly directory?: DirectoryAuthenticator
  /** The organisation's OpenID Connect provider, for users whose method is `oidc`. */
  readonly identityProvider?: IdentityProvider
}

export type { SessionTokens } from './token-service.js'

/** Authentication use cases: passwords, bearer and cookie tokens, refresh and service tokens. */
export interface AuthService {
  /**
   * Checks a login and password (HTTP Basic or POST /authenticate); `address` (the client's) feeds the
   * throttle. A refusal is a DomainError whose `details.authentication` says login, address and reason
   * (never the password) for the log, and `details.retryAfterSeconds` when waiting helps.
   */
  authenticatePassword(login: string, password: string, address?: string): Promise<Actor>
  /** Checks an access or service token (Bearer header, SERVICE-AUTH cookie). */
  authenticateToken(token: string): Promise<Actor>
  /** Logs in and issues an access token and a refresh token. */
  login(login: string, password: string, address?: string): Promise<SessionTokens>
  /** Exchanges a refresh token for a new access token. */
  refresh(refreshToken: string | undefined): Promise<string>
  /** Issues a non-expiring service token for a login, revoking the previous one. */
  issueServiceToken(login: string): Promise<string>
  /**
   * A session (access and refresh tokens) for a login the identity provider has just signed in (the
   * console's OpenID Connect sign-in); IDENTITY_PROVIDER_SIGN_IN_FAILED unless the user signs in that way.
   */
  signInThroughProvider(login: string): Promise<SessionTokens>
}

/** C0 controls and DEL: what no login or password holds (a NUL cannot even be stored). */
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g

/**
 * Builds the authentication use cases over their ports, from three parts that each keep their own state:
 * credentials (password checks and the caches of verified passwords and loaded users), the throttle
 * (policy, check gate, shared attempts) and tokens. Every part reads time from `deps.clock`.
 */
export function createAuthService(deps: AuthDependencies): AuthService {
  const settings = { ...DEFAULT_AUTH_SETTINGS, ...deps.settings }
  const credentials = new Credentials({
    users: deps.users,
    hasher: deps.hasher,
    clock: deps.clock,
    credentialDigest: deps.credentialDigest,
    settings,
    directory: deps.directory,
  })
  const throttle = new LoginThrottle({
    policy: { ...DEFAULT_THROTTLE_POLICY, ...deps.throttlePolicy },
    clock: deps.clock,
    counters: deps.throttle,
    wait: deps.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
  })
  const tokens = new TokenService({
    users: deps.users,
    signer: deps.tokens,
    clock: deps.clock,
    ids: deps.ids,
    credentials,
    settings,
  })

  async function authenticatePassword(login: string, password: string, address = 'unknown'): Promise<Actor> {
    if (!login || !password)
      refuseAttempt('AUTHENTICATION_FAILED', { login: login ?? '', address, reason: 'missing login or password' })
    if (CONTROL_CHARACTER.test(login) || CONTROL_CHARACTER.test(password)) {
      // No stored login or password holds one, and PostgreSQL cannot take a NUL: a failure counted as a wrong
      // password (the login as the throttle stores it, its control characters replaced), never a query.
      const counted = login.replace(CONTROL_CHARACTERS, '\uFFFD')
      await throttle.guard(counted, address, async () => ({ reason: 'control character in login or password' }))
    }
    const digest = credentials.digest(login, password)
    const verifiedUserId = await credentials.verifiedUserOf(digest)
    if (verifiedUserId !== null) {
      await throttle.checkAccountLock(login, address)
      const actor = await credentials.actorOfVerified(digest, verifiedUserId)
      if (actor) return actor
    }
    return throttle.shareAttempt(`${address}\0${digest}`, async () => {
      const user = await throttle.guard(login, address, () => credentials.check(login, password))
      return credentials.accept(user, password, digest)
    })
  }

  /** Mailroom's own tokens first; a token they refuse may be the identity provider's. */
  async function authenticateToken(token: string): Promise<Actor> {
    const provider = deps.identityProvider
    if (!provider) return tokens.authenticate(token)
    try {
      return await tokens.authenticate(token)
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'AUTHENTICATION_FAILED') throw error
    }
    const login = await provider.loginOfAccessToken(token)
    return (login !== null && (await credentials.actorOfProviderLogin(login))) || fail('AUTHENTICATION_FAILED')
  }

  const service: AuthService = {
    authenticatePassword,
    authenticateToken,
    async login(login, password, address) {
      return tokens.issueSession(await authenticatePassword(login, password, address))
    },
    refresh: (refreshToken) => tokens.refresh(refreshToken),
    issueServiceToken: (login) => tokens.issueServiceToken(login),
    async signInThroughProvider(login) {
      const actor = await credentials.actorOfProviderLogin(login)
      if (!actor) fail('IDENTITY_PROVIDER_SIGN_IN_FAILED')
      return tokens.issueSession(actor)
    },
  }
  if (!deps.observer) return service
  const observer = deps.observer
  return {
    ...service,
    authenticatePassword: (login, password, address) =>
      observed(observer, 'password', service.authenticatePassword(login, password, address)),
    authenticateToken: (token) => observed(observer, 'token', service.authenticateToken(token)),
    login: (login, password, address) => observed(observer, 'password', service.login(login, password, address)),
    refresh: (refreshToken) => observed(observer, 'refresh', service.refresh(refreshToken)),
  }
}

/** Reports a refusal of `attempt` to the observer and rethrows it. */
async function observed<T>(observer: AuthObserver, method: AuthenticationMethod, attempt: Promise<T>): Promise<T> {
  try {
    return await attempt
  } catch (error) {
    if (isDomainError(error)) {
      if (error.code === 'AUTHENTICATION_FAILED') observer.authenticationFailed(method)
      else if (error.code === 'ACCOUNT_LOCKED') observer.authenticationThrottled('account')
      else if (error.code === 'ADDRESS_THROTTLED' || error.code === 'PASSWORD_CHECKS_BUSY')
        observer.authenticationThrottled('address')
    }
    throw error
  }
}
