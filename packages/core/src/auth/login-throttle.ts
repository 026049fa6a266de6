import { refuseAttempt } from './auth-refusal.js'
import type { PasswordCheck } from './credentials.js'
import { type GateKey, PasswordCheckGate } from './password-check-gate.js'
import type { AuthThrottle, Clock, UserCredentials } from './ports.js'
import { judgeAttempt, type ThrottlePolicy, type ThrottleSubjects, throttleSubjects } from './throttle-policy.js'

/** What the throttle of password attempts needs. */
export interface LoginThrottleDependencies {
  readonly policy: ThrottlePolicy
  readonly clock: Clock
  /** Failure counters shared by the servers; without it nothing is counted (the check gate still applies). */
  readonly counters?: AuthThrottle | undefined
  /** Waits the progressive delay. */
  readonly wait: (ms: number) => Promise<void>
}

/** Past this many entries the refused pairs are forgotten rather than grown: memory stays bounded under a flood. */
const MAX_REFUSED_PAIRS = 10_000

/**
 * Applies the throttle policy (throttle-policy.ts) to password attempts, over the counters every server
 * shares, and bounds this server's slow hashes with the check gate (password-check-gate.ts).
 */
export class LoginThrottle {
  readonly #deps: LoginThrottleDependencies
  /** This server's running and waiting password hashes. */
  readonly #gate: PasswordCheckGate
  /**
   * Pairs (`pair:` subjects) refused for too many failures, until their window ends and why: the rest of a
   * flood is answered without reading the counters (only a success could clear them, and none can come from
   * that address meanwhile).
   */
  readonly #refusedPairs = new Map<string, { readonly until: number; readonly reason: string }>()
  /** Checks running, by address and credentials digest: identical attempts arriving together share one. */
  readonly #running = new Map<string, Promise<unknown>>()

  constructor(deps: LoginThrottleDependencies) {
    this.#deps = deps
    this.#gate = new PasswordCheckGate(deps.policy.maxConcurrentChecks)
  }

  /**
   * Runs `attempt` unless an identical one (same `key`) is running, whose answer is shared then: a client's
   * parallel first calls, a script retrying a wrong password in a loop cost one hash and one count.
   */
  shareAttempt<T>(key: string, attempt: () => Promise<T>): Promise<T> {
    const running = this.#running.get(key)
    if (running) return running as Promise<T>
    const started = attempt().finally(() => this.#running.delete(key))
    this.#running.set(key, started)
    return started
  }

  /** The account lock (reference behaviour, off by default) refuses even credentials this server verified. */
  async checkAccountLock(login: string, address: string): Promise<void> {
    const { counters, policy, clock } = this.#deps
    if (!counters || policy.lockAttempts <= 0) return
    const subjects = throttleSubjects(login, address)
    const verdict = judgeAttempt(await counters.read([subjects.lock]), subjects, clock.now(), policy)
    if (verdict.refusal?.code === 'ACCOUNT_LOCKED')
      refuseAttempt('ACCOUNT_LOCKED', {
        login,
        address,
        reason: verdict.refusal.reason,
        retryAfterSeconds: verdict.refusal.retryAfterSeconds,
      })
  }

  /**
   * Runs a password `check` in its turn when the policy lets this attempt through (refusing it otherwise),
   * counts a failure where it counts and clears this pair's failures on success. Resolves the checked user.
   */
  async guard(login: string, address: string, check: () => Promise<PasswordCheck>): Promise<UserCredentials> {
    const { policy, wait } = this.#deps
    const subjects = throttleSubjects(login, address)
    // A flood from one address is refused here, before any query or hash.
    const pairKeys: GateKey[] = [{ key: subjects.pair, limit: policy.maxChecksPerLoginAndAddress }]
    if (this.#gate.isFull(pairKeys))
      refuseAttempt('PASSWORD_CHECKS_BUSY', {
        login,
        address,
        reason: 'too many checks of this login from this address at once',
        retryAfterSeconds: 1,
      })
    this.#refuseRememberedPair(login, address, subjects)
    const { known, delayMs } = await this.#judge(login, address, subjects)
    if (delayMs > 0) await wait(delayMs)
    // The address's own limit does not hold back logins known there: the other users behind it keep working.
    const keys = known ? pairKeys : [...pairKeys, { key: subjects.address, limit: policy.maxChecksPerAddress }]
    // Counted before the place in line is given up, so the next check of this login reads this failure.
    const checked = await this.#gate.run(keys, known, async () => {
      // Read again in turn: the failures of the checks this one waited behind count too.
      await this.#judge(login, address, subjects)
      const outcome = await check()
      if ('user' in outcome) return outcome.user
      return { reason: outcome.reason, lockedUntil: await this.#recordFailure(subjects) }
    })
    if (checked === null)
      refuseAttempt('PASSWORD_CHECKS_BUSY', {
        login,
        address,
        reason: 'too many checks from this address at once',
        retryAfterSeconds: 1,
      })
    if ('reason' in checked)
      refuseAttempt('AUTHENTICATION_FAILED', {
        login,
        address,
        reason: checked.reason,
        ...(checked.lockedUntil ? { lockedUntil: checked.lockedUntil } : {}),
      })
    await this.#recordSuccess(subjects)
    return checked
  }

  /** Refuses a pair remembered as refused while its window lasts, without a query. */
  #refuseRememberedPair(login: string, address: string, subjects: ThrottleSubjects): void {
    const remembered = this.#refusedPairs.get(subjects.pair)
    const nowMs = this.#deps.clock.now().getTime()
    if (remembered && remembered.until > nowMs)
      refuseAttempt('ADDRESS_THROTTLED', {
        login,
        address,
        reason: remembered.reason,
        retryAfterSeconds: Math.max(1, Math.ceil((remembered.until - nowMs) / 1000)),
      })
  }

  /** Reads the counters of an attempt and refuses it when the policy says so; else whether to wait. */
  async #judge(
    login: string,
    address: string,
    subjects: ThrottleSubjects,
  ): Promise<{ readonly known: boolean; readonly delayMs: number }> {
    const { counters, policy, clock } = this.#deps
    if (!counters) return { known: false, delayMs: 0 }
    const now = clock.now()
    const verdict = judgeAttempt(await counters.read(Object.values(subjects)), subjects, now, policy)
    if (verdict.refusal?.reason === 'too many failures for this login from this address') {
      if (this.#refusedPairs.size > MAX_REFUSED_PAIRS) this.#refusedPairs.clear()
      this.#refusedPairs.set(subjects.pair, {
        until: now.getTime() + verdict.refusal.retryAfterSeconds * 1000,
        reason: verdict.refusal.reason,
      })
    }
    if (verdict.refusal)
      refuseAttempt(verdict.refusal.code, {
        login,
        address,
        reason: verdict.refusal.reason,
        retryAfterSeconds: verdict.refusal.retryAfterSeconds,
      })
    return verdict
  }

  /** Counts a failure everywhere it counts; sets the account lock when it is on and this failure reaches it. */
  async #recordFailure(subjects: ThrottleSubjects): Promise<Date | undefined> {
    const { counters, policy, clock } = this.#deps
    if (!counters) return undefined
    const now = clock.now()
    const counted = [
      { subject: subjects.pair, windowSeconds: policy.windowSeconds },
      { subject: subjects.address, windowSeconds: policy.windowSeconds },
      { subject: subjects.login, windowSeconds: policy.windowSeconds },
      ...(policy.lockAttempts > 0 ? [{ subject: subjects.lock, windowSeconds: policy.lockSeconds }] : []),
    ]
    const counts = await counters.recordFailure(counted, now)
    if (policy.lockAttempts <= 0 || (counts.get(subjects.lock) ?? 0) < policy.lockAttempts) return undefined
    const until = new Date(now.getTime() + policy.lockSeconds * 1000)
    await counters.lock(subjects.lock, until)
    return until
  }

  /** A success clears this login's failures from this address (and its lock count) and makes the address known. */
  async #recordSuccess(subjects: ThrottleSubjects): Promise<void> {
    const { counters, policy, clock } = this.#deps
    if (!counters) return
    // The login-wide count stays: a user who logs in must not reset the delay guessers from elsewhere earned.
    await counters.clear([subjects.pair, ...(policy.lockAttempts > 0 ? [subjects.lock] : [])])
    await counters.remember(subjects.known, clock.now())
  }
}
