import { Readable } from 'node:stream'
import {
  type ContentBase64Response,
  ContentBase64ResponseSchema,
  ContentParamsSchema,
  type ContentResult,
  type ErrorCode,
  type OriginalContentBase64Response,
  OriginalContentBase64ResponseSchema,
  OriginalContentParamsSchema,
  ResIdPathSchema,
  type ServedFile,
  VersionContentParamsSchema,
  type VersionContentResponse,
  VersionContentResponseSchema,
  VersionPathSchema,
} from '@mailroom/core'
import type { Context } from 'koa'
import { actorOf } from '../middleware/authenticate.js'
import { DEMO } from '../openapi/document-info.js'
import { contentDisposition } from './content-disposition.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** A query parameter as one string (the first when repeated), undefined when absent. */
export function queryValue(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * Sends a file: real MIME type, RFC 6266 Content-Disposition, Content-Length. A streamed body that fails
 * (fingerprint wrong at its end, read error) makes Koa's pipeline destroy the socket, so the client sees a
 * transfer shorter than Content-Length instead of a complete one.
 */
function sendFile(ctx: Context, file: ServedFile): void {
  ctx.set('Content-Disposition', contentDisposition(file.disposition, file.filename))
  ctx.set('X-Content-Type-Options', 'nosniff')
  if (file.body instanceof Uint8Array) {
    ctx.body = Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength)
  } else {
    const stream = file.body instanceof Readable ? file.body : Readable.from(file.body)
    ctx.body = stream
    stream.once('error', (error) => ctx.state.log?.warn({ err: error }, 'content stream aborted'))
  }
  // After the body: assigning a stream drops Content-Length and the type.
  ctx.type = file.mimeType
  ctx.length = file.size
}

export function send<J>(ctx: Context, result: ContentResult<J>): void {
  if (result.kind === 'json') ctx.body = result.body
  else sendFile(ctx, result.file)
}

/** What every read of a record's file may answer. */
const CONTENT_ERRORS_COMMON: readonly ErrorCode[] = [
  'RES_ID_NOT_POSITIVE',
  'DOCUMENT_NOT_FOUND',
  'DOCUMENT_HAS_NO_FILE',
  'FINGERPRINT_MISMATCH',
  'FILE_UNREADABLE',
  'FILE_INFO_UNAVAILABLE',
  'OUT_OF_PERIMETER',
  'DOCSERVER_NOT_FOUND',
  'DOCUMENT_NOT_IN_DOCSERVER',
  'DOCSERVER_READ_FAILED',
  'DOCUMENT_STORE_UNREACHABLE',
  'DOCUMENT_STORE_REFUSED',
]

const WATERMARK_ERRORS: readonly ErrorCode[] = ['PDF_ENCRYPTED', 'PDF_UNREADABLE', 'WATERMARK_CONFIG_INVALID']

/** The headers of a file sent as it is. */
export const fileHeaders = {
  'Content-Disposition': {
    description: 'attachment (download) or inline (view), with the file name (RFC 6266, filename* for non-ASCII names)',
    schema: { type: 'string' as const },
    example: `attachment; filename="Demande de subvention du club de basket.pdf"`,
  },
  'Content-Length': { description: 'Size of the file in bytes', schema: { type: 'integer' as const } },
}

/**
 * GET /rest/resources/{resId}/content, /originalContent and /content/{version} (interface endpoints 3–5).
 * Parameters are passed as received: the use cases validate them in the reference's order.
 */
export const contentRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/resources/:resId/content',
    operationId: 'getContent',
    tag: 'content',
    summary: 'The converted (PDF) content of a record',
    description:
      'The signed PDF when there is one, else the conversion of the original, watermarked unless watermark=false. ' +
      'mode=view: inline; mode=base64: JSON; otherwise a download.',
    security: 'user',
    request: { path: ResIdPathSchema, query: ContentParamsSchema },
    responses: {
      '200': {
        description: 'The PDF (view or download), or the base64 object (mode=base64)',
        headers: fileHeaders,
        content: {
          'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
          ...json(ContentBase64ResponseSchema, {
            encodedDocument: 'JVBERi0xLjcK...',
            originalFormat: 'txt',
            filename: 'Demande de subvention du club de basket.txt',
            mimeType: 'application/pdf',
            originalCreatorId: 3,
          } satisfies ContentBase64Response),
        },
      },
    },
    errors: [...CONTENT_ERRORS_COMMON, 'CONVERSION_FAILED', 'CONVERSION_QUEUE_FULL', ...WATERMARK_ERRORS],
    serve:
      ({ services }) =>
      async (ctx) => {
        const result = await services.content.readContent(
          actorOf(ctx),
          ctx.params.resId,
          { mode: queryValue(ctx, 'mode'), watermark: queryValue(ctx, 'watermark') },
          { remoteIp: ctx.ip },
        )
        send(ctx, result)
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/originalContent',
    operationId: 'getOriginalContent',
    tag: 'content',
    summary: 'The original file of a record',
    description: 'Never watermarked. mode=base64: JSON; otherwise a download with the file own MIME type.',
    security: 'user',
    request: { path: ResIdPathSchema, query: OriginalContentParamsSchema },
    responses: {
      '200': {
        description: 'The file (download), or the base64 object (mode=base64)',
        headers: fileHeaders,
        content: {
          'application/octet-stream': {
            schema: { type: 'string', contentMediaType: 'application/octet-stream' },
          },
          ...json(OriginalContentBase64ResponseSchema, {
            encodedDocument: DEMO.file,
            extension: 'txt',
            filename: 'Demande de subvention du club de basket.txt',
            mimeType: 'text/plain',
          } satisfies OriginalContentBase64Response),
        },
      },
    },
    errors: ['SIGNED_VERSION_NOT_BOOLEAN', ...CONTENT_ERRORS_COMMON],
    serve:
      ({ services }) =>
      async (ctx) => {
        const result = await services.content.readOriginalContent(
          actorOf(ctx),
          ctx.params.resId,
          { mode: queryValue(ctx, 'mode'), signedVersion: queryValue(ctx, 'signedVersion') },
          { remoteIp: ctx.ip },
        )
        send(ctx, result)
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/content/:version',
    operationId: 'getVersionContent',
    tag: 'content',
    summary: 'The file of one version of a record',
    description: 'type PDF (the conversion of the version), SIGN (signed) or NOTE (annotated); watermarked.',
    security: 'user',
    request: { path: VersionPathSchema, query: VersionContentParamsSchema },
    responses: {
      '200': {
        description: 'The file of the version',
        content: json(VersionContentResponseSchema, {
          encodedDocument: 'JVBERi0xLjcK...',
          filename: 'Demande de subvention du club de basket_V1.pdf',
        } satisfies VersionContentResponse),
      },
    },
    errors: [
      'VERSION_NOT_POSITIVE',
      'VERSION_TYPE_INVALID',
      'VERSION_INCORRECT',
      'VERSION_TYPE_HAS_NO_FILE',
      ...CONTENT_ERRORS_COMMON,
      ...WATERMARK_ERRORS,
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.content.readVersionContent(actorOf(ctx), ctx.params.resId, ctx.params.version, {
          type: queryValue(ctx, 'type'),
        })
      },
  },
]
