import { z } from 'zod'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import {
  DEFAULT_HISTORY_MESSAGE,
  DEFAULT_TARGET_STATUS,
  MAX_CHRONO_LENGTH,
  MAX_HISTORY_MESSAGE_LENGTH,
  MAX_STATUS_ID_LENGTH,
  MAX_STATUS_UPDATE_TARGETS,
} from './status-limits.js'

/** The records a status update addresses: by identifier or by chrono number, deduplicated, in list order. */
export type StatusTargets =
  | { readonly kind: 'resId'; readonly identifiers: readonly number[] }
  | { readonly kind: 'chrono'; readonly identifiers: readonly string[] }

/** A checked body of `PUT /rest/res/resource/status`. Whether the status exists is storage's question. */
export interface StatusUpdateRequest {
  readonly status: string
  readonly historyMessage: string
  readonly targets: StatusTargets
}

/** The body as a field map. No body at all reads as `{}`, so the defaults then the missing list answer. */
function fieldsOf(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {}
  if (typeof body !== 'object' || Array.isArray(body)) fail('UNSUPPORTED_BODY')
  return body as Record<string, unknown>
}

/** "Not given" for the optional fields: absent, null or the empty string (reference `empty()` on strings). */
function isUnset(value: unknown): boolean {
  return value === undefined || value === null || value === ''
}

// NUL and unpaired surrogates cannot be stored in PostgreSQL text (or are silently replaced on the way).
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** True when PostgreSQL can store and compare the string as given. */
export function isStorableText(text: string): boolean {
  return !UNSTORABLE.test(text)
}

/** Length in characters as PostgreSQL's varchar(n) counts them (code points, not UTF-16 units). */
export function characterLength(text: string): number {
  let length = 0
  for (const _ of text) length++
  return length
}

/**
 * The target status of a status update body: `COU` when unset; a value that is not a string, or that could
 * not be a status identifier (too long, unstorable), is refused with the same `status not found` as an
 * unknown one, since no such status can exist.
 */
export function parseTargetStatus(body: unknown): string {
  const { status } = fieldsOf(body)
  if (isUnset(status)) return DEFAULT_TARGET_STATUS
  if (typeof status !== 'string' || characterLength(status) > MAX_STATUS_ID_LENGTH || !isStorableText(status))
    fail('STATUS_NOT_FOUND')
  return status
}

/** The history message: `status update` when unset. */
export function parseHistoryMessage(body: unknown): string {
  const { historyMessage } = fieldsOf(body)
  if (isUnset(historyMessage)) return DEFAULT_HISTORY_MESSAGE
  if (
    typeof historyMessage !== 'string' ||
    characterLength(historyMessage) > MAX_HISTORY_MESSAGE_LENGTH ||
    !isStorableText(historyMessage)
  ) {
    fail('STATUS_HISTORY_MESSAGE_INVALID')
  }
  return historyMessage
}

/** A list field: null when unset or empty, the array otherwise; anything else is refused by name. */
function listField(fields: Record<string, unknown>, field: 'resId' | 'chrono'): readonly unknown[] | null {
  const value = fields[field]
  if (isUnset(value)) return null
  if (!Array.isArray(value)) fail('STATUS_TARGETS_NOT_ARRAY', { field })
  if (value.length === 0) return null
  if (value.length > MAX_STATUS_UPDATE_TARGETS) fail('STATUS_TOO_MANY_TARGETS', { field })
  return value
}

/**
 * The records a body addresses. A non-empty `chrono` wins and `resId` is then not read (reference §5
 * step 6); otherwise a non-empty `resId` is used (the earlier variant's only list). Duplicates count once.
 */
export function parseStatusTargets(body: unknown): StatusTargets {
  const fields = fieldsOf(body)
  const chrono = listField(fields, 'chrono')
  if (chrono) {
    const chronos = chrono.map((value, index) => {
      if (typeof value !== 'string' || value.length === 0 || characterLength(value) > MAX_CHRONO_LENGTH)
        fail('STATUS_CHRONO_INVALID', { index })
      return value
    })
    return { kind: 'chrono', identifiers: [...new Set(chronos)] }
  }
  const resId = listField(fields, 'resId')
  if (!resId) fail('STATUS_TARGETS_MISSING')
  const ids = resId.map((value, index) => databaseIdOf(value, 'bigint') ?? fail('STATUS_RES_ID_INVALID', { index }))
  return { kind: 'resId', identifiers: [...new Set(ids)] }
}

/**
 * Checks a whole `PUT /rest/res/resource/status` body in the reference's order (§5): status, history message,
 * then the identifier lists. Throws a bad-request DomainError on the first problem.
 */
export function parseStatusUpdateRequest(body: unknown): StatusUpdateRequest {
  const status = parseTargetStatus(body)
  const historyMessage = parseHistoryMessage(body)
  return { status, historyMessage, targets: parseStatusTargets(body) }
}

/**
 * Shape of the status update body for the OpenAPI document only: validation goes through
 * {@link parseStatusUpdateRequest}, which keeps the contract's defaults and messages.
 */
export const statusUpdateBodySchema = z.object({
  status: z
    .string()
    .max(MAX_STATUS_ID_LENGTH)
    .optional()
    .describe(`Target status (id in the status table); ${DEFAULT_TARGET_STATUS} when absent or empty`),
  historyMessage: z
    .string()
    .max(MAX_HISTORY_MESSAGE_LENGTH)
    .optional()
    .describe(`Text recorded in the history of every record; "${DEFAULT_HISTORY_MESSAGE}" when absent or empty`),
  resId: z
    .array(z.union([z.number().int().min(1), z.string().regex(/^[0-9]+$/)]))
    .max(MAX_STATUS_UPDATE_TARGETS)
    .optional()
    .describe('Record identifiers (integers ≥ 1, or their decimal text); required when chrono is empty'),
  chrono: z
    .array(z.string().min(1).max(MAX_CHRONO_LENGTH))
    .max(MAX_STATUS_UPDATE_TARGETS)
    .optional()
    .describe('Chrono numbers of records; when non-empty it wins over resId'),
})
