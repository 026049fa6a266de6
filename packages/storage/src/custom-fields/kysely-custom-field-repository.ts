import type { CustomFieldRepository } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/**
 * Every custom field, by label. Mailroom's fields list their values (no SQL-defined values, which 20.10 shows
 * to admin_custom_fields only): `SQLMode` is always false.
 */
export function kyselyCustomFieldRepository(db: Kysely<Database>): CustomFieldRepository {
  return {
    list: async () => {
      const rows = await db
        .selectFrom('custom_fields')
        .select(['id', 'label', 'type', 'mode', 'values'])
        .orderBy('label')
        .orderBy('id')
        .execute()
      return rows.map((row) => ({ ...row, values: Array.isArray(row.values) ? row.values : [], SQLMode: false }))
    },
  }
}
