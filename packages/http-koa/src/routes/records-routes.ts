import {
  type CreateRecordBody,
  CreateRecordRequestSchema,
  type CreateRecordResponse,
  CreateRecordResponseSchema,
  type EarlierCreateRecordBody,
  type ErrorCode,
  type NewVersionBody,
  NewVersionBodySchema,
  type NewVersionResponse,
  NewVersionResponseSchema,
  ResIdPathSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { DEMO } from '../openapi/document-info.js'
import { json, type RouteDeclaration } from './route-declaration.js'

// The examples follow the demo dataset of runtime-contract.md: bbain works in PJS (entity 6), model 1 is
// "Courrier arrivée", NEW is "Nouveau courrier".

/** The checks of a file sent in a body, at creation and for a new version. */
const FILE_CHECK_ERRORS: readonly ErrorCode[] = ['FORMAT_EMPTY', 'FORMAT_NOT_ALLOWED', 'ENCODED_FILE_INVALID']

/**
 * POST /rest/resources: both create forms; 200 `{"resId": <int>}` exactly (real clients insist on 200).
 * PUT /rest/resources/{resId} with a file: a new version, or a signed / annotated PDF of the current one.
 * Bodies are passed as received: the use cases validate them in the reference's order.
 */
export const recordsRoutes: readonly RouteDeclaration[] = [
  {
    method: 'post',
    path: '/rest/resources',
    operationId: 'createRecord',
    tag: 'records',
    summary: 'Create a mail record, optionally with its file',
    description:
      'Current form: modelId and status required. Earlier form: status, format, encodedFile, type_id and category_id required. ' +
      'A missing required parameter answers 400 `Data is not set or empty`. The file is deposited in the digital safe.',
    security: 'user',
    request: {
      body: {
        schema: CreateRecordRequestSchema,
        examples: {
          current: {
            summary: 'Current form (modelId, status)',
            value: {
              modelId: 1,
              status: 'NEW',
              subject: 'Demande de subvention du club de basket',
              chrono: true,
              typist: 3,
              destination: 6,
              doctype: 103,
              priority: 'poiuytre1357nbvc',
              documentDate: '2024-03-01 00:00:00',
              arrivalDate: '2024-03-04 09:30:00',
              senders: [{ id: 1, type: 'contact' }],
              diffusionList: [{ id: 3, mode: 'dest', type: 'user' }],
              tags: [1],
              encodedFile: DEMO.file,
              format: 'txt',
            } satisfies CreateRecordBody,
          },
          earlier: {
            summary: 'Earlier form (type_id, category_id)',
            value: {
              status: 'NEW',
              format: 'txt',
              encodedFile: DEMO.file,
              type_id: 103,
              category_id: 'incoming',
              subject: 'Demande de documents',
              destination: 'PJS',
              priority: 'poiuytre1357nbvc',
            } satisfies EarlierCreateRecordBody,
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The record was created',
        content: json(CreateRecordResponseSchema, { resId: 100 } satisfies CreateRecordResponse),
      },
    },
    errors: [
      'CREATE_DATA_EMPTY',
      'UNSUPPORTED_BODY',
      'CREATE_NOT_INTEGER',
      'CREATE_NOT_STRING',
      'CREATE_NOT_BOOLEAN',
      'CREATE_NOT_TEXT',
      'CREATE_NOT_OBJECT',
      'CREATE_NOT_ARRAY',
      'CREATE_NOT_FOUND',
      'MODEL_DISABLED',
      'MODEL_NOT_PUBLIC',
      'MODEL_FILE_MANDATORY',
      'MODEL_FIELD_NOT_SET',
      'CUSTOM_FIELDS_NOT_FOUND',
      'CUSTOM_FIELD_EMPTY',
      'CUSTOM_FIELD_WRONG_VALUE',
      'CUSTOM_FIELD_NOT_ARRAY',
      'CUSTOM_FIELD_NOT_STRING',
      'CUSTOM_FIELD_NOT_NUMBER',
      'CUSTOM_FIELD_NOT_DATE',
      'CUSTOM_FIELD_NOT_FLAT',
      'EXTERNAL_ID_NOT_FLAT',
      'FOLDERS_NOT_FOUND',
      'TAGS_NOT_FOUND',
      'LIST_ITEM_NOT_OBJECT',
      'LIST_ITEM_ID_INVALID',
      'LIST_ITEM_TYPE_INVALID',
      'LIST_ITEM_MODE_INVALID',
      'LIST_ITEM_NOT_FOUND',
      'DIFFUSION_MULTIPLE_DEST',
      'DIFFUSION_NO_DEST',
      'INITIATOR_NOT_ALLOWED',
      'DESTINATION_NOT_ALLOWED',
      'DATE_INVALID',
      'DOCUMENT_DATE_IN_FUTURE',
      'DATE_OUT_OF_RANGE',
      ...FILE_CHECK_ERRORS,
      'SERVICE_FORBIDDEN',
      'CREATE_FAILED',
      'NO_WRITABLE_DOCSERVER',
      'STORAGE_UNAVAILABLE',
      'DOCUMENT_STORE_UNREACHABLE',
      'DOCUMENT_STORE_REFUSED',
      'STORAGE_NOT_WRITABLE',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        const { resId } = await services.records.create(actorOf(ctx), ctx.state.body)
        ctx.status = 200
        ctx.body = { resId }
      },
  },
  {
    method: 'put',
    path: '/rest/resources/:resId',
    operationId: 'newVersion',
    tag: 'records',
    summary: 'Add a new version of the file of a record, or attach a signed or annotated PDF',
    description:
      'Without type the file becomes version n+1 of the record (the previous original is kept, its PDF is converted on ' +
      'first read) and the deposit is journalled in the digital safe. With type SIGN or NOTE a PDF is attached to the ' +
      'current version (served by content/{version}?type=SIGN|NOTE). Perimeter and file checks as for creation.',
    security: 'user',
    request: {
      path: ResIdPathSchema,
      body: {
        schema: NewVersionBodySchema,
        examples: {
          version: {
            summary: 'A new version of the file',
            value: { encodedFile: DEMO.file, format: 'txt' } satisfies NewVersionBody,
          },
          signed: {
            summary: 'The signed PDF of the current version',
            value: { encodedFile: 'JVBERi0xLjcK', format: 'pdf', type: 'SIGN' } satisfies NewVersionBody,
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'The record and its version number',
        content: json(NewVersionResponseSchema, { resId: 100, version: 2 } satisfies NewVersionResponse),
      },
    },
    errors: [
      'RES_ID_NOT_POSITIVE',
      'UNSUPPORTED_BODY',
      'VERSION_TYPE_INVALID',
      ...FILE_CHECK_ERRORS,
      'OUT_OF_PERIMETER',
      'DOCUMENT_NOT_FOUND',
      'DOCUMENT_HAS_NO_FILE',
      'STORAGE_UNAVAILABLE',
      'DOCUMENT_STORE_UNREACHABLE',
      'DOCUMENT_STORE_REFUSED',
    ],
    // Issue #5: `{ encodedFile, format }`, or `{ encodedFile, format: 'pdf', type: 'SIGN' | 'NOTE' }`.
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.content.createVersion(actorOf(ctx), ctx.params.resId, ctx.state.body, {
          remoteIp: ctx.ip,
        })
      },
  },
]
