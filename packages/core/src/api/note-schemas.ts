import { z } from 'zod'

/** Body of `POST /rest/notes`. */
export const NoteCreateBodySchema = z
  .object({
    resId: z.number().int().min(1).describe('The record the note is about (in the caller’s perimeter)'),
    value: z.string().min(1).describe('The text of the note (no length limit besides the body’s)'),
    entities: z
      .array(z.string())
      .optional()
      .describe('entity_ids the note is restricted to: only their members (and the author) see it'),
  })
  .meta({ id: 'NoteCreateRequest', description: 'A note on a record, optionally restricted to entities' })

/** Body of `POST /rest/notes`. */
export type NoteCreateBody = z.input<typeof NoteCreateBodySchema>

/** Body of a successful `POST /rest/notes`. */
export const NoteCreatedSchema = z
  .object({ noteId: z.number().int().describe('Identifier of the new note') })
  .meta({ id: 'NoteCreated', description: 'The note was written' })

const noteCommon = {
  id: z.number().int(),
  identifier: z.number().int().describe('The record (resId) the note is about'),
  user_id: z.number().int().describe('The author'),
  creation_date: z.iso.datetime({ offset: true }),
  value: z.string(),
}

/** Body of `GET /rest/resources/{resId}/notes`. */
export const RecordNotesSchema = z
  .object({
    notes: z.array(
      z.object({
        ...noteCommon,
        firstname: z.string().nullable(),
        lastname: z.string().nullable(),
        entity_label: z.string().nullable().describe('Label of the author’s primary entity'),
        entities_restriction: z
          .array(z.object({ short_label: z.string().nullable(), item_id: z.array(z.string()) }))
          .optional()
          .describe('Only on a restricted note: the entities it is restricted to'),
      }),
    ),
  })
  .meta({ id: 'RecordNotes', description: 'The notes of a record the caller may see, newest first' })

/** Body of `GET /rest/notes/{id}`. */
export const NoteDetailSchema = z
  .object({ ...noteCommon, entities: z.array(z.string()).describe('entity_ids the note is restricted to') })
  .meta({ id: 'Note', description: 'One note' })

/** Query of `GET /rest/resources/{resId}/notes`. */
export const NotesQuerySchema = z
  .object({ limit: z.number().int().min(0).optional().describe('At most this many notes, newest first (0: all)') })
  .meta({ description: 'Query of GET /rest/resources/{resId}/notes' })

/** Path of `GET /rest/notes/{id}`. */
export const NoteIdPathSchema = z
  .object({ id: z.number().int().min(1).describe('Note identifier') })
  .meta({ description: 'The note addressed' })

/** Query of `GET /rest/notesTemplates`. */
export const NotesTemplatesQuerySchema = z
  .object({
    resId: z
      .string()
      .optional()
      .describe(
        "The letter the note is written on: a number asks for its perimeter (templates of the letter's department)",
      ),
  })
  .meta({ description: 'Query of GET /rest/notesTemplates' })

/** Body of `GET /rest/notesTemplates`: the texts the note field of the action dialogs offers. */
export const NotesTemplatesSchema = z
  .object({
    templates: z
      .array(
        z.object({
          template_id: z.number().int().optional().describe("Given when the list is the letter's department's"),
          template_label: z.string(),
          template_content: z.string(),
        }),
      )
      .describe('Always empty: Mailroom keeps no note templates yet'),
  })
  .meta({ id: 'NotesTemplates', description: "The note templates of the action dialogs' note field" })
/** The note templates the action dialogs offer (20.10's `templates` of target `notes`): none in Mailroom yet. */
export type NotesTemplates = z.infer<typeof NotesTemplatesSchema>
