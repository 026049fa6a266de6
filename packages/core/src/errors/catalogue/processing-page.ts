import { defineErrors } from '../error-definition.js'

/**
 * Errors of the routes the web client's processing page reads (processingData, `GET /rest/history`), with Maarch
 * 20.10's messages and statuses where it has them. 'Document out of perimeter', 'Service forbidden' and
 * 'Query limit is not an int val' are the catalogue's OUT_OF_PERIMETER, SERVICE_FORBIDDEN and NOTES_LIMIT_INVALID.
 */
export const PROCESSING_PAGE_ERRORS = defineErrors({
  // 20.10 answers 403 for a path id that is not an integer, naming it.
  PROCESSING_PARAM_NOT_INTEGER: {
    kind: 'forbidden',
    message: ({ param }: { param: 'resId' | 'userId' | 'groupId' | 'basketId' }) => `${param} param is not an integer`,
  },
  // isDestinationChanging's user (the redirect's proposed assignee): 20.10's 400, also for an id that names none.
  DESTINATION_USER_NOT_FOUND: { kind: 'bad-request', message: 'User does not exist' },
  PROCESSING_STATUS_MISSING: { kind: 'bad-request', message: 'Status does not exist' },
  // Not in 20.10, which passes such values to its SQL (a 500): a negative or huge page, a date that is none, NUL.
  HISTORY_QUERY_INVALID: {
    kind: 'bad-request',
    message: ({ field }: { field: string }) => `Query ${field} is not valid`,
  },
})
