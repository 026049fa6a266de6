import type { PriorityRepository } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/** Every priority, by its order (20.10's `"order"`), then id. */
export function kyselyPriorityRepository(db: Kysely<Database>): PriorityRepository {
  return {
    list: () =>
      db
        .selectFrom('priorities')
        .select(['id', 'label', 'color', 'delays', 'order'])
        .orderBy('order')
        .orderBy('id')
        .execute(),
  }
}
