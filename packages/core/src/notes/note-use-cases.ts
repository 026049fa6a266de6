import type { Actor } from '../actors/actor.js'
import type { NotesTemplates } from '../api/note-schemas.js'
import { fail } from '../errors/domain-error.js'
import type { HistoryRow } from '../history/history-row.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { isEmptyParam } from '../processing-page/history-query.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { isNoteVisible, NOTE_HISTORY, type NoteCreated, type NoteDetail, type RecordNotes } from './note.js'
import {
  parseNoteCreateBody,
  parseNoteEntities,
  parseNoteId,
  parseNotesLimit,
  parseNotesResId,
} from './note-request.js'
import type { NoteRequestMeta, NotesServices } from './notes-services.js'
import type { NotesStore, StoredNote } from './ports.js'

/** What the notes use cases need from the outside. */
export interface NotesDependencies {
  readonly notes: NotesStore
  readonly perimeter: RecordPerimeter
}

/**
 * `POST /rest/notes` in 20.10's order: the value, the record id, the perimeter, then the entities (shape,
 * then existence). Writes the note, its restriction and its two history rows at once.
 */
export async function createNote(
  deps: NotesDependencies,
  actor: Actor,
  body: unknown,
  meta: NoteRequestMeta = {},
): Promise<NoteCreated> {
  const { resId, value, entities } = parseNoteCreateBody(body)
  if (!(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  const { ids, impossible } = parseNoteEntities(entities)
  if (impossible || (ids.length > 0 && (await deps.notes.countEntities(ids)) !== ids.length)) {
    fail('NOTE_ENTITIES_UNKNOWN')
  }
  const noteId = await deps.notes.create(actor, { resId, value, entities: ids }, (id) => noteHistory(resId, id), meta)
  return { noteId }
}

/** `GET /rest/resources/{resId}/notes`: the id, the perimeter, the limit; the notes the actor may see, newest first. */
export async function listRecordNotes(
  deps: NotesDependencies,
  actor: Actor,
  resIdText: string | undefined,
  limitText: unknown,
): Promise<RecordNotes> {
  const resId = parseNotesResId(resIdText)
  if (!(await deps.perimeter.allows(actor, resId))) fail('OUT_OF_PERIMETER')
  const limit = parseNotesLimit(limitText)
  const visible = (await deps.notes.notesOf(resId)).filter((note) => visibleTo(actor, note))
  return {
    notes: (limit === null ? visible : visible.slice(0, limit)).map((note) => ({
      id: note.id,
      identifier: note.resId,
      user_id: note.authorId,
      creation_date: note.creationDate,
      ...(note.restriction
        ? {
            entities_restriction: note.restriction.map((r) => ({ short_label: r.shortLabel, item_id: [r.itemId] })),
          }
        : {}),
      firstname: note.firstname,
      lastname: note.lastname,
      entity_label: note.entityLabel,
      value: note.value,
    })),
  }
}

/** `GET /rest/notes/{id}`: a note the actor may not see answers as one that does not exist. */
export async function readNote(deps: NotesDependencies, actor: Actor, idText: string | undefined): Promise<NoteDetail> {
  const note = await deps.notes.note(parseNoteId(idText))
  if (!note || !(await deps.perimeter.allows(actor, note.resId))) fail('NOTE_OUT_OF_PERIMETER')
  if (!visibleTo(actor, note)) fail('NOTE_OUT_OF_PERIMETER')
  return {
    id: note.id,
    identifier: note.resId,
    user_id: note.authorId,
    creation_date: note.creationDate,
    value: note.value,
    entities: (note.restriction ?? []).map((r) => r.itemId),
  }
}

function visibleTo(actor: Actor, note: StoredNote): boolean {
  return isNoteVisible({ authorId: note.authorId, entityIds: (note.restriction ?? []).map((r) => r.itemId) }, actor)
}

/** The two rows 20.10 writes for a new note: under the note (its id in the message), and under its record. */
export function noteHistory(resId: number, noteId: number): HistoryRow[] {
  return [
    { ...NOTE_HISTORY.note, recordId: noteId, info: `${NOTE_HISTORY.note.info} (${noteId})` },
    { ...NOTE_HISTORY.record, recordId: resId },
  ]
}

// PHP's is_numeric: leading blanks, a sign, decimals, an exponent (20.10 runs PHP 7: no trailing blank).
const PHP_NUMERIC = /^[ \t\n\r\v\f]*[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?$/

/**
 * `GET /rest/notesTemplates` as `NoteController::getTemplates`: a `resId` that PHP takes for a number (and not
 * empty) must be a letter of the perimeter ('Document out of perimeter' for any other, a number past the column
 * included); anything else asks for every template. Mailroom keeps no note templates yet (20.10's `templates` of
 * target `notes`): the list is empty, after the same check, and the dialogs' note field offers none.
 */
export async function readNotesTemplates(
  deps: NotesDependencies,
  actor: Actor,
  resId: unknown,
): Promise<NotesTemplates> {
  const text = Array.isArray(resId) ? resId.at(-1) : resId
  if (typeof text === 'string' && !isEmptyParam(text) && PHP_NUMERIC.test(text)) {
    const id = databaseIdOf(text, 'bigint')
    if (id === null || !(await deps.perimeter.allows(actor, id))) fail('OUT_OF_PERIMETER')
  }
  return { templates: [] }
}

/** The notes use cases over their ports (storage implements them, the composition root wires them). */
export function createNotesUseCases(deps: NotesDependencies): NotesServices {
  return {
    create: (actor, body, meta) => createNote(deps, actor, body, meta),
    listOfRecord: (actor, resId, limit) => listRecordNotes(deps, actor, resId, limit),
    read: (actor, id) => readNote(deps, actor, id),
    templates: (actor, resId) => readNotesTemplates(deps, actor, resId),
  }
}
