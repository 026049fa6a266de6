import type { Actor } from '../actors/actor.js'

/** Slow salted password hashing (scrypt in storage). */
export interface PasswordHasher {
  hash(password: string): Promise<string>
  /** Constant-time comparison of a password with a stored hash. */
  verify(password: string, storedHash: string): Promise<boolean>
  /**
   * True when a stored hash that verified should be replaced by `hash(password)`: a lower cost than the
   * current one, or another scheme (imported hashes). The login use case upgrades it at once.
   */
  needsRehash(storedHash: string): boolean
}

/** What a token says. `kind` tells access, refresh and service tokens apart. */
export interface TokenClaims {
  readonly kind: 'access' | 'refresh' | 'service'
  readonly userId: number
  /** Unique token id; refresh and service tokens are revoked by forgetting it. */
  readonly tokenId: string
  /** Expiry in seconds since the epoch; absent for service tokens. */
  readonly expiresAt?: number
  /**
   * Who the token's user is, as Maarch 20.10's web client reads it from an access token's payload (`user`: it
   * shows the name and keys its saved URL by `user.id`). Written for display only: never read back to
   * authenticate, which goes by `userId` and the user's current row.
   */
  readonly user?: TokenUser
}

/** The user an access token names for a client to show (20.10's `id, firstname, lastname, status, login`). */
export interface TokenUser {
  readonly firstname: string | null
  readonly lastname: string | null
  readonly status: string
  readonly login: string
}

/** Signs and checks tokens with the deployment's secret (never a built-in key). */
export interface TokenSigner {
  sign(claims: TokenClaims): string
  /** The claims of a token whose signature is valid and that has not expired at `nowSeconds`; null otherwise. */
  verify(token: string, nowSeconds: number): TokenClaims | null
}

/**
 * How a user proves who they are: `standard`, a password Mailroom keeps (hashed); `ldap`, a password the
 * organisation's directory checks by a bind; `oidc`, a sign-in at an OpenID Connect provider (no password here).
 */
export const AUTHENTICATION_METHODS = ['standard', 'ldap', 'oidc'] as const
/** One of {@link AUTHENTICATION_METHODS}. */
export type AuthenticationMethodName = (typeof AUTHENTICATION_METHODS)[number]

/** What a directory answered to a login and password. */
export type DirectoryCheck =
  | { readonly accepted: true }
  /** `reason` is for the log (wrong password, no such entry, account disabled…), never for the caller. */
  | { readonly accepted: false; readonly reason: string }

/**
 * The organisation's directory, checking a password by a bind (LDAP, Active Directory). It throws the
 * DIRECTORY_UNAVAILABLE domain error when it cannot answer (unreachable, TLS refused, service account
 * refused), so that an outage is never taken for a wrong password.
 */
export interface DirectoryAuthenticator {
  checkPassword(login: string, password: string): Promise<DirectoryCheck>
}

/**
 * The organisation's OpenID Connect provider, for users whose method is `oidc`: checks the provider's access
 * tokens that API clients present as bearer tokens. Throws IDENTITY_PROVIDER_UNAVAILABLE when it cannot tell
 * (its keys unreachable), so that an outage is never taken for a bad token.
 */
export interface IdentityProvider {
  /** The login a valid access token of the provider names (its configured claim); null for any other token. */
  loginOfAccessToken(token: string): Promise<string | null>
}

/** A user's stored credentials and state, as authentication needs them. */
export interface UserCredentials {
  readonly id: number
  readonly login: string
  /** How the user signs in; absent: `standard`. */
  readonly authentication?: AuthenticationMethodName
  readonly passwordHash: string
  readonly status: string
  readonly mode: Actor['mode']
  readonly lockedUntil: Date | null
  readonly refreshTokenIds: readonly string[]
  readonly serviceTokenId: string | null
}

/** Users, as authentication and every use case need them. */
export interface UserRepository {
  findCredentialsByLogin(login: string): Promise<UserCredentials | null>
  findCredentialsById(id: number): Promise<UserCredentials | null>
  /** The full actor (entities, groups and their clauses) of a user id; null when it does not exist. */
  loadActor(userId: number): Promise<Actor | null>
  /** Remembers a refresh token id (keeping at most `keep` of the newest). */
  addRefreshToken(userId: number, tokenId: string, keep: number): Promise<void>
  /** Makes `tokenId` the only valid service token of the user. */
  setServiceToken(userId: number, tokenId: string): Promise<void>
  /**
   * Replaces a user's password hash, only while it still is `previousHash` (a password changed meanwhile
   * wins); true when it was replaced.
   */
  replacePasswordHash(userId: number, previousHash: string, newHash: string): Promise<boolean>
  /**
   * A value that changes whenever any user's login, password, status, mode, groups or entities change
   * (optional). When given, authentication drops what it keeps in memory as soon as it changes, so a
   * disabled user is refused at once on every server sharing the users.
   */
  accessVersion?(): Promise<string>
}

/** One stored counter of the throttle, as last written. */
export interface ThrottleCounter {
  readonly failures: number
  /** When it last changed: the last failure of a failure counter, the last success of a remembered address. */
  readonly updatedAt: Date
  /** The end of a lock set on it, or null. */
  readonly lockedUntil: Date | null
}

/**
 * Counters of authentication failures, kept where every server sharing the users sees them (the
 * database). It stores and counts only: what the counts mean is the throttle policy's (throttle-policy.ts).
 * A subject is an opaque key such as `pair:<address> <login>`.
 */
export interface AuthThrottle {
  /** The stored counters of these subjects (absent ones are missing from the map). */
  read(subjects: readonly string[]): Promise<ReadonlyMap<string, ThrottleCounter>>
  /**
   * Adds one failure to each subject, starting again from 1 when its last failure is older than its window;
   * returns the counts after the failure.
   */
  recordFailure(
    subjects: readonly { subject: string; windowSeconds: number }[],
    now: Date,
  ): Promise<ReadonlyMap<string, number>>
  /** Forgets the counters of these subjects. */
  clear(subjects: readonly string[]): Promise<void>
  /** Records that something happened now (a success) on a subject, with no failure. */
  remember(subject: string, now: Date): Promise<void>
  /** Locks a subject until a time, and starts its count again. */
  lock(subject: string, until: Date): Promise<void>
}

/** The time source, injectable for tests. */
export interface Clock {
  now(): Date
}

/** Random identifiers (token ids, archive ids). */
export interface IdGenerator {
  newId(): string
}
