import { MAX_CHRONO_LENGTH, MAX_HISTORY_MESSAGE_LENGTH, MAX_STATUS_UPDATE_TARGETS } from '../../status/status-limits.js'
import { defineErrors } from '../error-definition.js'

/**
 * Errors of the status capability: `PUT /rest/res/resource/status` (interface endpoint 6, reference §5).
 * Out-of-perimeter and the history read's "Document does not exist" reuse the content codes.
 */
export const STATUS_ERRORS = defineErrors({
  // The interface's wording (lower-case "status"), not the reference's "Status not found". Also answers a
  // status that is not a string or is longer than the status column: no such status can exist.
  STATUS_NOT_FOUND: { kind: 'bad-request', message: 'status not found' },
  STATUS_HISTORY_MESSAGE_INVALID: {
    kind: 'bad-request',
    message: `Body historyMessage is not a string of at most ${MAX_HISTORY_MESSAGE_LENGTH} characters`,
  },
  STATUS_TARGETS_MISSING: { kind: 'bad-request', message: 'Body resId or chrono is not set or empty' },
  STATUS_TARGETS_NOT_ARRAY: {
    kind: 'bad-request',
    message: ({ field }: { field: 'resId' | 'chrono' }) => `Body ${field} is not an array`,
  },
  STATUS_TOO_MANY_TARGETS: {
    kind: 'bad-request',
    message: ({ field }: { field: 'resId' | 'chrono' }) =>
      `Body ${field} holds more than ${MAX_STATUS_UPDATE_TARGETS} elements; split the update into several calls`,
  },
  STATUS_RES_ID_INVALID: {
    kind: 'bad-request',
    message: ({ index }: { index: number }) => `Body resId[${index}] is not an integer greater than 0`,
  },
  STATUS_CHRONO_INVALID: {
    kind: 'bad-request',
    message: ({ index }: { index: number }) =>
      `Body chrono[${index}] is not a string of 1 to ${MAX_CHRONO_LENGTH} characters`,
  },
  // The reference answers a bare "Document not found"; naming the identifier tells a batch caller which one.
  STATUS_DOCUMENT_NOT_FOUND: {
    kind: 'bad-request',
    message: ({ identifier }: { identifier: string | number }) => `Document not found: ${identifier}`,
  },
})
