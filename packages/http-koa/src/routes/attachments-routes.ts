import {
  type AttachmentBody,
  AttachmentContentBase64ResponseSchema,
  AttachmentContentQuerySchema,
  AttachmentIdPathSchema,
  type AttachmentListBody,
  AttachmentListResponseSchema,
  AttachmentOriginalBase64ResponseSchema,
  AttachmentResponseSchema,
  AttachmentsOfRecordPathSchema,
  AttachmentsOfRecordQuerySchema,
  type AttachmentTypesBody,
  AttachmentTypesResponseSchema,
  CreateAttachmentRequestSchema,
  CreateAttachmentResponseSchema,
  type ErrorCode,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { DEMO } from '../openapi/document-info.js'
import { fileHeaders, queryValue, send } from './content-routes.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** What reading an attachment's file may answer besides its own checks (the records' file checks). */
const FILE_READ_ERRORS: readonly ErrorCode[] = [
  'ROUTE_ID_NOT_INTEGER',
  'ATTACHMENT_NOT_FOUND',
  'OUT_OF_PERIMETER',
  'FINGERPRINT_MISMATCH',
  'FILE_UNREADABLE',
  'FILE_INFO_UNAVAILABLE',
  'DOCSERVER_NOT_FOUND',
  'DOCUMENT_NOT_IN_DOCSERVER',
  'DOCSERVER_READ_FAILED',
  'DOCUMENT_STORE_UNREACHABLE',
  'DOCUMENT_STORE_REFUSED',
]

const EXAMPLE_ATTACHMENT: AttachmentBody = {
  resId: 12,
  resIdMaster: 1,
  status: 'A_TRA',
  title: 'Réponse au club de basket',
  chrono: 'MAARCH/2026D/1',
  typist: 2,
  modifiedBy: '',
  relation: 1,
  type: 'response_project',
  recipientId: 1,
  recipientType: 'contact',
  originId: null,
  creationDate: '2026-11-26 17:55:37.080',
  modificationDate: null,
  validationDate: null,
  format: 'pdf',
  fulltextResult: null,
  inSignatureBook: true,
  inSendAttach: false,
  typistLabel: 'Charlie CHAPLIN',
  typeLabel: 'Projet de réponse',
  versions: [],
}

/**
 * The attachment routes of Maarch 20.10 (issue 32): types, create, the list of a record, one attachment, its
 * removal, its PDF and its original. Values are passed as received: the use cases check them in 20.10's order.
 */
export const attachmentsRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/attachmentsTypes',
    operationId: 'getAttachmentTypes',
    tag: 'attachments',
    summary: 'The attachment types',
    description: 'From the organisation document (`attachmentTypes`), by code.',
    security: 'user',
    responses: {
      '200': {
        description: 'The types',
        content: json(AttachmentTypesResponseSchema, {
          attachmentsTypes: {
            simple_attachment: {
              label: 'Pièce jointe',
              icon: 'PJ',
              sign: false,
              chrono: false,
              attachInMail: false,
              show: true,
            },
          },
        } satisfies AttachmentTypesBody),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.attachments.types(actorOf(ctx))
      },
  },
  {
    method: 'post',
    path: '/rest/attachments',
    operationId: 'createAttachment',
    tag: 'attachments',
    summary: 'Add an attachment to a record',
    description:
      'Checks in the order of Maarch 20.10, all 400. The file is stored like a record file (document store, SHA-256, ' +
      'journalled in the master record archive) with its row, or not at all. With originId: a new version ' +
      '(relation + 1, earlier versions become OBS). A type with chrono gives the next outgoing chrono.',
    security: 'user',
    request: {
      body: {
        schema: CreateAttachmentRequestSchema,
        example: {
          resIdMaster: 1,
          type: 'response_project',
          title: 'Réponse au club de basket',
          status: 'A_TRA',
          encodedFile: DEMO.file,
          format: 'txt',
        },
      },
    },
    responses: {
      '200': { description: 'The new attachment', content: json(CreateAttachmentResponseSchema, { id: 12 }) },
    },
    errors: [
      'BODY_NOT_SET_OR_EMPTY',
      'ATTACHMENT_FILE_EMPTY',
      'FORMAT_EMPTY',
      'CREATE_NOT_INTEGER',
      'ATTACHMENT_TYPE_EMPTY',
      'ATTACHMENT_STATUS_INVALID',
      'ATTACHMENT_MASTER_OUT_OF_PERIMETER',
      'ATTACHMENT_TYPE_UNKNOWN',
      'FORMAT_NOT_ALLOWED',
      'ENCODED_FILE_INVALID',
      'ATTACHMENT_SIGNED_RESPONSE_WITHOUT_ORIGIN',
      'ATTACHMENT_NOT_INTEGER',
      'ATTACHMENT_ORIGIN_UNKNOWN',
      'ATTACHMENT_ORIGIN_OTHER_MASTER',
      'ATTACHMENT_ORIGIN_STATUS',
      'ATTACHMENT_ORIGIN_IS_VERSION',
      'ATTACHMENT_RECIPIENT_TYPE_INVALID',
      'ATTACHMENT_RECIPIENT_UNKNOWN',
      'DATE_INVALID',
      'CREATE_NOT_TEXT',
      'ATTACHMENT_LENGTH_INVALID',
      'STORAGE_UNAVAILABLE',
      'DOCUMENT_STORE_UNREACHABLE',
      'DOCUMENT_STORE_REFUSED',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.attachments.create(actorOf(ctx), ctx.state.body, { remoteIp: ctx.ip })
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/attachments',
    operationId: 'getRecordAttachments',
    tag: 'attachments',
    summary: 'The attachments of a record',
    description:
      'Current versions only (not OBS or DEL), signed responses left out, latest change first. Any bad record id ' +
      'answers 403 `Document out of perimeter`, as in Maarch 20.10.',
    security: 'user',
    request: { path: AttachmentsOfRecordPathSchema, query: AttachmentsOfRecordQuerySchema },
    responses: {
      '200': {
        description: 'The attachments',
        content: json(AttachmentListResponseSchema, {
          attachments: [
            {
              resId: 12,
              chrono: 'MAARCH/2026D/1',
              title: 'Réponse au club de basket',
              typist: 2,
              modifiedBy: '',
              creationDate: '2026-11-26 17:55:37.080',
              modificationDate: null,
              relation: 1,
              status: 'A_TRA',
              type: 'response_project',
              inSignatureBook: true,
              inSendAttach: false,
              typistLabel: 'Charlie CHAPLIN',
              typeLabel: 'Projet de réponse',
              canConvert: true,
            },
          ],
          mailevaEnabled: false,
        } satisfies AttachmentListBody),
      },
    },
    errors: ['OUT_OF_PERIMETER', 'ATTACHMENT_QUERY_LIMIT_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.attachments.listOfRecord(actorOf(ctx), ctx.params.resId, {
          limit: queryValue(ctx, 'limit'),
        })
      },
  },
  {
    method: 'get',
    path: '/rest/attachments/:id',
    operationId: 'getAttachment',
    tag: 'attachments',
    summary: 'One attachment, with its other versions',
    description: 'A superseded version (OBS) answers 400 `Attachment does not exist`, as in Maarch 20.10.',
    security: 'user',
    request: { path: AttachmentIdPathSchema },
    responses: {
      '200': { description: 'The attachment', content: json(AttachmentResponseSchema, EXAMPLE_ATTACHMENT) },
    },
    errors: ['ROUTE_ID_NOT_INTEGER', 'ATTACHMENT_DOES_NOT_EXIST', 'ATTACHMENT_OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.attachments.read(actorOf(ctx), ctx.params.id)
      },
  },
  {
    method: 'delete',
    path: '/rest/attachments/:id',
    operationId: 'deleteAttachment',
    tag: 'attachments',
    summary: 'Remove an attachment, with its other versions',
    description:
      "Its typist, or a holder of the manage_attachments privilege, with the attachment's record in the perimeter " +
      '(else 403, as Maarch 20.10 answers). The attachment and every version of it become DEL (no longer listed or ' +
      'read; the files stay, as in 20.10) and a history entry is written on the attachment and on its record.',
    security: 'user',
    request: { path: AttachmentIdPathSchema },
    responses: { '204': { description: 'The attachment and its versions are removed' } },
    errors: [
      'ATTACHMENT_ROUTE_ID_INVALID',
      'ATTACHMENT_DOES_NOT_EXIST',
      'ATTACHMENT_RECORD_MANAGEMENT',
      'OUT_OF_PERIMETER',
      'ATTACHMENT_NOT_MANAGEABLE',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        await services.attachments.remove(actorOf(ctx), ctx.params.id, { remoteIp: ctx.ip })
        ctx.status = 204
      },
  },
  {
    method: 'get',
    path: '/rest/attachments/:id/content',
    operationId: 'getAttachmentContent',
    tag: 'attachments',
    summary: 'The PDF of an attachment',
    description:
      'The file when it is a PDF, else its conversion; watermarked as record content is. Superseded versions are ' +
      'served. mode=base64: JSON.',
    security: 'user',
    request: { path: AttachmentIdPathSchema, query: AttachmentContentQuerySchema },
    responses: {
      '200': {
        description: 'The PDF, or the base64 object (mode=base64)',
        headers: fileHeaders,
        content: {
          'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
          ...json(AttachmentContentBase64ResponseSchema, {
            encodedDocument: 'JVBERi0xLjcK...',
            originalFormat: 'pdf',
            filename: 'Réponse au club de basket.pdf',
            mimeType: 'application/pdf',
            signatoryId: null,
          }),
        },
      },
    },
    errors: [...FILE_READ_ERRORS, 'CONVERSION_FAILED', 'CONVERSION_QUEUE_FULL', 'PDF_ENCRYPTED', 'PDF_UNREADABLE'],
    serve:
      ({ services }) =>
      async (ctx) => {
        send(
          ctx,
          await services.attachments.content(
            actorOf(ctx),
            ctx.params.id,
            { mode: queryValue(ctx, 'mode') },
            { remoteIp: ctx.ip },
          ),
        )
      },
  },
  {
    method: 'get',
    path: '/rest/attachments/:id/originalContent',
    operationId: 'getAttachmentOriginalContent',
    tag: 'attachments',
    summary: 'The stored file of an attachment',
    description: 'Never watermarked. mode=base64: JSON (the name gets `_V<relation>` for versions).',
    security: 'user',
    request: { path: AttachmentIdPathSchema, query: AttachmentContentQuerySchema },
    responses: {
      '200': {
        description: 'The file, or the base64 object (mode=base64)',
        headers: fileHeaders,
        content: {
          'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } },
          ...json(AttachmentOriginalBase64ResponseSchema, {
            encodedDocument: 'JVBERi0xLjcK...',
            extension: 'pdf',
            mimeType: 'application/pdf',
            filename: 'Réponse au club de basket.pdf',
          }),
        },
      },
    },
    errors: FILE_READ_ERRORS,
    serve:
      ({ services }) =>
      async (ctx) => {
        send(
          ctx,
          await services.attachments.originalContent(
            actorOf(ctx),
            ctx.params.id,
            { mode: queryValue(ctx, 'mode') },
            { remoteIp: ctx.ip },
          ),
        )
      },
  },
]
