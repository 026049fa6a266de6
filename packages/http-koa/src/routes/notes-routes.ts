import {
  type NoteCreateBody,
  NoteCreateBodySchema,
  type NoteCreated,
  NoteCreatedSchema,
  type NoteDetail,
  NoteDetailSchema,
  NoteIdPathSchema,
  NotesQuerySchema,
  type NotesTemplates,
  NotesTemplatesQuerySchema,
  NotesTemplatesSchema,
  type RecordNotes,
  RecordNotesSchema,
  ResIdPathSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const WHO_SEES =
  'A note restricted to entities is seen by its author and by the members of those entities (not of their sub-entities); ' +
  'a note without restriction by everyone who sees the record.'

/**
 * POST /rest/notes, GET /rest/resources/{resId}/notes, GET /rest/notes/{id} and GET /rest/notesTemplates, as Maarch
 * 20.10 serves them.
 */
export const notesRoutes: readonly RouteDeclaration[] = [
  {
    method: 'post',
    path: '/rest/notes',
    operationId: 'createNote',
    tag: 'notes',
    summary: 'Write a note on a record',
    description: `The record must be in the caller's perimeter; every entity named must exist. ${WHO_SEES}`,
    security: 'user',
    request: {
      body: {
        schema: NoteCreateBodySchema,
        examples: {
          plain: { summary: 'A note', value: { resId: 100, value: 'Rappeler le demandeur' } satisfies NoteCreateBody },
          restricted: {
            summary: 'A note for two entities only',
            value: { resId: 100, value: 'Dossier sensible', entities: ['PJS', 'DGS'] } satisfies NoteCreateBody,
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The note was written',
        content: json(NoteCreatedSchema, { noteId: 5 } satisfies NoteCreated),
      },
    },
    errors: [
      'NOTE_VALUE_INVALID',
      'CREATE_NOT_INTEGER',
      'OUT_OF_PERIMETER',
      'NOTE_ENTITIES_NOT_ARRAY',
      'NOTE_ENTITIES_UNKNOWN',
      'UNSUPPORTED_BODY',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.notes.create(actorOf(ctx), ctx.state.body, { remoteIp: ctx.ip })
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/notes',
    operationId: 'listRecordNotes',
    tag: 'notes',
    summary: 'The notes of a record',
    description: `The notes of a record in the caller's perimeter that the caller may see, newest first. ${WHO_SEES}`,
    security: 'user',
    request: { path: ResIdPathSchema, query: NotesQuerySchema },
    responses: {
      '200': {
        description: 'The notes the caller may see',
        content: json(RecordNotesSchema, {
          notes: [
            {
              id: 3,
              identifier: 100,
              user_id: 2,
              creation_date: '2026-11-26T17:55:34.170Z',
              entities_restriction: [{ short_label: 'PJS', item_id: ['PJS'] }],
              firstname: 'Charlie',
              lastname: 'CHAPLIN',
              entity_label: 'Ville de Maarch-les-Bains',
              value: 'Dossier sensible',
            },
          ],
        } satisfies RecordNotes),
      },
    },
    errors: ['NOTE_ROUTE_RES_ID_INVALID', 'OUT_OF_PERIMETER', 'NOTES_LIMIT_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.notes.listOfRecord(actorOf(ctx), ctx.params.resId, ctx.query.limit)
      },
  },
  {
    method: 'get',
    path: '/rest/notes/:id',
    operationId: 'getNote',
    tag: 'notes',
    summary: 'Read a note',
    description: `An unknown note, a note of a record out of the caller's perimeter and a note the caller may not see all answer 403. ${WHO_SEES}`,
    security: 'user',
    request: { path: NoteIdPathSchema },
    responses: {
      '200': {
        description: 'The note',
        content: json(NoteDetailSchema, {
          id: 3,
          identifier: 100,
          user_id: 2,
          creation_date: '2026-11-26T17:55:34.170Z',
          value: 'Dossier sensible',
          entities: ['PJS', 'DGS'],
        } satisfies NoteDetail),
      },
    },
    errors: ['ROUTE_ID_NOT_INTEGER', 'NOTE_OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.notes.read(actorOf(ctx), ctx.params.id)
      },
  },
  {
    method: 'get',
    path: '/rest/notesTemplates',
    operationId: 'getNotesTemplates',
    tag: 'notes',
    summary: "The note templates of the action dialogs' note field",
    description:
      "A `resId` PHP takes for a number must be a letter in the caller's perimeter (20.10 then lists its department's templates); without one, every template. " +
      'Mailroom keeps no note templates yet: the list is always empty, after the same check.',
    security: 'user',
    request: { query: NotesTemplatesQuerySchema },
    responses: {
      '200': {
        description: 'The templates',
        content: json(NotesTemplatesSchema, { templates: [] } satisfies NotesTemplates),
      },
    },
    errors: ['OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.notes.templates(actorOf(ctx), ctx.query.resId)
      },
  },
]
