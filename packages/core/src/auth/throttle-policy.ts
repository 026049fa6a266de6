import type { ThrottleCounter } from './ports.js'

/**
 * How password guessing is stopped without letting anyone lock the users out (issue #19): failures are
 * counted per login *and address*, per address, and per login. Only the first two refuse (429), and only
 * the address that failed; the third slows checks of that login from addresses it never succeeded from.
 * The reference's account lock (`password_rules.lockAttempts`) is there for who wants it, off by default.
 */
export interface ThrottlePolicy {
  /** How long a failure counts: counters older than this start again. */
  readonly windowSeconds: number
  /** Wrong passwords for one login from one address before that address is refused for that login. */
  readonly maxFailuresPerLoginAndAddress: number
  /** Wrong passwords from one address, all logins together, before it is refused for logins not known there. */
  readonly maxFailuresPerAddress: number
  /** Wrong passwords for one login, all addresses together, before its checks are slowed. */
  readonly freeFailuresPerLogin: number
  /** The first delay once a login's free failures are spent; it doubles with each further failure. */
  readonly firstDelayMs: number
  /** The longest delay (the slowing never becomes a lock-out). */
  readonly maxDelayMs: number
  /** How long an address a login succeeded from stays known for that login. */
  readonly knownAddressSeconds: number
  /** Reference account lock: failures of a login (any address) within lockSeconds that lock it; 0: off. */
  readonly lockAttempts: number
  /** Reference account lock: how long a locked login answers `Account Locked`, whatever the password. */
  readonly lockSeconds: number
  /** Password checks (slow hashes) running at once in this server; the others wait their turn. */
  readonly maxConcurrentChecks: number
  /** Checks of one login from one address running or waiting at once; more are refused at once. */
  readonly maxChecksPerLoginAndAddress: number
  /** Checks from one address running or waiting at once, for logins not known there; more are refused. */
  readonly maxChecksPerAddress: number
}

/** The limits Mailroom runs with unless told otherwise: the account lock is off (`lockAttempts: 0`). */
export const DEFAULT_THROTTLE_POLICY: ThrottlePolicy = {
  windowSeconds: 300,
  maxFailuresPerLoginAndAddress: 5,
  maxFailuresPerAddress: 30,
  freeFailuresPerLogin: 10,
  firstDelayMs: 250,
  maxDelayMs: 10_000,
  knownAddressSeconds: 30 * 24 * 3600,
  lockAttempts: 0,
  lockSeconds: 300,
  maxConcurrentChecks: 2,
  maxChecksPerLoginAndAddress: 2,
  maxChecksPerAddress: 8,
}

/** The counters one password attempt involves. */
export interface ThrottleSubjects {
  /** This login from this address. */
  readonly pair: string
  /** Every login from this address. */
  readonly address: string
  /** This login from every address (the progressive delay). */
  readonly login: string
  /** This login's account lock (reference behaviour, when on). */
  readonly lock: string
  /** This login succeeded from this address. */
  readonly known: string
}

/** The subjects of an attempt; the login is compared case-insensitively, as authentication does. */
export function throttleSubjects(login: string, address: string): ThrottleSubjects {
  const name = login.toLowerCase()
  return {
    pair: `pair:${address} ${name}`,
    address: `address:${address}`,
    login: `login:${name}`,
    lock: `lock:${name}`,
    known: `known:${address} ${name}`,
  }
}

/** Why an attempt is refused before its password is checked. */
export type ThrottleRefusal =
  | { readonly code: 'ACCOUNT_LOCKED'; readonly reason: 'account locked'; readonly retryAfterSeconds: number }
  | {
      readonly code: 'ADDRESS_THROTTLED'
      readonly reason: 'too many failures for this login from this address' | 'too many failures from this address'
      readonly retryAfterSeconds: number
    }

/** What the counters say about one attempt. */
export interface ThrottleVerdict {
  readonly refusal: ThrottleRefusal | null
  /** The login succeeded from this address recently: the address limit and the delay do not apply. */
  readonly known: boolean
  /** How long to wait before checking the password (the progressive delay). */
  readonly delayMs: number
}

/** Failures a counter holds at `now`: none once its last failure is older than the window. */
export function liveFailures(counter: ThrottleCounter | undefined, now: Date, windowSeconds: number): number {
  if (!counter) return 0
  return now.getTime() - counter.updatedAt.getTime() < windowSeconds * 1000 ? counter.failures : 0
}

/** Seconds until a counter's failures stop counting (at least 1). */
function secondsLeft(counter: ThrottleCounter | undefined, now: Date, windowSeconds: number): number {
  const end = (counter?.updatedAt.getTime() ?? now.getTime()) + windowSeconds * 1000
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000))
}

/** The delay before checking a password of a login with this many live failures. */
export function progressiveDelayMs(loginFailures: number, policy: ThrottlePolicy): number {
  if (loginFailures < policy.freeFailuresPerLogin) return 0
  const doublings = Math.min(loginFailures - policy.freeFailuresPerLogin, 30)
  return Math.min(policy.maxDelayMs, policy.firstDelayMs * 2 ** doublings)
}

/**
 * Decides an attempt from its counters: the account lock (when on) refuses whatever the address; a login
 * guessed from this address is refused to this address only; an address that failed too often is refused
 * for the logins that never succeeded from it (so the other users behind it keep working); a login guessed
 * from everywhere is slowed for addresses it is not known from, never refused.
 */
export function judgeAttempt(
  counters: ReadonlyMap<string, ThrottleCounter>,
  subjects: ThrottleSubjects,
  now: Date,
  policy: ThrottlePolicy,
): ThrottleVerdict {
  const lockedUntil = counters.get(subjects.lock)?.lockedUntil ?? null
  if (policy.lockAttempts > 0 && lockedUntil && lockedUntil.getTime() > now.getTime()) {
    const retryAfterSeconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000))
    return {
      refusal: { code: 'ACCOUNT_LOCKED', reason: 'account locked', retryAfterSeconds },
      known: false,
      delayMs: 0,
    }
  }
  const known = isRecent(counters.get(subjects.known), now, policy.knownAddressSeconds)
  const pair = counters.get(subjects.pair)
  if (liveFailures(pair, now, policy.windowSeconds) >= policy.maxFailuresPerLoginAndAddress) {
    const retryAfterSeconds = secondsLeft(pair, now, policy.windowSeconds)
    return {
      refusal: {
        code: 'ADDRESS_THROTTLED',
        reason: 'too many failures for this login from this address',
        retryAfterSeconds,
      },
      known,
      delayMs: 0,
    }
  }
  if (known) return { refusal: null, known, delayMs: 0 }
  const address = counters.get(subjects.address)
  if (liveFailures(address, now, policy.windowSeconds) >= policy.maxFailuresPerAddress) {
    const retryAfterSeconds = secondsLeft(address, now, policy.windowSeconds)
    return {
      refusal: { code: 'ADDRESS_THROTTLED', reason: 'too many failures from this address', retryAfterSeconds },
      known,
      delayMs: 0,
    }
  }
  return {
    refusal: null,
    known,
    delayMs: progressiveDelayMs(liveFailures(counters.get(subjects.login), now, policy.windowSeconds), policy),
  }
}

function isRecent(counter: ThrottleCounter | undefined, now: Date, seconds: number): boolean {
  return counter !== undefined && now.getTime() - counter.updatedAt.getTime() < seconds * 1000
}
