import type { TagRepository } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/**
 * Every tag by label, with the number of records carrying it. Mailroom's tags are a label only: the fields
 * 20.10 added for tag hierarchies and descriptions are answered empty (`creationDate` null: not kept).
 */
export function kyselyTagRepository(db: Kysely<Database>): TagRepository {
  return {
    list: async () => {
      const rows = await db
        .selectFrom('tags as t')
        .select([
          't.id',
          't.label',
          sql<string>`(select count(distinct rt.res_id) from resources_tags rt where rt.tag_id = t.id)`.as('count'),
        ])
        .orderBy('t.label')
        .orderBy('t.id')
        .execute()
      return rows.map((row) => ({
        id: row.id,
        label: row.label,
        description: null,
        links: [],
        usage: null,
        parentId: null,
        creationDate: null,
        countResources: Number(row.count),
      }))
    },
  }
}
