import { type Actor, fail, type NotesServices, type RecordNote } from '@mailroom/core'
import {
  isNoteVisible,
  NOTE_HISTORY,
  parseNoteCreateBody,
  parseNoteEntities,
  parseNoteId,
  parseNotesLimit,
  parseNotesResId,
} from '@mailroom/core/internal'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import { insertHistoryRows } from '../history/history-rows.js'
import type { StorageContext } from '../storage-context.js'
import { primaryEntityLabelOf } from '../users/primary-entity-label.js'

type Executor = Kysely<Database>

/** A note's restriction: the entity ids it names, with their short labels (null for an entity that is gone). */
type Restriction = { itemId: string; shortLabel: string | null }[]

/**
 * Wires the notes of records over kysely: `POST /rest/notes`, `GET /rest/resources/{resId}/notes` and
 * `GET /rest/notes/{id}`, with Maarch 20.10's order of checks and its rule of who sees a restricted note.
 */
export function createNotesServices(context: StorageContext): NotesServices {
  const { db, perimeter } = context
  return {
    async create(actor, body, meta = {}) {
      const { resId, value, entities } = parseNoteCreateBody(body)
      if (!(await perimeter.allows(db, actor, resId))) fail('OUT_OF_PERIMETER')
      const { ids, impossible } = parseNoteEntities(entities)
      if (impossible || (ids.length > 0 && (await countEntities(db, ids)) !== ids.length)) fail('NOTE_ENTITIES_UNKNOWN')
      return db.transaction().execute(async (trx) => {
        const note = await trx
          .insertInto('notes')
          .values({ identifier: resId, user_id: actor.id, note_text: value })
          .returning('id')
          .executeTakeFirstOrThrow()
        if (ids.length > 0)
          await trx
            .insertInto('note_entities')
            .values(ids.map((itemId) => ({ note_id: note.id, item_id: itemId })))
            .execute()
        await insertHistoryRows(
          trx,
          actor.id,
          [
            { ...NOTE_HISTORY.note, recordId: note.id, info: `${NOTE_HISTORY.note.info} (${note.id})` },
            { ...NOTE_HISTORY.record, recordId: resId },
          ],
          meta.remoteIp,
        )
        return { noteId: note.id }
      })
    },

    async listOfRecord(actor, resIdText, limitText) {
      const resId = parseNotesResId(resIdText)
      if (!(await perimeter.allows(db, actor, resId))) fail('OUT_OF_PERIMETER')
      const limit = parseNotesLimit(limitText)
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
      const visible = rows.filter((row) => visibleTo(actor, row.user_id, restrictions.get(row.id)))
      return {
        notes: (limit === null ? visible : visible.slice(0, limit)).map((row): RecordNote => {
          const restriction = restrictions.get(row.id)
          return {
            id: row.id,
            identifier: Number(row.identifier),
            user_id: row.user_id,
            creation_date: new Date(row.creation_date).toISOString(),
            ...(restriction
              ? { entities_restriction: restriction.map((r) => ({ short_label: r.shortLabel, item_id: [r.itemId] })) }
              : {}),
            firstname: row.firstname ?? null,
            lastname: row.lastname ?? null,
            entity_label: row.entity_label ?? null,
            value: row.note_text,
          }
        }),
      }
    },

    async read(actor, idText) {
      const id = parseNoteId(idText)
      const row = await db
        .selectFrom('notes')
        .select(['id', 'identifier', 'user_id', 'creation_date', 'note_text'])
        .where('id', '=', id)
        .executeTakeFirst()
      if (!row || !(await perimeter.allows(db, actor, Number(row.identifier)))) fail('NOTE_OUT_OF_PERIMETER')
      const restriction = (await restrictionsOf(db, [row.id])).get(row.id)
      if (!visibleTo(actor, row.user_id, restriction)) fail('NOTE_OUT_OF_PERIMETER')
      return {
        id: row.id,
        identifier: Number(row.identifier),
        user_id: row.user_id,
        creation_date: new Date(row.creation_date).toISOString(),
        value: row.note_text,
        entities: (restriction ?? []).map((r) => r.itemId),
      }
    },
  }
}

function visibleTo(actor: Actor, authorId: number, restriction: Restriction | undefined): boolean {
  return isNoteVisible({ authorId, entityIds: (restriction ?? []).map((r) => r.itemId) }, actor)
}

async function countEntities(db: Executor, ids: readonly string[]): Promise<number> {
  const row = await db
    .selectFrom('entities')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('entity_id', 'in', ids)
    .executeTakeFirstOrThrow()
  return Number(row.n)
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
