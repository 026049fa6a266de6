import { ERROR_CATALOGUE, ErrorBodySchema, type ErrorCode, JournalErrorResponseSchema } from '@mailroom/core'
import type { ZodOpenApiResponseObject, ZodOpenApiResponsesObject } from 'zod-openapi'
import { STATUS_BY_KIND } from '../error-status.js'

/**
 * Arguments the documentation renders templated messages with. The messages themselves always come from the
 * catalogue; only these sample values are written here.
 */
const SAMPLE_ARGS: Partial<Record<ErrorCode, object>> = {
  BASKET_CLAUSE_REFUSED: {
    basketId: 'CopyMailBasket',
    basketName: 'Courriers en copie',
    reason: 'sub-queries are not allowed: "select" at position 11',
  },
  CREATE_NOT_INTEGER: { field: 'modelId' },
  CONTACT_FIELD_LENGTH: { field: 'lastname' },
  CONTACT_DUPLICATE_MAIL: { id: 13 },
  CONTACT_QUERY_INVALID: { name: 'limit', rule: 'must be an integer from 1 to 1000' },
  CREATE_NOT_STRING: { field: 'status' },
  CREATE_NOT_BOOLEAN: { field: 'chrono' },
  CREATE_NOT_TEXT: { field: 'subject' },
  CREATE_NOT_OBJECT: { field: 'externalId' },
  CREATE_NOT_ARRAY: { field: 'senders' },
  CREATE_NOT_FOUND: { field: 'doctype' },
  MODEL_FIELD_NOT_SET: { field: 'destination' },
  CUSTOM_FIELD_EMPTY: { id: '1' },
  CUSTOM_FIELD_WRONG_VALUE: { id: '3' },
  CUSTOM_FIELD_NOT_ARRAY: { id: '3' },
  CUSTOM_FIELD_NOT_STRING: { id: '1' },
  CUSTOM_FIELD_NOT_NUMBER: { id: '1' },
  CUSTOM_FIELD_NOT_DATE: { id: '2' },
  CUSTOM_FIELD_NOT_FLAT: { id: '3' },
  LIST_ITEM_NOT_OBJECT: { field: 'senders', index: 0 },
  LIST_ITEM_ID_INVALID: { field: 'senders', index: 0 },
  LIST_ITEM_TYPE_INVALID: { field: 'recipients', index: 1 },
  LIST_ITEM_MODE_INVALID: { field: 'diffusionList', index: 0 },
  LIST_ITEM_NOT_FOUND: { field: 'senders', index: 0 },
  DATE_INVALID: { field: 'documentDate' },
  ATTACHMENT_NOT_INTEGER: { field: 'originId' },
  ATTACHMENT_LENGTH_INVALID: { field: 'title', max: 255 },
  DATE_OUT_OF_RANGE: { field: 'arrivalDate' },
  CREATE_FAILED: { stage: 'storeResource' },
  CONVERSION_FAILED: { detail: 'the converter stopped after 120 s' },
  FORMAT_NOT_ALLOWED: { format: 'exe', mimeType: 'application/x-dosexec' },
  WATERMARK_CONFIG_INVALID: { detail: 'position must be four numbers' },
  SEARCH_SELECT_SYNTAX: { problem: 'unknown-column', token: 'password', position: 10 },
  SEARCH_CLAUSE_SYNTAX: { problem: 'semicolon', token: ';', position: 19 },
  SEARCH_ORDER_BY_SYNTAX: { problem: 'subquery', token: 'select', position: 2 },
  CRITERIA_SEARCH_CRITERION_UNKNOWN: { name: 'nope' },
  CRITERIA_SEARCH_CUSTOM_FIELD_UNKNOWN: { name: 'indexingCustomField_99' },
  CRITERIA_SEARCH_CRITERION_NOT_OBJECT: { name: 'chrono' },
  CRITERIA_SEARCH_VALUES_INVALID: {
    name: 'status',
    expected: 'a non-empty array of status identifiers (integers, not codes) or null',
  },
  CRITERIA_SEARCH_QUERY_INVALID: { name: 'limit', expected: 'an integer from 1 to 1000' },
  STATUS_TARGETS_NOT_ARRAY: { field: 'resId' },
  STATUS_TOO_MANY_TARGETS: { field: 'resId' },
  STATUS_RES_ID_INVALID: { index: 2 },
  ACTION_RESOURCE_INVALID: { index: 1 },
  STATUS_CHRONO_INVALID: { index: 0 },
  STATUS_DOCUMENT_NOT_FOUND: { identifier: 'MAARCH/2024A/404' },
  JOURNAL_SAFE_NOT_FOUND: { owner: 'NOPE' },
  JOURNAL_INVALID_LIMIT: { max: 10000 },
  JOURNAL_REPEATED_PARAMETER: { name: 'fromDate' },
  JOURNAL_EVENT_MALFORMED: { field: 'timestamp' },
  ORGANISATION_NOT_PARSED: { reason: 'line 3, column 5: Map keys must be unique' },
  ORGANISATION_INVALID: {
    issues: [
      { path: 'users[3].groups[0]', message: 'no group "AGNT"' },
      { path: 'groups[2].perimeter', message: 'unknown column "destinaton" at position 1' },
    ],
  },
  ORGANISATION_REFUSED: { issues: [{ path: 'statuses', message: 'cannot remove "END": records use it' }] },
  USER_NOT_FOUND: { login: 'jdoe' },
  USER_ALREADY_EXISTS: { login: 'jdoe' },
  PASSWORD_POLICY: { rules: ['at least 12 characters'] },
  ROUTE_NOT_SERVED_YET: { route: 'GET /rest/resources/{resId}/items' },
  PROCESSING_PARAM_NOT_INTEGER: { param: 'resId' },
  HISTORY_QUERY_INVALID: { field: 'limit' },
}

/** The message a code renders to in the documentation (sample arguments for templates). */
export function documentedMessage(code: ErrorCode): string {
  const message = ERROR_CATALOGUE[code].message as string | ((args: object) => string)
  return typeof message === 'function' ? message(SAMPLE_ARGS[code] ?? {}) : message
}

/** HTTP status a code is answered with, from the adapter's one table. */
export function documentedStatus(code: ErrorCode): number {
  return STATUS_BY_KIND[ERROR_CATALOGUE[code].kind]
}

/** Codes any authenticated `/rest` operation may answer. */
export const REST_AUTH_ERRORS: readonly ErrorCode[] = [
  'AUTHENTICATION_FAILED',
  'ACCOUNT_LOCKED',
  'ADDRESS_THROTTLED',
  'PASSWORD_CHECKS_BUSY',
]

/**
 * Codes of the credentials check before a `user` route: a password's, the directory that checks an HTTP Basic
 * password unreachable, and a bearer token's provider unreachable.
 */
export const CREDENTIALS_ERRORS: readonly ErrorCode[] = [
  ...REST_AUTH_ERRORS,
  'DIRECTORY_UNAVAILABLE',
  'IDENTITY_PROVIDER_UNAVAILABLE',
]

/**
 * Codes any operation may answer when the server itself fails or is overloaded, or when its database refuses a
 * statement too deep to run (`STATEMENT_TOO_COMPLEX`) or stops answering (`DATABASE_UNRESPONSIVE`, the embedded
 * engine's watchdog).
 */
export const SERVER_ERRORS: readonly ErrorCode[] = [
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
  'REQUEST_TIMEOUT',
  'STATEMENT_TOO_COMPLEX',
  'DATABASE_UNRESPONSIVE',
]

/** Codes any operation may answer before its route runs: a NUL (`%00`) in the URL (or in a JSON body), refused for every path. */
export const REQUEST_ERRORS: readonly ErrorCode[] = ['NUL_CHARACTER']

/** Codes any operation with a JSON body may answer (the body's reading and parsing, before the route runs). */
export const BODY_ERRORS: readonly ErrorCode[] = [
  'MALFORMED_JSON',
  'MALFORMED_UTF8',
  'JSON_TOO_DEEP',
  'PAYLOAD_TOO_LARGE',
  'BODY_TIMEOUT',
]

const REASONS: Record<number, string> = {
  400: 'Bad request: a parameter is missing or malformed, or names something that does not exist',
  401: 'Authentication failed: missing or wrong credentials (`Authentication Failed`), or a login under the optional account lock (`Account Locked`, off by default)',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict',
  413: 'Request body larger than the configured limit',
  429: 'This address sent too many wrong passwords for this login (5 in 5 minutes) or for logins never used from it (30 in 5 minutes), or too many password checks at once; only this address is refused, and only until the Retry-After delay (seconds)',
  500: 'Internal error',
  501: 'A route of Maarch 20.10 that Mailroom does not serve yet',
  503: 'Temporarily unavailable or too slow; retry after the Retry-After delay',
}

/** Groups codes by the status they are answered with, keeping the first appearance of each code. */
function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>()
  for (const code of new Set(codes)) {
    const status = documentedStatus(code)
    groups.set(status, [...(groups.get(status) ?? []), code])
  }
  return new Map([...groups].sort(([a], [b]) => a - b))
}

/**
 * The error responses of a `/rest` operation: one response per status, its body the `{errors}` object and
 * one example per code carrying the code's exact catalogue message.
 */
export function restErrorResponses(codes: readonly ErrorCode[]): ZodOpenApiResponsesObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {}
  for (const [status, group] of byStatus(codes)) {
    const response: ZodOpenApiResponseObject = {
      description: REASONS[status] ?? `Error ${status}`,
      content: {
        'application/json': {
          schema: ErrorBodySchema,
          examples: Object.fromEntries(
            group.map((code) => [code, { summary: code, value: { errors: documentedMessage(code) } }]),
          ),
        },
      },
    }
    if (status === 429 || status === 503)
      response.headers = {
        'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' } },
      }
    responses[`${status}`] = response
  }
  return responses
}

/** The error responses of the digital-safe operation: the journal envelope with operationResult false. */
export function journalErrorResponses(codes: readonly ErrorCode[], owner: string): ZodOpenApiResponsesObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {}
  for (const [status, group] of byStatus(codes)) {
    responses[`${status}`] = {
      description: REASONS[status] ?? `Error ${status}`,
      content: {
        'application/json': {
          schema: JournalErrorResponseSchema,
          examples: Object.fromEntries(
            group.map((code) => [
              code,
              {
                summary: code,
                value: {
                  originatorOwnerOrgRegNumber: owner,
                  timestamp: '2024-03-01T10:00:00+00:00',
                  accountName: code === 'JOURNAL_UNAUTHENTICATED' ? '' : 'Barbara BAIN',
                  operationResult: false,
                  message: documentedMessage(code),
                },
              },
            ]),
          ),
        },
      },
    }
  }
  return responses
}
