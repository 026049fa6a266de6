import type { Actor } from '../actors/actor.js'
import type { NotesTemplates } from '../api/note-schemas.js'
import type { NoteCreated, NoteDetail, RecordNotes } from './note.js'

/** Facts about the request that the history records beside the actor. */
export interface NoteRequestMeta {
  readonly remoteIp?: string
}

/** Use cases of the notes of records, as adapters call them. */
export interface NotesServices {
  /** `POST /rest/notes`: checks in 20.10's order, writes the note, its entities and two history rows at once. */
  create(actor: Actor, body: unknown, meta?: NoteRequestMeta): Promise<NoteCreated>
  /** `GET /rest/resources/{resId}/notes`: the notes of a record the actor may see, newest first. */
  listOfRecord(actor: Actor, resId: string | undefined, limit?: unknown): Promise<RecordNotes>
  /** `GET /rest/notesTemplates?resId=`: the note templates of the action dialogs (none in Mailroom yet). */
  templates(actor: Actor, resId: unknown): Promise<NotesTemplates>
  /** `GET /rest/notes/{id}`: one note, if the actor may see it and its record. */
  read(actor: Actor, id: string | undefined): Promise<NoteDetail>
}
