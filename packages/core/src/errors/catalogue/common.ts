import { JSON_NESTING_LIMIT } from '../../request-values/json-text.js'
import { defineErrors } from '../error-definition.js'

/** Errors any operation can raise: malformed requests, limits, infrastructure. */
export const COMMON_ERRORS = defineErrors({
  MALFORMED_JSON: { kind: 'bad-request', message: 'Body is not valid JSON' },
  MALFORMED_UTF8: { kind: 'bad-request', message: 'Body is not valid UTF-8' },
  JSON_TOO_DEEP: {
    kind: 'bad-request',
    message: `Body nests arrays and objects deeper than ${JSON_NESTING_LIMIT} levels`,
  },
  NUL_CHARACTER: { kind: 'bad-request', message: 'Request contains a NUL character, which cannot be stored' },
  MALFORMED_HTTP_REQUEST: { kind: 'bad-request', message: 'Malformed HTTP request' },
  HEADERS_TOO_LARGE: { kind: 'bad-request', message: 'Request headers are too large' },
  UNSUPPORTED_BODY: { kind: 'bad-request', message: 'Body must be a JSON object' },
  // Maarch 20.10's answer to an empty body on POST /contacts, PUT /contacts/{id} and POST /attachments.
  BODY_NOT_SET_OR_EMPTY: { kind: 'bad-request', message: 'Body is not set or empty' },
  // A route's {id} that is not an integer, where 20.10 answers 500 with a stack trace (GET /notes/abc,
  // /doctypes/types/abc, /indexingModels/abc, /attachments/abc): one code for all of them.
  ROUTE_ID_NOT_INTEGER: { kind: 'bad-request', message: 'Route id is not an integer' },
  PAYLOAD_TOO_LARGE: { kind: 'payload-too-large', message: 'Body is larger than the configured limit' },
  ROUTE_NOT_FOUND: { kind: 'not-found', message: 'Route not found' },
  METHOD_NOT_ALLOWED: { kind: 'bad-request', message: 'Method not allowed on this route' },
  REQUEST_TIMEOUT: { kind: 'timeout', message: 'Request took too long and was stopped' },
  BODY_TIMEOUT: { kind: 'request-timeout', message: 'Request body did not arrive in time' },
  SERVICE_UNAVAILABLE: { kind: 'unavailable', message: 'Service temporarily unavailable, try again later' },
  // The embedded database (PGlite) held its one connection past the watchdog's bound with no statement finishing.
  DATABASE_UNRESPONSIVE: { kind: 'unavailable', message: 'The database stopped answering, try again later' },
  // PostgreSQL's SQLSTATE 54001 on either engine: a value or statement nested deeper than the database recurses.
  STATEMENT_TOO_COMPLEX: { kind: 'bad-request', message: 'Request is nested too deeply for the database' },
  STORAGE_UNAVAILABLE: { kind: 'unavailable', message: 'Document storage is not writable' },
  DOCUMENT_STORE_UNREACHABLE: { kind: 'unavailable', message: 'Document storage cannot be reached, try again later' },
  DOCUMENT_STORE_REFUSED: {
    kind: 'unavailable',
    message: 'Document storage refused the request (access denied or bucket missing)',
  },
  METRICS_FORBIDDEN: { kind: 'forbidden', message: 'Metrics are not served to this address' },
  INTERNAL: { kind: 'internal', message: 'An internal error occurred' },
})
