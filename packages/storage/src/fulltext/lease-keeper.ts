/** The clock and timer a lease keeper schedules with; tests give a simulated one. */
export interface LeaseScheduler {
  /** Milliseconds on a clock that never goes back. */
  now(): number
  /** Runs `run` once, about `ms` milliseconds from now (never sooner). */
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The process's monotonic clock and timers; the timers keep no process alive. */
export const SYSTEM_LEASE_SCHEDULER: LeaseScheduler = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

/**
 * A renewal is due a third of the lease after the last lease write was asked for: two thirds of the lease
 * are left for the event loop to run the timer late, the pool to find a connection and the database to
 * answer, and for one failed renewal to be tried again, before another server may take the job over.
 */
export const RENEW_EVERY_FRACTION = 1 / 3

/** After a renewal that failed (the database did not answer), the next try comes this fraction of the lease later. */
export const RETRY_EVERY_FRACTION = 1 / 12

/** What a lease keeper needs: the lease's length and how to renew it. */
export interface LeaseKeeperOptions {
  readonly leaseMs: number
  /** Extends the lease by `leaseMs` from the database's now; false when the lease is no longer held. */
  readonly renew: () => Promise<boolean>
  /** Told once when a renewal finds the lease gone (taken over, or the file enqueued again). */
  readonly onLost?: () => void
  /** Told of each renewal that failed (it is tried again). */
  readonly onError?: (error: unknown) => void
  readonly scheduler?: LeaseScheduler
}

/**
 * Keeps a claimed job's lease while its server works on it. Each renewal is scheduled from the moment the
 * last successful lease write was *asked for* (the claim, then each renewal), not from the previous
 * timer: a late timer, a slow pool or a slow database never pushes the next renewal later, and the
 * database's lease, counted from when the statement ran, ends no sooner than that moment plus the lease.
 * One renewal at a time; a failed one is tried again soon; a renewal that finds the lease gone stops.
 */
export class LeaseKeeper {
  readonly #options: LeaseKeeperOptions
  readonly #scheduler: LeaseScheduler
  /** When the last successful lease write was asked for (scheduler time). */
  #heldSince: number
  #timer: unknown = null
  #stopped = false
  #lost = false

  /** `heldSince`: the scheduler's time just before the claim that gave the lease was sent. */
  constructor(options: LeaseKeeperOptions, heldSince: number) {
    this.#options = options
    this.#scheduler = options.scheduler ?? SYSTEM_LEASE_SCHEDULER
    this.#heldSince = heldSince
    this.#schedule(this.#heldSince + options.leaseMs * RENEW_EVERY_FRACTION)
  }

  /** True once a renewal found the lease gone: the job's result must be dropped. */
  get lost(): boolean {
    return this.#lost
  }

  /** Scheduler time at which the lease is sure to run out if it is not renewed again. */
  get heldUntil(): number {
    return this.#heldSince + this.#options.leaseMs
  }

  /** Stops renewing (the job is finished, handed back, or its server stops). */
  stop(): void {
    this.#stopped = true
    if (this.#timer !== null) this.#scheduler.clearTimeout(this.#timer)
    this.#timer = null
  }

  #schedule(at: number): void {
    if (this.#stopped) return
    this.#timer = this.#scheduler.setTimeout(
      () => {
        this.#timer = null
        void this.#renew()
      },
      Math.max(0, at - this.#scheduler.now()),
    )
  }

  async #renew(): Promise<void> {
    if (this.#stopped) return
    const asked = this.#scheduler.now()
    const { leaseMs } = this.#options
    try {
      const held = await this.#options.renew()
      if (this.#stopped) return
      if (!held) {
        this.#lost = true
        this.stop()
        this.#options.onLost?.()
        return
      }
      this.#heldSince = asked
      this.#schedule(asked + leaseMs * RENEW_EVERY_FRACTION)
    } catch (error) {
      if (this.#stopped) return
      this.#options.onError?.(error)
      // Still try when the lease may have run out: if no other server took the job, it is held again.
      this.#schedule(this.#scheduler.now() + leaseMs * RETRY_EVERY_FRACTION)
    }
  }
}
