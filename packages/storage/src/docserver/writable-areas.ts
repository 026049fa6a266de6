import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/** A storage area files are written to: its docserver and the folder template the store places them under. */
export interface WritableStorageArea {
  readonly docserverId: string
  readonly pathTemplate: string
}

/**
 * The first writable storage area of each docserver type (DOC for originals, CONVERT for converted
 * versions…) of a collection (the letterbox one unless told), by type.
 */
export async function writableStorageAreas(
  db: Kysely<Database>,
  collection = 'letterbox_coll',
): Promise<Map<string, WritableStorageArea>> {
  const rows = await db
    .selectFrom('docservers')
    .select(['docserver_id', 'docserver_type_id', 'path_template'])
    .where('is_readonly', '=', 'N')
    .where('coll_id', '=', collection)
    .orderBy('id')
    .execute()
  const areas = new Map<string, WritableStorageArea>()
  for (const row of rows)
    if (!areas.has(row.docserver_type_id))
      areas.set(row.docserver_type_id, { docserverId: row.docserver_id, pathTemplate: row.path_template })
  return areas
}

/** The first writable DOC area of the attachments collection: where attachment files are stored. */
export async function attachmentStorageArea(db: Kysely<Database>): Promise<WritableStorageArea | null> {
  return (await writableStorageAreas(db, 'attachments_coll')).get('DOC') ?? null
}
