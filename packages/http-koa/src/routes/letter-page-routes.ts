import {
  type IndexingFileInformations,
  IndexingFileInformationsSchema,
  ResIdPathSchema,
  type ResourceDetail,
  ResourceDetailSchema,
  type ResourceField,
  ResourceFieldPathSchema,
  ResourceFieldQuerySchema,
  ResourceFieldSchema,
  type ResourceFileInformation,
  ResourceFileInformationSchema,
  type ResourceItems,
  ResourceItemsSchema,
  ResourceQuerySchema,
  type ResourceVersions,
  ResourceVersionsSchema,
} from '@mailroom/core'
import { DEFAULT_BODY_LIMIT_BYTES } from '../body-limit.js'
import { actorOf } from '../middleware/authenticate.js'
import { queryValue } from './content-routes.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const OUTSIDE =
  "A malformed, unknown or huge resId answers as a record outside the caller's perimeter: 403 `Document out of perimeter`, as in Maarch 20.10."

/**
 * A letter's page in Maarch 20.10's web client: GET /rest/resources/{resId} (light or whole), its items, one of its
 * fields, its file's information and versions, and GET /rest/indexing/fileInformations, as 20.10 serves them.
 */
export const letterPageRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/resources/:resId',
    operationId: 'getResource',
    tag: 'letter page',
    summary: 'Read a record',
    description:
      "A record as 20.10's indexing form and processing page read it: the fields every record has, then those of its " +
      'indexing model only (the others are left out, as 20.10 does), with the labels of what they name. `light` answers fewer fields, with whether the caller follows the record. ' +
      OUTSIDE,
    security: 'user',
    request: { path: ResIdPathSchema, query: ResourceQuerySchema },
    responses: {
      '200': {
        description: 'The record',
        content: json(ResourceDetailSchema, {
          resId: 100,
          modelId: 1,
          categoryId: 'incoming',
          chrono: 'MAARCH/2026A/1',
          status: 'NEW',
          closingDate: null,
          creationDate: '2026-12-01 22:53:41.768918',
          modificationDate: '2026-12-01 22:53:41.768918',
          retentionFrozen: false,
          binding: null,
          integrations: { inShipping: false, inSignatureBook: false },
          subject: 'Demande de subvention du club de basket',
          processLimitDate: null,
          priority: null,
          doctype: 102,
          destination: 6,
          documentDate: null,
          arrivalDate: null,
          destinationLabel: 'Pôle Jeunesse et Sport',
          statusLabel: 'Nouveau courrier pour le service',
          statusAlterable: true,
          senders: [{ id: 13, type: 'contact' }],
          customFields: [],
          folders: [],
          tags: [],
        } satisfies ResourceDetail),
      },
    },
    errors: ['OUT_OF_PERIMETER', 'DOCUMENT_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.letterPage.resource(actorOf(ctx), ctx.params.resId, queryValue(ctx, 'light'))
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/items',
    operationId: 'getResourceItems',
    tag: 'letter page',
    summary: "The counts of a record's tabs",
    description: `How many linked records (those the caller may see), attachments, list members, notes (those the caller may read) and receipts the record has. ${OUTSIDE}`,
    security: 'user',
    request: { path: ResIdPathSchema },
    responses: {
      '200': {
        description: 'The counts',
        content: json(ResourceItemsSchema, {
          linkedResources: 0,
          attachments: 1,
          diffusionList: 1,
          visaCircuit: 0,
          opinionCircuit: 0,
          notes: 2,
          emails: 0,
        } satisfies ResourceItems),
      },
    },
    errors: ['OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.letterPage.items(actorOf(ctx), ctx.params.resId)
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/fields/:fieldId',
    operationId: 'getResourceField',
    tag: 'letter page',
    summary: 'Read one field of a record',
    description: `\`destination\` (its entity_id, or with \`alt\` its serial id), \`status\` or \`externalId\`; any other field answers 403 \`Field out of perimeter\`. ${OUTSIDE}`,
    security: 'user',
    request: { path: ResourceFieldPathSchema, query: ResourceFieldQuerySchema },
    responses: {
      '200': {
        description: "The field's value",
        content: json(ResourceFieldSchema, { field: { capture: 'MAARCH-0001' } } satisfies ResourceField),
      },
    },
    errors: ['OUT_OF_PERIMETER', 'FIELD_OUT_OF_PERIMETER', 'DOCUMENT_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.letterPage.field(
          actorOf(ctx),
          ctx.params.resId,
          ctx.params.fieldId,
          queryValue(ctx, 'alt'),
        )
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/fileInformation',
    operationId: 'getResourceFileInformation',
    tag: 'letter page',
    summary: "Facts about a record's file",
    description: `Its format and whether it converts to PDF; with the \`view_technical_infos\` privilege, its fingerprint, size, name, storage and typist too (never the server's paths). ${OUTSIDE}`,
    security: 'user',
    request: { path: ResIdPathSchema },
    responses: {
      '200': {
        description: "The file's facts",
        content: json(ResourceFileInformationSchema, {
          information: { canConvert: true, format: 'pdf' },
        } satisfies ResourceFileInformation),
      },
    },
    errors: ['OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.letterPage.fileInformation(actorOf(ctx), ctx.params.resId)
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/versionsInformations',
    operationId: 'getResourceVersions',
    tag: 'letter page',
    summary: "The versions of a record's file",
    description: `The versions of its original (\`DOC\`, the current one last), of its PDF (made on first read), signed and annotated PDFs. ${OUTSIDE}`,
    security: 'user',
    request: { path: ResIdPathSchema },
    responses: {
      '200': {
        description: 'The versions by kind',
        content: json(ResourceVersionsSchema, {
          DOC: [1],
          PDF: [1],
          SIGN: [],
          NOTE: [],
          convert: true,
        } satisfies ResourceVersions),
      },
    },
    errors: ['OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.letterPage.versions(actorOf(ctx), ctx.params.resId)
      },
  },
  {
    method: 'get',
    path: '/rest/indexing/fileInformations',
    operationId: 'getIndexingFileInformations',
    tag: 'letter page',
    summary: 'The files a record may carry',
    description:
      'Every allowed extension with each MIME type its bytes may have and whether it converts to PDF (the table creations check files against), and the largest file a request body carries in base64 (from `MAILROOM_BODY_LIMIT`).',
    security: 'user',
    responses: {
      '200': {
        description: 'The allowed files and the largest size',
        content: json(IndexingFileInformationsSchema, {
          informations: {
            maximumSize: 50282496,
            maximumSizeLabel: '47.953 Mo',
            allowedFiles: [{ extension: 'PDF', mimeType: 'application/pdf', canConvert: true }],
          },
        } satisfies IndexingFileInformations),
      },
    },
    serve:
      ({ services, bodyLimitBytes }) =>
      async (ctx) => {
        ctx.body = await services.letterPage.fileInformations(actorOf(ctx), bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES)
      },
  },
]
