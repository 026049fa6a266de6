import type { HistoryRow, ListedNote, NewNote, NotesStore, StoredNote } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import { insertHistoryRows } from '../history/history-rows.js'
import type { StorageContext } from '../storage-context.js'
import { primaryEntityLabelOf } from '../users/primary-entity-label.js'

type Executor = Kysely<Database>

/** A note's restriction: the entity ids it names, with their short labels (null for an entity that is gone). */
type Restriction = { itemId: string; shortLabel: string | null }[]

/**
 * Writes a note, its restriction and the history rows `historyOf` words for its id, in the caller's transaction
 * (`POST /rest/notes`, an action's note). Returns the note's id.
 */
export async function insertNote(
  trx: Executor,
  authorId: number,
  note: NewNote,
  historyOf: (noteId: number) => readonly HistoryRow[],
  remoteIp: string | undefined,
): Promise<number> {
  const { id } = await trx
    .insertInto('notes')
    .values({ identifier: note.resId, user_id: authorId, note_text: note.value })
    .returning('id')
    .executeTakeFirstOrThrow()
  if (note.entities.length > 0)
    await trx
      .insertInto('note_entities')
      .values(note.entities.map((itemId) => ({ note_id: id, item_id: itemId })))
      .execute()
  await insertHistoryRows(trx, authorId, historyOf(id), remoteIp)
  return id
}

/** Core's notes port over kysely: `notes`, `note_entities` and their history rows. */
export function kyselyNotesStore(context: Pick<StorageContext, 'db'>): NotesStore {
  const { db } = context
  return {
    async countEntities(ids) {
      const row = await db
        .selectFrom('entities')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('entity_id', 'in', ids)
        .executeTakeFirstOrThrow()
      return Number(row.n)
    },

    create(actor, note, historyOf, meta) {
      return db.transaction().execute((trx) => insertNote(trx, actor.id, note, historyOf, meta.remoteIp))
    },

    async notesOf(resId) {
      const rows = await db
        .selectFrom('notes as n')
        .leftJoin('users as u', 'u.id', 'n.user_id')
        .select([
          'n.id',
          'n.identifier',
          'n.user_id',
          'n.creation_date',
          'n.note_text',
          'u.firstname',
          'u.lastname',
          primaryEntityLabelOf('n.user_id').as('entity_label'),
        ])
        .where('n.identifier', '=', resId)
        .orderBy('n.creation_date', 'desc')
        .orderBy('n.id', 'desc')
        .execute()
      const restrictions = await restrictionsOf(
        db,
        rows.map((row) => row.id),
      )
      return rows.map(
        (row): ListedNote => ({
          ...storedNote(row, restrictions.get(row.id)),
          firstname: row.firstname ?? null,
          lastname: row.lastname ?? null,
          entityLabel: row.entity_label ?? null,
        }),
      )
    },

    async note(id) {
      const row = await db
        .selectFrom('notes')
        .select(['id', 'identifier', 'user_id', 'creation_date', 'note_text'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row) return null
      return storedNote(row, (await restrictionsOf(db, [row.id])).get(row.id))
    },
  }
}

function storedNote(
  row: { id: number; identifier: number | string; user_id: number; creation_date: Date | string; note_text: string },
  restriction: Restriction | undefined,
): StoredNote {
  return {
    id: row.id,
    resId: Number(row.identifier),
    authorId: row.user_id,
    creationDate: new Date(row.creation_date).toISOString(),
    value: row.note_text,
    restriction: restriction ?? null,
  }
}

/** The restrictions of the given notes, in the order they were written; notes without one are absent. */
async function restrictionsOf(db: Executor, noteIds: readonly number[]): Promise<Map<number, Restriction>> {
  const byNote = new Map<number, Restriction>()
  if (noteIds.length === 0) return byNote
  const rows = await db
    .selectFrom('note_entities as ne')
    .leftJoin('entities as e', 'e.entity_id', 'ne.item_id')
    .select(['ne.note_id', 'ne.item_id', 'e.short_label'])
    .where('ne.note_id', 'in', noteIds)
    .orderBy('ne.id')
    .execute()
  for (const row of rows) {
    const list = byNote.get(row.note_id) ?? []
    list.push({ itemId: row.item_id, shortLabel: row.short_label ?? null })
    byNote.set(row.note_id, list)
  }
  return byNote
}
