import { ERROR_CATALOGUE, type ErrorCode, errorMessage } from '@mailroom/core'
import { compileErrors, validate } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { documentedMessage, documentedStatus } from './error-examples.js'
import { createOpenApiDocument, openApiDocument } from './openapi-document.js'

type Json = Record<string, any>

const document = createOpenApiDocument() as Json

/** Every `{ errors }` example of every error response, with the status it is documented under. */
function errorExamples(): { operation: string; status: number; code: string; body: Json }[] {
  const found: { operation: string; status: number; code: string; body: Json }[] = []
  for (const item of Object.values(document.paths as Json)) {
    for (const operation of Object.values(item as Json) as Json[]) {
      for (const [status, response] of Object.entries(operation.responses as Json)) {
        if (Number(status) < 400) continue
        const examples = (response as Json).content?.['application/json']?.examples ?? {}
        for (const [code, example] of Object.entries(examples))
          found.push({ operation: operation.operationId, status: Number(status), code, body: (example as Json).value })
      }
    }
  }
  return found
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(document) as never)
    expect(result.valid, compileErrors(result)).toBe(true)
    expect(result.warnings).toEqual([])
    expect(document.openapi).toBe('3.1.0')
  })

  it('is built once and is plain JSON', () => {
    expect(openApiDocument()).toBe(openApiDocument())
    expect(JSON.parse(JSON.stringify(document))).toEqual(document)
  })

  it('gives every operation an id, a tag, a success response and its error responses', () => {
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json) as [string, Json][]) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z]+$/)
        expect(operation.tags, `${method} ${path}`).toHaveLength(1)
        const statuses = Object.keys(operation.responses).map(Number)
        // A browser's step of a sign-in succeeds by sending it on: its success is a redirect.
        expect(
          statuses.some((s) => s < 300 || s === 302),
          `${method} ${path}`,
        ).toBe(true)
        if (path.startsWith('/rest/') && path !== '/rest/openapi.json')
          expect(statuses, `${method} ${path}`).toContain(500)
      }
    }
  })

  it('documents the interface error messages exactly, under their status', () => {
    const byOperation = new Map<string, Map<string, number>>()
    for (const { operation, status, code, body } of errorExamples()) {
      const message = body.errors ?? body.message
      expect(message, `${operation} ${code}`).toBe(documentedMessage(code as ErrorCode))
      expect(status, `${operation} ${code}`).toBe(documentedStatus(code as ErrorCode))
      byOperation.set(operation, (byOperation.get(operation) ?? new Map()).set(message, status))
    }
    // The interface's Errors table, row by row.
    const rows: [string, number, string][] = [
      ['createRecord', 400, 'Data is not set or empty'],
      ['searchRecords', 400, 'Bad Request: select is not valid'],
      ['getContent', 403, 'Document out of perimeter'],
      ['getContent', 400, 'Document does not exist'],
      ['getContent', 400, 'Fingerprints do not match'],
      ['getContent', 400, 'Document has no file'],
      ['getContent', 400, 'could not decode encoded data, or open target file'],
      ['getContent', 400, 'could not compute mime type or file size'],
      ['getContent', 404, 'Docserver does not exist'],
      ['getContent', 404, 'Document not found in docserver'],
      ['getContent', 500, 'Failed to get document on docserver'],
      ['getOriginalContent', 403, 'Document out of perimeter'],
      ['getOriginalContent', 403, 'signedVersion param is not a boolean'],
      ['getOriginalContent', 400, 'Parameter resId must be greater than 0'],
      ['getOriginalContent', 404, 'Document not found in docserver'],
      ['getVersionContent', 400, 'Parameter version must be greater than 0'],
      ['getVersionContent', 400, 'Parameter type can not be empty and should be PDF, TYPE, NOTE'],
      ['getVersionContent', 400, 'Incorrect version'],
      ['getVersionContent', 403, 'Document out of perimeter'],
      ['getVersionContent', 500, 'Failed to get document on docserver'],
      ['updateStatus', 400, 'status not found'],
      ['updateStatus', 403, 'Document out of perimeter'],
      ['getEntity', 400, 'Entity not found'],
      ['getEntity', 401, 'Authentication Failed'],
      ['authenticate', 401, 'Authentication Failed'],
    ]
    for (const [operation, status, message] of rows)
      expect(byOperation.get(operation)?.get(message), `${operation} ${message}`).toBe(status)
    const messages = [...byOperation.get('createRecord')!.keys()]
    expect(messages.some((m) => m.startsWith('[ResController create]'))).toBe(true)
    expect([...byOperation.get('getContent')!.keys()].some((m) => m.startsWith('Conversion error'))).toBe(true)
    expect([...byOperation.get('updateStatus')!.keys()]).toContain(
      errorMessage('STATUS_DOCUMENT_NOT_FOUND', { identifier: 'MAARCH/2024A/404' }),
    )
  })

  it('renders every templated message with its sample arguments', () => {
    for (const { code, body } of errorExamples()) {
      expect(JSON.stringify(body), code).not.toMatch(/undefined|\[object Object\]/)
      expect(ERROR_CATALOGUE).toHaveProperty(code)
    }
  })

  it('describes the security schemes: basic, bearer JWT and the SERVICE-AUTH cookie', () => {
    expect(document.components.securitySchemes).toMatchObject({
      basicAuth: { type: 'http', scheme: 'basic' },
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      serviceAuthCookie: { type: 'apiKey', in: 'cookie', name: 'SERVICE-AUTH' },
    })
    expect(document.security).toEqual([{ basicAuth: [] }, { bearerAuth: [] }])
    const paths = document.paths as Json
    expect(paths['/digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events'].get.security).toEqual([
      { serviceAuthCookie: [] },
    ])
    for (const [path, method] of [
      ['/healthz', 'get'],
      ['/readyz', 'get'],
      ['/rest/openapi.json', 'get'],
      ['/rest/authenticate', 'post'],
      ['/rest/authenticate/token', 'get'],
    ] as const) {
      expect(paths[path][method].security, path).toEqual([])
    }
  })

  it('gives the parameters of the interface tables', () => {
    const paths = document.paths as Json
    const names = (path: string, method = 'get') =>
      Object.fromEntries(
        (paths[path][method].parameters as Json[]).map((p) => [`${p.in}:${p.name}`, p.schema.type ?? p.schema.$ref]),
      )
    expect(names('/rest/resources/{resId}/content')).toEqual({
      'path:resId': 'integer',
      'query:mode': 'string',
      'query:watermark': 'boolean',
    })
    expect(names('/rest/resources/{resId}/originalContent')).toEqual({
      'path:resId': 'integer',
      'query:mode': 'string',
      'query:signedVersion': 'boolean',
    })
    expect(names('/rest/resources/{resId}/content/{version}')).toEqual({
      'path:resId': 'integer',
      'path:version': 'integer',
      'query:type': 'string',
    })
    expect(names('/rest/entities/{id}')).toEqual({ 'path:id': 'string' })
    expect(names('/rest/authenticate/token')).toEqual({ 'query:refreshToken': 'string' })
    expect(Object.keys(names('/digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events'))).toEqual([
      'path:originatorOwnerOrgRegNumber',
      'query:archiveId',
      'query:originatorOrgRegNumber',
      'query:fromDate',
      'query:toDate',
      'query:fromOriginatorArchiveId',
      'query:toOriginatorArchiveId',
      'query:limit',
      'query:after',
      'header:User-Agent',
    ])
    const versionType = (paths['/rest/resources/{resId}/content/{version}'].get.parameters as Json[]).find(
      (p) => p.name === 'type',
    )
    expect(versionType?.schema.enum).toEqual(['PDF', 'SIGN', 'NOTE'])
  })

  it('registers the wire formats as named components', () => {
    expect(Object.keys(document.components.schemas).sort()).toEqual(
      expect.arrayContaining([
        'ContentBase64',
        'CreateRecordRequest',
        'CreateRecordResponse',
        'EarlierCreateRecordRequest',
        'Entity',
        'EntityResponse',
        'ErrorBody',
        'EventInfo',
        'JournalEnvelope',
        'JournalErrorEnvelope',
        'LifeCycleEvent',
        'OriginalContentBase64',
        'RecordHistory',
        'SearchRequest',
        'SearchResponse',
        'StatusUpdateRequest',
        'StatusUpdateResponse',
        'VersionContent',
      ]),
    )
    expect(document.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      properties: { errors: { type: 'string' } },
      required: ['errors'],
    })
    expect(document.components.schemas.CreateRecordRequest.required).toEqual(['modelId', 'status'])
    expect(document.components.schemas.EarlierCreateRecordRequest.required).toEqual([
      'status',
      'format',
      'encodedFile',
      'type_id',
      'category_id',
    ])
  })
})
