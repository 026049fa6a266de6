import { z } from 'zod'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'

/** One event of a record's history (a row of the history table), as `GET /rest/resources/{resId}/history` shows it. */
export interface HistoryEntry {
  readonly id: number
  /** ISO 8601 date-time in UTC. */
  readonly eventDate: string
  /** ADD (creation), VIEW, UP (status change, new version), … */
  readonly eventType: string
  /** Finer event name: resadd, resview, resup, … (null for rows written without one). */
  readonly eventId: string | null
  readonly userId: number | null
  /** Login of userId; null when the row names no user or the user is gone. */
  readonly login: string | null
  /** The message recorded with the event (the historyMessage of a status update). */
  readonly info: string | null
  /** The module that wrote the row (history.id_module: resource, …). */
  readonly module: string
}

/** Body of `GET /rest/resources/{resId}/history`: every event of the record, newest first. */
export interface RecordHistory {
  readonly history: readonly HistoryEntry[]
}

/** The history table names under which events of a record (res_letterbox.res_id) are written. */
export const RECORD_HISTORY_TABLES = ['res_letterbox', 'res_view_letterbox'] as const

/** What a status update writes into the history, once per record (reference §5 step 8). */
export const STATUS_UPDATE_HISTORY = {
  tableName: 'res_letterbox',
  eventType: 'UP',
  eventId: 'resup',
  module: 'resource',
} as const

/** The `resId` path parameter of a record read: a decimal integer ≥ 1, else 400 (content catalogue). */
export function parseResIdParam(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('RES_ID_NOT_POSITIVE')
}

/** Shape of the history read's body, for the OpenAPI document and response tests. */
export const recordHistoryResponseSchema = z.object({
  history: z.array(
    z.object({
      id: z.number().int(),
      eventDate: z.iso.datetime({ offset: true }),
      eventType: z.string(),
      eventId: z.string().nullable(),
      userId: z.number().int().nullable(),
      login: z.string().nullable(),
      info: z.string().nullable(),
      module: z.string(),
    }),
  ),
})
