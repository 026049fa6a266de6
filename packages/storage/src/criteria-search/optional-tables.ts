import type { Actor } from '@mailroom/core'
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely'

/** Tables other capabilities add (notes, attachments): the search uses them once they exist. */
export interface OptionalTables {
  readonly notes: boolean
  readonly attachments: boolean
}

/** Which of the optional tables this database has. */
export async function optionalTables(db: Kysely<any>): Promise<OptionalTables> {
  const { rows } = await sql<{ notes: boolean; attachments: boolean }>`select
    to_regclass('notes') is not null and to_regclass('note_entities') is not null as notes,
    to_regclass('res_attachments') is not null as attachments`.execute(db)
  return { notes: rows[0]?.notes === true, attachments: rows[0]?.attachments === true }
}

/** The notes (alias `n`) the caller may read: 20.10's rule (no entities named, their own, or one of their entities). */
export function visibleNotes(actor: Actor): RawBuilder<SqlBool> {
  const entities = actor.entities.map((entity) => entity.entityId)
  return sql<SqlBool>`(n.user_id = ${sql.val(actor.id)}
    or not exists (select 1 from note_entities ne where ne.note_id = n.id)
    or exists (select 1 from note_entities ne where ne.note_id = n.id and ne.item_id = any(${sql.val(entities)}::text[])))`
}
