import type { Actor } from '../actors/actor.js'
import type { HistoryRow } from '../history/history-row.js'
import type { NoteRequestMeta } from './notes-services.js'

/** An entity a note is restricted to: its entity_id and short label (null for an entity that is gone). */
export interface NoteRestrictionEntity {
  readonly itemId: string
  readonly shortLabel: string | null
}

/** A stored note and its restriction, as the rule of who sees it and the reads need it. */
export interface StoredNote {
  readonly id: number
  /** The record (res_id) the note is about. */
  readonly resId: number
  readonly authorId: number
  /** ISO 8601 date-time in UTC. */
  readonly creationDate: string
  readonly value: string
  /** The entities it is restricted to, in the order they were written; null: no restriction. */
  readonly restriction: readonly NoteRestrictionEntity[] | null
}

/** A note as a record's list shows it: with its author's name and primary entity's label. */
export interface ListedNote extends StoredNote {
  readonly firstname: string | null
  readonly lastname: string | null
  readonly entityLabel: string | null
}

/** A checked note to write. */
export interface NewNote {
  readonly resId: number
  readonly value: string
  /** entity_ids it is restricted to, each once, all existing; empty: no restriction. */
  readonly entities: readonly string[]
}

/** Storage side of the notes of records. */
export interface NotesStore {
  /** How many of these entity_ids name an entity. */
  countEntities(entityIds: readonly string[]): Promise<number>
  /**
   * One transaction: the note, its restriction, and the history rows `historyOf` words for the new note's id.
   * Returns that id.
   */
  create(
    actor: Actor,
    note: NewNote,
    historyOf: (noteId: number) => readonly HistoryRow[],
    meta: NoteRequestMeta,
  ): Promise<number>
  /** Every note of the record, newest first (creation date, then id). */
  notesOf(resId: number): Promise<ListedNote[]>
  /** The note of this id, or null. */
  note(id: number): Promise<StoredNote | null>
}
