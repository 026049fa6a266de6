import type { Actor } from '../actors/actor.js'
import { DomainError, domainError, fail, isDomainError } from '../errors/domain-error.js'
import type { AuthenticationMethod, AuthObserver } from '../observability/ports.js'
import { PasswordCheckGate } from './password-check-gate.js'
import type {
  AuthThrottle,
  Clock,
  IdGenerator,
  PasswordHasher,
  TokenClaims,
  TokenSigner,
  UserCredentials,
  UserRepository,
} from './ports.js'
import {
  DEFAULT_THROTTLE_POLICY,
  judgeAttempt,
  type ThrottlePolicy,
  type ThrottleSubjects,
  throttleSubjects,
} from './throttle-policy.js'

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
}

/** Tokens handed out by POST /rest/authenticate. */
export interface SessionTokens {
  readonly token: string
  readonly refreshToken: string
}

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
}

const DUMMY_HASH_PASSWORD = 'mailroom-dummy-password'

/** Builds the authentication use cases over their ports. */
export function createAuthService(deps: AuthDependencies): AuthService {
  const settings = { ...DEFAULT_AUTH_SETTINGS, ...deps.settings }
  const policy: ThrottlePolicy = { ...DEFAULT_THROTTLE_POLICY, ...deps.throttlePolicy }
  const gate = new PasswordCheckGate(policy.maxConcurrentChecks)
  const attempts = new Map<string, Promise<Actor>>()
  const refusedPairs = new Map<string, { until: number; reason: string }>()
  const wait = deps.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  const verified = new Map<string, { userId: number; until: number }>()
  // Basic auth on every call would otherwise cost four queries per request.
  const actors = new Map<number, { actor: Actor; credentials: UserCredentials; until: number }>()
  let dummyHash: Promise<string> | undefined
  let accessVersion: string | null = null
  let pendingVersion: Promise<string> | undefined

  /**
   * Forgets every kept user and verified password when the users' access version has moved. Concurrent
   * requests share one read of the version: under load one query serves them all, at most a query's time old.
   */
  async function dropStaleCaches(): Promise<void> {
    if (!deps.users.accessVersion) return
    pendingVersion ??= deps.users.accessVersion().finally(() => {
      pendingVersion = undefined
    })
    const version = await pendingVersion
    if (version === accessVersion) return
    accessVersion = version
    verified.clear()
    actors.clear()
  }

  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000)

  function usable(user: UserCredentials | null): user is UserCredentials {
    if (!user) return false
    if (user.status !== 'OK' && user.status !== 'ABS') return false
    return !(user.lockedUntil && user.lockedUntil.getTime() > deps.clock.now().getTime())
  }

  async function loadActor(userId: number): Promise<Actor> {
    const actor = await deps.users.loadActor(userId)
    if (!actor) fail('AUTHENTICATION_FAILED')
    return actor
  }

  /** The usable credentials and actor of a user id, from the short-lived cache when fresh. */
  async function cachedUser(
    userId: number,
    checked = false,
  ): Promise<{ actor: Actor; credentials: UserCredentials } | null> {
    if (!checked) await dropStaleCaches()
    const now = Date.now()
    const hit = actors.get(userId)
    if (hit && hit.until > now) return usable(hit.credentials) ? hit : null
    const credentials = await deps.users.findCredentialsById(userId)
    if (!usable(credentials)) {
      actors.delete(userId)
      return null
    }
    const entry = { actor: await loadActor(userId), credentials, until: now + settings.actorCacheSeconds * 1000 }
    if (settings.actorCacheSeconds > 0) {
      if (actors.size > 10_000) actors.clear()
      actors.set(userId, entry)
    }
    return entry
  }

  /**
   * Replaces a hash of an older cost or of another scheme (imported users) by one of the current cost: the
   * password is known only now, at a successful check.
   */
  async function upgradeHash(user: UserCredentials, password: string): Promise<void> {
    if (!deps.hasher.needsRehash(user.passwordHash)) return
    await deps.users.replacePasswordHash(user.id, user.passwordHash, await deps.hasher.hash(password))
  }

  /**
   * A refusal that carries what the log needs: login, address and reason (never the password), when the
   * account lock was set, and how long to wait.
   */
  function refuse(
    code: 'AUTHENTICATION_FAILED' | 'ACCOUNT_LOCKED' | 'ADDRESS_THROTTLED' | 'PASSWORD_CHECKS_BUSY',
    facts: { login: string; address: string; reason: string; lockedUntil?: Date; retryAfterSeconds?: number },
  ): never {
    const { retryAfterSeconds, ...authentication } = facts
    const error = domainError(code)
    throw new DomainError(error.code, error.message, error.kind, {
      details: { authentication, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
    })
  }

  /** The account lock (reference behaviour, off by default) refuses even credentials this server verified. */
  async function checkAccountLock(login: string, address: string): Promise<void> {
    if (!deps.throttle || policy.lockAttempts <= 0) return
    const subjects = throttleSubjects(login, address)
    const verdict = judgeAttempt(await deps.throttle.read([subjects.lock]), subjects, deps.clock.now(), policy)
    if (verdict.refusal?.code === 'ACCOUNT_LOCKED')
      refuse('ACCOUNT_LOCKED', {
        login,
        address,
        reason: verdict.refusal.reason,
        retryAfterSeconds: verdict.refusal.retryAfterSeconds,
      })
  }

  /** Counts a failure everywhere it counts; sets the account lock when it is on and this failure reaches it. */
  async function recordFailure(subjects: ThrottleSubjects): Promise<Date | undefined> {
    if (!deps.throttle) return undefined
    const now = deps.clock.now()
    const counted = [
      { subject: subjects.pair, windowSeconds: policy.windowSeconds },
      { subject: subjects.address, windowSeconds: policy.windowSeconds },
      { subject: subjects.login, windowSeconds: policy.windowSeconds },
      ...(policy.lockAttempts > 0 ? [{ subject: subjects.lock, windowSeconds: policy.lockSeconds }] : []),
    ]
    const counts = await deps.throttle.recordFailure(counted, now)
    if (policy.lockAttempts <= 0 || (counts.get(subjects.lock) ?? 0) < policy.lockAttempts) return undefined
    const until = new Date(now.getTime() + policy.lockSeconds * 1000)
    await deps.throttle.lock(subjects.lock, until)
    return until
  }

  /** A success clears this login's failures from this address (and its lock count) and makes the address known. */
  async function recordSuccess(subjects: ThrottleSubjects): Promise<void> {
    if (!deps.throttle) return
    // The login-wide count stays: a user who logs in must not reset the delay guessers from elsewhere earned.
    await deps.throttle.clear([subjects.pair, ...(policy.lockAttempts > 0 ? [subjects.lock] : [])])
    await deps.throttle.remember(subjects.known, deps.clock.now())
  }

  async function authenticatePassword(login: string, password: string, address = 'unknown'): Promise<Actor> {
    if (!login || !password)
      refuse('AUTHENTICATION_FAILED', { login: login ?? '', address, reason: 'missing login or password' })
    const digest = deps.credentialDigest(login.toLowerCase(), password)
    await dropStaleCaches()
    const cached = verified.get(digest)
    if (cached && cached.until > Date.now()) {
      await checkAccountLock(login, address)
      const user = await cachedUser(cached.userId, true)
      if (user) return user.actor
      verified.delete(digest)
    }
    // The same credentials from the same address already being checked (a client's parallel first calls,
    // a script retrying a wrong password in a loop) share that check and its answer: one hash, one count.
    const attemptKey = `${address}\0${digest}`
    const running = attempts.get(attemptKey)
    if (running) return running
    const attempt = checkPassword(login, password, address, digest).finally(() => attempts.delete(attemptKey))
    attempts.set(attemptKey, attempt)
    return attempt
  }

  async function checkPassword(login: string, password: string, address: string, digest: string): Promise<Actor> {
    const subjects = throttleSubjects(login, address)
    // A flood from one address is refused here, before any query or hash.
    const gateKeys = [{ key: subjects.pair, limit: policy.maxChecksPerLoginAndAddress }]
    if (gate.isFull(gateKeys))
      refuse('PASSWORD_CHECKS_BUSY', {
        login,
        address,
        reason: 'too many checks of this login from this address at once',
        retryAfterSeconds: 1,
      })
    // A login refused to this address stays refused until its window ends (only a success could clear it,
    // and none can come from there meanwhile): the rest of a flood is answered without a query.
    const remembered = refusedPairs.get(subjects.pair)
    const nowMs = deps.clock.now().getTime()
    if (remembered && remembered.until > nowMs) {
      refuse('ADDRESS_THROTTLED', {
        login,
        address,
        reason: remembered.reason,
        retryAfterSeconds: Math.max(1, Math.ceil((remembered.until - nowMs) / 1000)),
      })
    }
    const judge = async () => {
      if (!deps.throttle) return { known: false, delayMs: 0 }
      const now = deps.clock.now()
      const verdict = judgeAttempt(await deps.throttle.read(Object.values(subjects)), subjects, now, policy)
      if (verdict.refusal?.reason === 'too many failures for this login from this address') {
        if (refusedPairs.size > 10_000) refusedPairs.clear()
        refusedPairs.set(subjects.pair, {
          until: now.getTime() + verdict.refusal.retryAfterSeconds * 1000,
          reason: verdict.refusal.reason,
        })
      }
      if (verdict.refusal)
        refuse(verdict.refusal.code, {
          login,
          address,
          reason: verdict.refusal.reason,
          retryAfterSeconds: verdict.refusal.retryAfterSeconds,
        })
      return verdict
    }
    const { known, delayMs } = await judge()
    if (delayMs > 0) await wait(delayMs)
    // The address's own limit does not hold back logins known there: the other users behind it keep working.
    const keys = known ? gateKeys : [...gateKeys, { key: subjects.address, limit: policy.maxChecksPerAddress }]
    // Counted before the place in line is given up, so the next check of this login reads this failure.
    const checked = await gate.run(keys, known, async () => {
      // Read again in turn: the failures of the checks this one waited behind count too.
      await judge()
      const user = await deps.users.findCredentialsByLogin(login)
      // Hash even for unknown users so response time does not reveal which logins exist.
      dummyHash ??= deps.hasher.hash(DUMMY_HASH_PASSWORD)
      const ok = await deps.hasher.verify(password, user?.passwordHash ?? (await dummyHash))
      if (ok && usable(user)) return user
      const reason = !user ? 'unknown login' : !ok ? 'wrong password' : 'login disabled or locked'
      return { reason, lockedUntil: await recordFailure(subjects) }
    })
    if (checked === null)
      refuse('PASSWORD_CHECKS_BUSY', {
        login,
        address,
        reason: 'too many checks from this address at once',
        retryAfterSeconds: 1,
      })
    if ('reason' in checked)
      refuse('AUTHENTICATION_FAILED', {
        login,
        address,
        reason: checked.reason,
        ...(checked.lockedUntil ? { lockedUntil: checked.lockedUntil } : {}),
      })
    const user = checked
    await recordSuccess(subjects)
    await upgradeHash(user, password)
    if (verified.size > 10_000) verified.clear()
    verified.set(digest, { userId: user.id, until: Date.now() + settings.verifiedCredentialSeconds * 1000 })
    return loadActor(user.id)
  }

  async function claimsUser(claims: TokenClaims | null, kinds: TokenClaims['kind'][]): Promise<UserCredentials> {
    if (!claims || !kinds.includes(claims.kind)) fail('AUTHENTICATION_FAILED')
    // Refresh and service tokens are checked against fresh rows: revocation must take effect at once.
    const user =
      claims.kind === 'access'
        ? ((await cachedUser(claims.userId))?.credentials ?? null)
        : await deps.users.findCredentialsById(claims.userId)
    if (!usable(user)) fail('AUTHENTICATION_FAILED')
    if (claims.kind === 'service' && user.serviceTokenId !== claims.tokenId) fail('AUTHENTICATION_FAILED')
    if (claims.kind === 'refresh' && !user.refreshTokenIds.includes(claims.tokenId)) fail('AUTHENTICATION_FAILED')
    return user
  }

  /** Reports a refusal of `attempt` to the observer and rethrows it. */
  async function observed<T>(method: AuthenticationMethod, attempt: Promise<T>): Promise<T> {
    try {
      return await attempt
    } catch (error) {
      if (deps.observer && isDomainError(error)) {
        if (error.code === 'AUTHENTICATION_FAILED') deps.observer.authenticationFailed(method)
        else if (error.code === 'ACCOUNT_LOCKED') deps.observer.authenticationThrottled('account')
        else if (error.code === 'ADDRESS_THROTTLED' || error.code === 'PASSWORD_CHECKS_BUSY')
          deps.observer.authenticationThrottled('address')
      }
      throw error
    }
  }

  const service: AuthService = {
    authenticatePassword,

    async authenticateToken(token) {
      const claims = deps.tokens.verify(token, nowSeconds())
      const user = await claimsUser(claims, ['access', 'service'])
      // An access token's claimsUser already checked the access version.
      return (await cachedUser(user.id, claims?.kind === 'access'))?.actor ?? fail('AUTHENTICATION_FAILED')
    },

    async login(login, password, address) {
      const actor = await authenticatePassword(login, password, address)
      const now = nowSeconds()
      const refreshId = deps.ids.newId()
      await deps.users.addRefreshToken(actor.id, refreshId, settings.refreshTokensKept)
      return {
        token: deps.tokens.sign({
          kind: 'access',
          userId: actor.id,
          tokenId: deps.ids.newId(),
          expiresAt: now + settings.accessTokenSeconds,
        }),
        refreshToken: deps.tokens.sign({
          kind: 'refresh',
          userId: actor.id,
          tokenId: refreshId,
          expiresAt: now + settings.refreshTokenSeconds,
        }),
      }
    },

    async refresh(refreshToken) {
      if (!refreshToken) fail('REFRESH_TOKEN_EMPTY')
      const user = await claimsUser(deps.tokens.verify(refreshToken, nowSeconds()), ['refresh'])
      return deps.tokens.sign({
        kind: 'access',
        userId: user.id,
        tokenId: deps.ids.newId(),
        expiresAt: nowSeconds() + settings.accessTokenSeconds,
      })
    },

    async issueServiceToken(login) {
      const user = await deps.users.findCredentialsByLogin(login)
      if (!user) fail('AUTHENTICATION_FAILED')
      const tokenId = deps.ids.newId()
      await deps.users.setServiceToken(user.id, tokenId)
      return deps.tokens.sign({ kind: 'service', userId: user.id, tokenId })
    },
  }
  if (!deps.observer) return service
  return {
    ...service,
    authenticatePassword: (login, password, address) =>
      observed('password', service.authenticatePassword(login, password, address)),
    authenticateToken: (token) => observed('token', service.authenticateToken(token)),
    login: (login, password, address) => observed('password', service.login(login, password, address)),
    refresh: (refreshToken) => observed('refresh', service.refresh(refreshToken)),
  }
}
