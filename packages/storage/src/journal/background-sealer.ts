import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { Logger } from '../logger.js'
import { sealJournal } from './journal-sealer.js'

/** Timing of background sealing (JournalWriterOptions' fields of the same names). */
export interface BackgroundSealerOptions {
  readonly logger: Logger
  /** Debounce between a write and its seal. */
  readonly sealDelayMs: number
  /** Period of the sweep sealing every safe's leftovers; 0 disables it. */
  readonly sweepIntervalMs: number
}

/** What background sealing is doing right now; each field says why it exists. */
interface SealingState {
  /** Safes written since the last drain started: a drain seals these only, not every safe of the database. */
  readonly dirtySafes: Set<string>
  /** The debounce before the next drain: one timer for all dirty safes, so a burst of writes costs one round. */
  debounce: ReturnType<typeof setTimeout> | null
  /**
   * The drain in flight. No timer is armed while it runs (it re-arms itself when safes got dirty meanwhile),
   * so two drains never seal one safe at once; flush() waits for it.
   */
  drain: Promise<void> | null
  /** The sweep's interval: it seals what no write of this process announced (other servers, a crash, a late commit). */
  sweepTimer: ReturnType<typeof setInterval> | null
  /** The sweep in flight: a slow sweep is never started again on top of itself, and close() waits for it. */
  sweep: Promise<void> | null
  /** Set by close(): nothing is armed after it, so no seal starts against a database being closed. */
  closed: boolean
}

/**
 * Seals committed pending journal events in the background, in short transactions of its own: a debounced
 * drain of the safes it is told were written, and a periodic sweep of every safe. Its timers are unref'ed:
 * pending background work never keeps a process alive (close() seals what is left).
 */
export class BackgroundSealer {
  readonly #db: Kysely<Database>
  readonly #options: BackgroundSealerOptions
  readonly #state: SealingState = {
    dirtySafes: new Set(),
    debounce: null,
    drain: null,
    sweepTimer: null,
    sweep: null,
    closed: false,
  }

  constructor(db: Kysely<Database>, options: BackgroundSealerOptions) {
    this.#db = db
    this.#options = options
    if (options.sweepIntervalMs > 0) {
      this.#state.sweepTimer = setInterval(() => this.#sweep(), options.sweepIntervalMs)
      this.#state.sweepTimer.unref?.()
      // Start-up sweep: what a crashed or killed process left committed but unsealed.
      setTimeout(() => this.#sweep(), 0).unref?.()
    }
  }

  /** Events of `safe` were committed: seal them soon. */
  written(safe: string): void {
    if (this.#state.closed) return
    this.#state.dirtySafes.add(safe)
    this.#arm()
  }

  /** Seals every committed pending event of the database, after any drain in flight; errors are thrown. */
  async flush(): Promise<void> {
    const state = this.#state
    do {
      if (state.debounce !== null) clearTimeout(state.debounce)
      state.debounce = null
      await state.drain
    } while (state.drain !== null || state.debounce !== null)
    state.dirtySafes.clear()
    await sealJournal(this.#db)
  }

  /** Stops background sealing, then seals what is left (errors logged). */
  async close(): Promise<void> {
    const state = this.#state
    if (state.closed) return
    state.closed = true
    if (state.sweepTimer !== null) clearInterval(state.sweepTimer)
    state.sweepTimer = null
    await state.sweep
    await this.flush().catch((error: unknown) =>
      this.#options.logger.error({ err: error }, 'journal: pending events could not be sealed on close'),
    )
  }

  /** Arms the debounce timer unless one is armed or a drain runs (it re-arms when it ends). */
  #arm(): void {
    const state = this.#state
    if (state.debounce !== null || state.drain !== null || state.closed) return
    state.debounce = setTimeout(() => {
      state.debounce = null
      state.drain = this.#drain().finally(() => {
        state.drain = null
        if (state.dirtySafes.size > 0) this.#arm()
      })
    }, this.#options.sealDelayMs)
    state.debounce.unref?.()
  }

  /**
   * Seals the dirty safes, in parallel across safes and one seal per safe. A safe that had something to seal
   * is sealed once more, to pick up the transactions that were still committing when it was told (the
   * journal's own writes announce themselves before their caller commits); one round that finds nothing ends
   * it (the periodic sweep catches the slower ones).
   */
  async #drain(): Promise<void> {
    const safes = [...this.#state.dirtySafes]
    this.#state.dirtySafes.clear()
    await Promise.all(
      safes.map(async (safe) => {
        try {
          if ((await sealJournal(this.#db, { safe })) > 0) this.#state.dirtySafes.add(safe)
        } catch (error) {
          this.#options.logger.error({ err: error, safe }, 'journal: background seal failed (the sweep retries)')
        }
      }),
    )
  }

  /** Seals every safe's leftovers: other servers', a crashed process's, or commits the drain missed. */
  #sweep(): void {
    const state = this.#state
    if (state.sweep !== null || state.closed) return
    state.sweep = (async () => {
      try {
        await state.drain
        await sealJournal(this.#db)
      } catch (error) {
        this.#options.logger.error({ err: error }, 'journal: sweep failed (retried at the next sweep)')
      } finally {
        state.sweep = null
      }
    })()
  }
}
