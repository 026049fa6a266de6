import type { AuthThrottle } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** Failures allowed per subject before a lock-out, and how long the lock lasts. */
export interface ThrottleSettings {
  readonly maxFailuresPerLogin: number
  readonly maxFailuresPerAddress: number
  readonly lockSeconds: number
}

/** Defaults modelled on the reference's lockAttempts / lockTime. */
export const DEFAULT_THROTTLE_SETTINGS: ThrottleSettings = { maxFailuresPerLogin: 5, maxFailuresPerAddress: 50, lockSeconds: 300 }

/**
 * Lock-out counters in the database, so every server sharing it enforces the same locks.
 * Only failures write; a success clears the subject's counter.
 */
export class KyselyAuthThrottle implements AuthThrottle {
  readonly #db: Kysely<Database>
  readonly #settings: ThrottleSettings

  constructor(db: Kysely<Database>, settings: Partial<ThrottleSettings> = {}) {
    this.#db = db
    this.#settings = { ...DEFAULT_THROTTLE_SETTINGS, ...settings }
  }

  async lockedUntil(subject: string, now: Date): Promise<Date | null> {
    const row = await this.#db.selectFrom('auth_failures').select('locked_until').where('subject', '=', subject).executeTakeFirst()
    const until = row?.locked_until ? new Date(row.locked_until) : null
    return until && until.getTime() > now.getTime() ? until : null
  }

  async recordFailure(subject: string, now: Date): Promise<Date | null> {
    const max = subject.startsWith('address:') ? this.#settings.maxFailuresPerAddress : this.#settings.maxFailuresPerLogin
    const lockUntil = new Date(now.getTime() + this.#settings.lockSeconds * 1000)
    // A counter older than the lock window starts again, so occasional typos never add up to a lock.
    const windowStart = new Date(now.getTime() - this.#settings.lockSeconds * 1000)
    const row = await this.#db
      .insertInto('auth_failures')
      .values({ subject, failures: 1, locked_until: null, updated_at: now })
      .onConflict((oc) =>
        oc.column('subject').doUpdateSet({
          failures: sql`case when auth_failures.updated_at < ${windowStart} then 1 else auth_failures.failures + 1 end`,
          updated_at: now,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow()
    if (row.failures < max) return null
    await this.#db.updateTable('auth_failures').set({ locked_until: lockUntil, failures: 0 }).where('subject', '=', subject).execute()
    return lockUntil
  }

  async recordSuccess(subject: string): Promise<void> {
    await this.#db.deleteFrom('auth_failures').where('subject', '=', subject).execute()
  }
}
