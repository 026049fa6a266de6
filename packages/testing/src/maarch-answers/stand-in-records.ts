import type { Database } from '@mailroom/storage'
import type { Insertable, Kysely } from 'kysely'

type RecordRow = Insertable<Database['res_letterbox']>

/**
 * Inserts a record that stands in for one of Maarch's sample records in a replayed exchange (an incoming letter
 * typed by superadmin, status NEW, with `values` over that) and returns its resId.
 */
export async function insertStandInRecord(
  db: Kysely<Database>,
  values: Partial<RecordRow> & Pick<RecordRow, 'destination'>,
): Promise<number> {
  const row = await db
    .insertInto('res_letterbox')
    .values({ typist: 1, type_id: 101, category_id: 'incoming', model_id: 1, status: 'NEW', ...values })
    .returning('res_id')
    .executeTakeFirstOrThrow()
  return Number(row.res_id)
}
