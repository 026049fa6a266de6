import type { FolderRepository, VisibleFolderRow } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/** Folders, read side: 20.10's scope (owner, sharing with the user's entities or with ALL_ENTITIES). */
export class KyselyFolderRepository implements FolderRepository {
  readonly #db: Kysely<Database>

  constructor(db: Kysely<Database>) {
    this.#db = db
  }

  async visibleTo(userId: number, entitySerialIds: readonly number[]): Promise<VisibleFolderRow[]> {
    // An empty list matches nothing (serial ids are positive).
    const entities = entitySerialIds.length > 0 ? [...entitySerialIds] : [-1]
    const sharedWithUser = (editionOnly: boolean) =>
      sql<boolean>`exists (
        select 1 from entities_folders ef
        where ef.folder_id = f.id
          and (ef.entity_id in (${sql.join(entities)}) or ef.keyword = 'ALL_ENTITIES')
          ${editionOnly ? sql`and ef.edition` : sql``})`
    const rows = await this.#db
      .selectFrom('folders as f')
      .select([
        'f.id',
        'f.label',
        'f.public',
        'f.user_id',
        'f.parent_id',
        'f.level',
        sql<string>`(select count(distinct rf.res_id) from resources_folders rf where rf.folder_id = f.id)`.as('count'),
        sql<boolean>`(f.user_id = ${userId} or ${sharedWithUser(true)})`.as('canEdit'),
      ])
      .where((eb) => eb.or([eb('f.user_id', '=', userId), sharedWithUser(false)]))
      .orderBy('f.label')
      .orderBy('f.id')
      .execute()
    return rows.map(({ count, ...row }) => ({ ...row, countResources: Number(count) }))
  }
}
