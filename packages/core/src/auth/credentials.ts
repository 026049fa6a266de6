import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import type { Clock, DirectoryAuthenticator, PasswordHasher, UserCredentials, UserRepository } from './ports.js'

/** How long credentials checks are reused (AuthSettings' fields of the same names). */
export interface CredentialCacheSettings {
  readonly verifiedCredentialSeconds: number
  readonly actorCacheSeconds: number
}

/** What credentials checks need. */
export interface CredentialDependencies {
  readonly users: UserRepository
  readonly hasher: PasswordHasher
  readonly clock: Clock
  /** Keyed digest of login + password for the cache of verified passwords (never the password itself). */
  readonly credentialDigest: (login: string, password: string) => string
  readonly settings: CredentialCacheSettings
  /** Checks the passwords of users whose method is `ldap`; without it they cannot sign in with a password. */
  readonly directory?: DirectoryAuthenticator | undefined
}

/** A user's usable credentials and actor, as kept between requests. */
export interface LoadedUser {
  readonly actor: Actor
  readonly credentials: UserCredentials
}

/** The outcome of checking a password against the stored hash: the user, or why not (for the log). */
export type PasswordCheck = { readonly user: UserCredentials } | { readonly reason: string }

/** Past this many entries a cache is emptied rather than grown: memory stays bounded under a flood. */
const MAX_CACHED = 10_000

const DUMMY_HASH_PASSWORD = 'mailroom-dummy-password'

/**
 * Passwords and users as authentication sees them: the password check against the stored hash, and the two
 * in-memory caches that keep HTTP Basic on every call cheap. Both caches are dropped together as soon as the
 * users' access version moves, so a disabled user is refused at once on every server.
 */
export class Credentials {
  readonly #deps: CredentialDependencies
  /** Digest of a login and password checked successfully → whose, until when (ms): skips the slow hash. */
  readonly #verifiedPasswords = new Map<string, { readonly userId: number; readonly until: number }>()
  /** Loaded users by id, until when (ms): Basic auth on every call would otherwise cost four queries per request. */
  readonly #loadedUsers = new Map<number, LoadedUser & { readonly until: number }>()
  /** The users' access version both caches were filled under (null: not read yet). */
  #accessVersion: string | null = null
  /** The read of the access version in flight, shared by concurrent requests: one query serves them all. */
  #versionRead: Promise<string> | undefined
  /** The hash an unknown login is checked against, computed once (see check). */
  #dummyHash: Promise<string> | undefined

  constructor(deps: CredentialDependencies) {
    this.#deps = deps
  }

  /** The cache key of a login (case-insensitive) and password. */
  digest(login: string, password: string): string {
    return this.#deps.credentialDigest(login.toLowerCase(), password)
  }

  /** True for a user who may log in now: status OK or ABS, and no lock running. */
  usable(user: UserCredentials | null): user is UserCredentials {
    if (!user) return false
    if (user.status !== 'OK' && user.status !== 'ABS') return false
    return !(user.lockedUntil && user.lockedUntil.getTime() > this.#nowMs())
  }

  /** The user a password digest was successfully checked for, while that check is trusted; null otherwise. */
  async verifiedUserOf(digest: string): Promise<number | null> {
    await this.#dropStaleCaches()
    const verified = this.#verifiedPasswords.get(digest)
    return verified && verified.until > this.#nowMs() ? verified.userId : null
  }

  /**
   * The actor of a user whose password digest was verified (see verifiedUserOf); null, and the digest
   * forgotten, when that user may no longer log in.
   */
  async actorOfVerified(digest: string, userId: number): Promise<Actor | null> {
    const user = await this.loadedUser(userId, { versionChecked: true })
    if (user) return user.actor
    this.#verifiedPasswords.delete(digest)
    return null
  }

  /**
   * Checks a password: against the login's stored hash, or by the directory for a user whose method is
   * `ldap` (its outage throws DIRECTORY_UNAVAILABLE). A user of an OpenID Connect provider has no password.
   */
  async check(login: string, password: string): Promise<PasswordCheck> {
    const user = await this.#deps.users.findCredentialsByLogin(login)
    const method = user?.authentication ?? 'standard'
    if (user && method !== 'standard') return this.#checkElsewhere(user, method, password)
    // Hash even for unknown users so response time does not reveal which logins exist.
    this.#dummyHash ??= this.#deps.hasher.hash(DUMMY_HASH_PASSWORD)
    const ok = await this.#deps.hasher.verify(password, user?.passwordHash ?? (await this.#dummyHash))
    if (ok && this.usable(user)) return { user }
    return { reason: !user ? 'unknown login' : !ok ? 'wrong password' : 'login disabled or locked' }
  }

  /**
   * The actor of a login the identity provider vouched for (a valid access token, a completed sign-in): only
   * a usable user whose method is `oidc`.
   */
  async actorOfProviderLogin(login: string): Promise<Actor | null> {
    const user = await this.#deps.users.findCredentialsByLogin(login)
    if (user?.authentication !== 'oidc' || !this.usable(user)) return null
    return (await this.loadedUser(user.id))?.actor ?? null
  }

  async #checkElsewhere(user: UserCredentials, method: 'ldap' | 'oidc', password: string): Promise<PasswordCheck> {
    if (method === 'oidc') return { reason: 'signs in through OpenID Connect, not with a password' }
    const directory = this.#deps.directory
    if (!directory) return { reason: 'directory user, but no directory is configured' }
    // The directory's state wins over the stored one only for the password: a user disabled here stays out.
    if (!this.usable(user)) return { reason: 'login disabled or locked' }
    const answer = await directory.checkPassword(user.login, password)
    return answer.accepted ? { user } : { reason: `directory: ${answer.reason}` }
  }

  /**
   * After a successful check: upgrades an outdated hash, trusts this digest for a while, and loads the actor.
   * A directory's answer is never kept: each sign-in of a directory user asks the directory again.
   */
  async accept(user: UserCredentials, password: string, digest: string): Promise<Actor> {
    if ((user.authentication ?? 'standard') !== 'standard') return this.#loadActor(user.id)
    await this.#upgradeHash(user, password)
    if (this.#verifiedPasswords.size > MAX_CACHED) this.#verifiedPasswords.clear()
    this.#verifiedPasswords.set(digest, {
      userId: user.id,
      until: this.#nowMs() + this.#deps.settings.verifiedCredentialSeconds * 1000,
    })
    return this.#loadActor(user.id)
  }

  /**
   * The usable credentials and actor of a user id, from the short-lived cache when fresh. `versionChecked`:
   * the caller has just checked the access version (no second read).
   */
  async loadedUser(userId: number, options: { versionChecked?: boolean } = {}): Promise<LoadedUser | null> {
    if (!options.versionChecked) await this.#dropStaleCaches()
    const now = this.#nowMs()
    const hit = this.#loadedUsers.get(userId)
    if (hit && hit.until > now) return this.usable(hit.credentials) ? hit : null
    const credentials = await this.#deps.users.findCredentialsById(userId)
    if (!this.usable(credentials)) {
      this.#loadedUsers.delete(userId)
      return null
    }
    const cacheSeconds = this.#deps.settings.actorCacheSeconds
    const entry = { actor: await this.#loadActor(userId), credentials, until: now + cacheSeconds * 1000 }
    if (cacheSeconds > 0) {
      if (this.#loadedUsers.size > MAX_CACHED) this.#loadedUsers.clear()
      this.#loadedUsers.set(userId, entry)
    }
    return entry
  }

  /**
   * Replaces a hash of an older cost or of another scheme (imported users) by one of the current cost: the
   * password is known only now, at a successful check.
   */
  async #upgradeHash(user: UserCredentials, password: string): Promise<void> {
    if (!this.#deps.hasher.needsRehash(user.passwordHash)) return
    await this.#deps.users.replacePasswordHash(user.id, user.passwordHash, await this.#deps.hasher.hash(password))
  }

  async #loadActor(userId: number): Promise<Actor> {
    const actor = await this.#deps.users.loadActor(userId)
    if (!actor) fail('AUTHENTICATION_FAILED')
    return actor
  }

  /**
   * Forgets every kept user and verified password when the users' access version has moved. Concurrent
   * requests share one read of the version: under load one query serves them all, at most a query's time old.
   */
  async #dropStaleCaches(): Promise<void> {
    const users = this.#deps.users
    if (!users.accessVersion) return
    this.#versionRead ??= users.accessVersion().finally(() => {
      this.#versionRead = undefined
    })
    const version = await this.#versionRead
    if (version === this.#accessVersion) return
    this.#accessVersion = version
    this.#verifiedPasswords.clear()
    this.#loadedUsers.clear()
  }

  #nowMs(): number {
    return this.#deps.clock.now().getTime()
  }
}
