import { domainError } from '@mailroom/core'

/** How long the embedded database may hold its one connection with no statement finishing (the default). */
export const DEFAULT_PGLITE_STALL_TIMEOUT_MS = 15_000

/**
 * Watches the embedded database's one connection for progress: a hand-over or a finished statement. Past
 * `boundMs` without any while the connection is held (a transaction waiting on something that never comes, a
 * statement that never returns), the engine is stalled: callers waiting for their turn are refused with
 * DATABASE_UNRESPONSIVE instead of queueing for ever, and readiness fails, until the holder lets go.
 */
export class PgliteWatchdog {
  readonly #boundMs: number
  readonly #now: () => number
  #held = false
  #lastProgress: number

  constructor(boundMs: number = DEFAULT_PGLITE_STALL_TIMEOUT_MS, now: () => number = Date.now) {
    this.#boundMs = boundMs
    this.#now = now
    this.#lastProgress = now()
  }

  /** The connection changed hands or a statement finished. */
  progressed(held: boolean = this.#held): void {
    this.#held = held
    this.#lastProgress = this.#now()
  }

  /** True while the connection is held and nothing has finished for longer than the bound. */
  stalled(): boolean {
    return this.#held && this.#now() - this.#lastProgress >= this.#boundMs
  }

  /**
   * Waits for `turn`, or rejects with DATABASE_UNRESPONSIVE once the connection has made no progress for the
   * bound. A caller refused before its turn came calls `forfeit` when it comes, so the queue moves on.
   */
  waitFor(turn: Promise<void>, forfeit: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let refused = false
      let timer: NodeJS.Timeout | undefined
      const check = () => {
        const idle = this.#now() - this.#lastProgress
        if (idle < this.#boundMs) {
          timer = setTimeout(check, this.#boundMs - idle)
          return
        }
        refused = true
        reject(domainError('DATABASE_UNRESPONSIVE'))
      }
      timer = setTimeout(check, this.#boundMs)
      void turn.then(() => {
        clearTimeout(timer)
        if (refused) forfeit()
        else resolve()
      })
    })
  }
}
