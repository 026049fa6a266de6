import { defineErrors } from '../error-definition.js'

/**
 * Errors of a letter's page in 20.10's web client (`/rest/resources/{resId}`, its items, fields and file
 * information). A record outside the perimeter, unknown or malformed answers the content capability's
 * `OUT_OF_PERIMETER` (`Document out of perimeter`), as 20.10 does.
 */
export const LETTER_PAGE_ERRORS = defineErrors({
  // 20.10's answer to GET /rest/resources/{resId}/fields/{fieldId} for any field but destination, status, externalId.
  FIELD_OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Field out of perimeter' },
})
