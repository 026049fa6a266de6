import { createHash } from 'node:crypto'
import type { AuthThrottle, ThrottleCounter } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** auth_failures.subject is a varchar(255): a longer subject (a very long login) is stored as its digest. */
const SUBJECT_LENGTH = 255

function storedSubject(subject: string): string {
  if (subject.length <= SUBJECT_LENGTH) return subject
  return `${subject.slice(0, subject.indexOf(':') + 1)}sha256:${createHash('sha256').update(subject).digest('hex')}`
}

/**
 * The throttle's counters in the auth_failures table, so every server sharing the database counts the same
 * failures (core's throttle policy decides what they mean). Only failures and successes write.
 */
export class KyselyAuthThrottle implements AuthThrottle {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async read(subjects: readonly string[]): Promise<ReadonlyMap<string, ThrottleCounter>> {
    const byStored = new Map(subjects.map((s) => [storedSubject(s), s]))
    if (byStored.size === 0) return new Map()
    const rows = await this.#db
      .selectFrom('auth_failures')
      .select(['subject', 'failures', 'locked_until', 'updated_at'])
      .where('subject', 'in', [...byStored.keys()])
      .execute()
    return new Map(
      rows.map((r) => [
        byStored.get(r.subject) ?? r.subject,
        {
          failures: r.failures,
          updatedAt: new Date(r.updated_at),
          lockedUntil: r.locked_until ? new Date(r.locked_until) : null,
        },
      ]),
    )
  }

  async recordFailure(
    subjects: readonly { subject: string; windowSeconds: number }[],
    now: Date,
  ): Promise<ReadonlyMap<string, number>> {
    const counts = new Map<string, number>()
    // One statement per subject (each has its own window); sorted so concurrent failures take row locks in
    // the same order and never deadlock.
    for (const { subject, windowSeconds } of [...subjects].sort((a, b) => (a.subject < b.subject ? -1 : 1))) {
      // A counter whose last failure is older than its window starts again, so occasional typos never add up.
      const windowStart = new Date(now.getTime() - windowSeconds * 1000)
      const row = await this.#db
        .insertInto('auth_failures')
        .values({ subject: storedSubject(subject), failures: 1, locked_until: null, updated_at: now })
        .onConflict((oc) =>
          oc.column('subject').doUpdateSet({
            failures: sql`case when auth_failures.updated_at < ${windowStart} then 1 else auth_failures.failures + 1 end`,
            updated_at: now,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow()
      counts.set(subject, row.failures)
    }
    return counts
  }

  async clear(subjects: readonly string[]): Promise<void> {
    if (subjects.length === 0) return
    await this.#db.deleteFrom('auth_failures').where('subject', 'in', subjects.map(storedSubject)).execute()
  }

  async remember(subject: string, now: Date): Promise<void> {
    await this.#db
      .insertInto('auth_failures')
      .values({ subject: storedSubject(subject), failures: 0, locked_until: null, updated_at: now })
      .onConflict((oc) => oc.column('subject').doUpdateSet({ updated_at: now }))
      .execute()
  }

  async lock(subject: string, until: Date): Promise<void> {
    await this.#db
      .updateTable('auth_failures')
      .set({ locked_until: until, failures: 0 })
      .where('subject', '=', storedSubject(subject))
      .execute()
  }
}
