import type { Actor } from '../actors/actor.js'

/** A note of a record as `GET /rest/resources/{resId}/notes` lists it (20.10's field names). */
export interface RecordNote {
  readonly id: number
  /** The record (res_id) the note is about. */
  readonly identifier: number
  /** Author's user id. */
  readonly user_id: number
  /** ISO 8601 date-time in UTC. */
  readonly creation_date: string
  readonly firstname: string | null
  readonly lastname: string | null
  /** Label of the author's primary entity (null when the author has none). */
  readonly entity_label: string | null
  readonly value: string
  /** Only on a restricted note: each entity it is restricted to, one item per entity. */
  readonly entities_restriction?: readonly { short_label: string | null; item_id: readonly string[] }[]
}

/** One note as `GET /rest/notes/{id}` answers it. */
export interface NoteDetail {
  readonly id: number
  readonly identifier: number
  readonly user_id: number
  readonly creation_date: string
  readonly value: string
  /** The entity_ids the note is restricted to; empty: everyone who sees the record sees it. */
  readonly entities: readonly string[]
}

/** Body of `GET /rest/resources/{resId}/notes`. */
export interface RecordNotes {
  readonly notes: readonly RecordNote[]
}

/** Body of a successful `POST /rest/notes`. */
export interface NoteCreated {
  readonly noteId: number
}

/**
 * Whether the actor may see a note of a record it sees (20.10's `NoteModel` rule): the actor wrote it, or it names
 * no entity, or one of the entities it names is one of the actor's own (not their sub-entities).
 */
export function isNoteVisible(
  note: { readonly authorId: number; readonly entityIds: readonly string[] },
  actor: Pick<Actor, 'id' | 'entities'>,
): boolean {
  if (note.authorId === actor.id || note.entityIds.length === 0) return true
  return note.entityIds.some((entityId) => actor.entities.some((own) => own.entityId === entityId))
}

/** What a note's creation writes into the history (20.10 writes both rows). */
export const NOTE_HISTORY = {
  note: { tableName: 'notes', eventType: 'ADD', eventId: 'noteadd', module: 'notes', info: 'Annotation ajoutée' },
  record: {
    tableName: 'res_letterbox',
    eventType: 'ADD',
    eventId: 'resourceModification',
    module: 'resource',
    info: 'Annotation ajoutée',
  },
} as const
