import { z } from 'zod'
import { JOURNAL_MAX_LIMIT, ORIGINATOR_ARCHIVE_ID_RANGE_RULE } from '../journal/journal-query.js'

const dateTime = (meaning: string) =>
  z.string().describe(`${meaning}: ISO 8601 date-time with offset (2024-03-01T10:00:00+00:00)`)

/** Path of `GET /digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events`. */
export const JournalPathSchema = z
  .object({
    originatorOwnerOrgRegNumber: z
      .string()
      .min(1)
      .describe("Digital safe identifier: the owner organisation's business_id, or its entity_id where that is empty"),
  })
  .meta({ description: 'The digital safe read' })

const JOURNAL_DATE =
  'an ISO 8601 date (2024-03-01) or date-time (2024-03-01T10:00:00Z, offset optional, UTC when absent)'

/** Query of `GET /digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events`. */
export const JournalEventsParamsSchema = z
  .object({
    archiveId: z
      .string()
      .optional()
      .describe(
        'Identifier of a digital object; cannot be combined with fromDate, toDate, fromOriginatorArchiveId or toOriginatorArchiveId',
      ),
    originatorOrgRegNumber: z
      .string()
      .optional()
      .describe('Container identifier: the registration number (entity_id) of the organisation unit'),
    fromDate: z.string().optional().describe(`Start of a range search, inclusive: ${JOURNAL_DATE}`),
    toDate: z
      .string()
      .optional()
      .describe(`End of a range search, inclusive: ${JOURNAL_DATE}; a date alone includes the whole day`),
    fromOriginatorArchiveId: z
      .string()
      .optional()
      .describe(`Start identifier of a range search, inclusive. ${ORIGINATOR_ARCHIVE_ID_RANGE_RULE}`),
    toOriginatorArchiveId: z
      .string()
      .optional()
      .describe('End identifier of a range search, inclusive (compared as fromOriginatorArchiveId)'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(JOURNAL_MAX_LIMIT)
      .optional()
      .describe('At most this many events (paging; every matching event when absent)'),
    after: z
      .string()
      .optional()
      .describe('eventId of the last event of the previous page: the page starts right after it'),
  })
  .meta({ description: 'Filters and paging of the journal read' })

/** Query of `GET /digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events`. */
export type JournalEventsParams = z.input<typeof JournalEventsParamsSchema>

/** An element of a life-cycle event's eventInfo: one event of the same archive. */
export const EventInfoSchema = z
  .object({
    eventId: z.string(),
    eventType: z
      .string()
      .describe(
        'recordsManagement/deposit, recordsManagement/depositNewResource, recordsManagement/consultation, recordsManagement/integrityCheck',
      ),
    timestamp: dateTime('When the event happened'),
    orgRegNumber: z.string(),
    orgUnitRegNumber: z.string(),
    accountId: z.string(),
    objectId: z.string(),
    resId: z.string().describe('Identifier of the record whose file the archive holds'),
    hashAlgorithm: z.string().describe('SHA256'),
    hash: z.string().describe('Hexadecimal digest of the file'),
    originatorOrgRegNumber: z.string(),
    depositorOrgRegNumber: z.string().describe('May be empty'),
    archiverOrgRegNumber: z.string(),
    size: z.number().int().describe('Size of the file in bytes'),
  })
  .meta({ id: 'EventInfo', description: 'One event of the archive, as listed in a life-cycle event' })

/** A life-cycle event of the digital-safe journal. */
export const LifeCycleEventSchema = z
  .object({
    eventId: z.string(),
    eventType: z
      .string()
      .describe('recordsManagement/deposit for the deposit of an archive, or a later event of the archive'),
    instanceName: z.string(),
    timestamp: dateTime('When the event happened'),
    orgRegNumber: z.string(),
    orgUnitRegNumber: z.string(),
    accountId: z.string(),
    objectClass: z.string().describe('recordsManagement/archive'),
    objectId: z.string().describe('The archive identifier'),
    operationResult: z.boolean(),
    description: z.string(),
    eventInfo: z.array(EventInfoSchema).describe('The events of the same archive, oldest first'),
    accountName: z.string(),
  })
  .meta({ id: 'LifeCycleEvent', description: 'A life-cycle event of an archive' })

/** Body of a successful journal read. */
export const JournalEventsResponseSchema = z
  .object({
    originatorOwnerOrgRegNumber: z.string().describe('The digital safe read'),
    timestamp: dateTime('Time of the request'),
    accountName: z.string().describe("The caller's account name"),
    operationResult: z.literal(true),
    lifeCycleEvents: z.array(LifeCycleEventSchema).describe('Ordered by timestamp, then journal order'),
  })
  .meta({ id: 'JournalEnvelope', description: 'The journal of a digital safe' })

/** Body of a successful journal read. */
export type JournalEventsResponse = z.infer<typeof JournalEventsResponseSchema>

/** Error body of the digital-safe operation: the envelope with operationResult false and a message. */
export const JournalErrorResponseSchema = z
  .object({
    originatorOwnerOrgRegNumber: z.string().describe('The digital safe named in the path'),
    timestamp: dateTime('Time of the request'),
    accountName: z.string().describe("The caller's account name; empty when the caller is unknown"),
    operationResult: z.literal(false),
    message: z.string().describe('The error message'),
  })
  .meta({ id: 'JournalErrorEnvelope', description: 'Error body of the digital-safe operation' })

/** Error body of the digital-safe operation. */
export type JournalErrorResponse = z.infer<typeof JournalErrorResponseSchema>
