import type { StatusRepository } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/** Every status, by label (20.10's order); `is_closing` is Mailroom's and not shown. */
export function kyselyStatusRepository(db: Kysely<Database>): StatusRepository {
  return {
    list: () =>
      db
        .selectFrom('status')
        .select([
          'identifier',
          'id',
          'label_status',
          'is_system',
          'img_filename',
          'maarch_module',
          'can_be_searched',
          'can_be_modified',
        ])
        .orderBy('label_status')
        .orderBy('identifier')
        .execute(),
  }
}
