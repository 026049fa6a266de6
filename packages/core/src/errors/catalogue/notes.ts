import { defineErrors } from '../error-definition.js'

/**
 * Errors of the notes of a record (`POST /rest/notes`, `GET /rest/resources/{resId}/notes`, `GET /rest/notes/{id}`),
 * with Maarch 20.10's messages and statuses. `Body resId is empty or not an integer` is the records' CREATE_NOT_INTEGER.
 */
export const NOTES_ERRORS = defineErrors({
  NOTE_VALUE_INVALID: { kind: 'bad-request', message: 'Body value is empty or not a string' },
  NOTE_ENTITIES_NOT_ARRAY: { kind: 'bad-request', message: 'Body entities is not an array' },
  NOTE_ENTITIES_UNKNOWN: { kind: 'bad-request', message: 'Body entities : one or more entities do not exist' },
  NOTE_ROUTE_RES_ID_INVALID: { kind: 'bad-request', message: 'Route resId is not an integer' },
  // 20.10 answers 403 for a malformed limit; kept so clients that test for it see the same.
  NOTES_LIMIT_INVALID: { kind: 'forbidden', message: 'Query limit is not an int val' },
  // An unknown note, a note of a record out of perimeter and a restricted note all answer this: nothing tells them apart.
  NOTE_OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Note out of perimeter' },
})
