import { z } from 'zod'

/** The path of `GET /rest/resources/{resId}/users/{userId}/groups/{groupId}/baskets/{basketId}/processingData`. */
export const ProcessingDataPathSchema = z
  .object({
    resId: z.string().describe('The letter opened from the basket'),
    userId: z.string().describe("The basket's owner: the caller, or a colleague who lent it"),
    groupId: z.string().describe("Serial id of the owner's group"),
    basketId: z.string().describe('Serial id of the basket'),
  })
  .meta({ description: 'The letter and the basket it is opened from' })

/** Body of processingData: the group's `list_event_data` for the basket, `canUpdate: false` when the status forbids changes. */
export const ProcessingDataSchema = z
  .object({
    listEventData: z
      .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .nullable()
      .describe(
        "The basket's list event options for the group (`defaultTab`, `canUpdateData`, …) as stored; null when it has none",
      ),
  })
  .meta({ id: 'ProcessingData', description: 'What the processing page of a letter opened from a basket shows first' })
/** What a basket's list event gives the letter's processing page (20.10's processingData). */
export type ProcessingData = z.infer<typeof ProcessingDataSchema>

/** `?limit=` of the letter's page's short lists. */
export const ProcessingPageLimitQuerySchema = z.object({
  limit: z.string().optional().describe('At most this many (0 or absent: all)'),
})

/** The path of `GET /rest/externalSummary/{resId}`. */
export const ExternalSummaryPathSchema = z.object({ resId: z.string().describe('Record identifier') })

/** Body of `GET /rest/externalSummary/{resId}`: what was sent out of the application about the letter. */
export const ExternalSummarySchema = z
  .object({
    elementsSend: z
      .array(
        z.object({
          object: z.string(),
          send_date: z.string(),
          status: z.string(),
          userInfo: z.string(),
          type: z.string(),
        }),
      )
      .describe('Always empty: Mailroom sends no e-mails, acknowledgement receipts nor exchanges of its own'),
  })
  .meta({ id: 'ExternalSummary', description: 'What was sent out about a letter (e-mails, receipts, exchanges)' })
/** What was sent outside for a letter (20.10's externalSummary): always empty in Mailroom. */
export type ExternalSummary = z.infer<typeof ExternalSummarySchema>

/** Path of `GET /rest/resources/{resId}/users/{userId}/isDestinationChanging`. */
export const DestinationChangingPathSchema = z
  .object({
    resId: z.string().describe('The letter being redirected'),
    userId: z.string().describe('Serial id of the user the letter would be redirected to'),
  })
  .meta({ description: 'The letter and the user proposed as its new assignee' })

/** Body of `GET /rest/resources/{resId}/users/{userId}/isDestinationChanging`. */
export const DestinationChangingSchema = z
  .object({
    isDestinationChanging: z
      .boolean()
      .describe("True unless the user belongs to the letter's department (redirecting to them changes it)"),
  })
  .meta({ id: 'DestinationChanging', description: 'Whether redirecting a letter to a user changes its department' })
/** Whether redirecting a letter to a user changes its department (20.10's redirect dialog warns then). */
export type DestinationChanging = z.infer<typeof DestinationChangingSchema>

/** The query of `GET /rest/history`, as 20.10's history pages send it. */
export const HistoryQuerySchema = z.object({
  resId: z.string().optional().describe("One letter's history (else the whole history: `view_history` privilege)"),
  onlyActions: z.string().optional().describe('Only the lines of actions (`ACTION#…`)'),
  limit: z.string().optional().describe('Page size (default 25, at most 500)'),
  offset: z.string().optional(),
  order: z.string().optional().describe('asc or desc (with orderBy)'),
  orderBy: z.string().optional().describe('event_date (default: newest first), userLabel, info or remote_ip'),
  startDate: z.string().optional().describe('Lines after this date-time'),
  endDate: z.string().optional().describe('Lines before this date-time'),
  'users[]': z.string().optional().describe('Lines of these users (serial ids or logins), repeated'),
  'actions[]': z.string().optional().describe('Lines of these actions (their ids), repeated'),
  'systemActions[]': z.string().optional().describe('Lines of these event types (ADD, UP, VIEW, …), repeated'),
  search: z.string().optional().describe('Words each found in the line’s text or address'),
})

/** One history line as 20.10's history pages read it. */
export const HistoryLineSchema = z.object({
  record_id: z.string().nullable(),
  event_date: z.string().describe('As PostgreSQL prints a timestamp (`2026-11-26 17:55:39.988838`), in UTC'),
  user_id: z.number().int().nullable(),
  info: z.string().nullable(),
  remote_ip: z.string().nullable(),
  userLabel: z.string().describe('"firstname lastname" of the user, "" when there is none'),
})
/** One line of `GET /rest/history`. */
export type HistoryLine = z.infer<typeof HistoryLineSchema>

/** Body of `GET /rest/history`. */
export const HistoryPageSchema = z
  .object({
    history: z.array(HistoryLineSchema),
    count: z.number().int().describe('How many lines the filters select, whatever the page'),
  })
  .meta({ id: 'HistoryPage', description: 'A page of history lines' })
/** A page of `GET /rest/history`, with the count of every matching line. */
export type HistoryPage = z.infer<typeof HistoryPageSchema>

/** An entity of the indexing models' entity list, in the tree's order. */
const IndexingModelEntitySchema = z.object({
  id: z.number().int(),
  entity_label: z.string(),
  entity_id: z.string(),
  parent_entity_id: z.string().optional().describe('Absent for a top-level entity'),
  level: z.number().int().describe('Depth in the tree, 0 at the top'),
})

/** Body of `GET /rest/indexingModels/entities`. */
export const IndexingModelEntitiesSchema = z
  .object({ entities: z.array(IndexingModelEntitySchema) })
  .meta({ id: 'IndexingModelEntities', description: 'The enabled entities as a tree, each after its parent' })
/** The entities of `GET /rest/indexingModels/entities`, in 20.10's tree order. */
export type IndexingModelEntities = z.infer<typeof IndexingModelEntitiesSchema>

/** Body of `GET /rest/contactsCustomFields`. */
export const ContactsCustomFieldsSchema = z
  .object({
    customFields: z
      .array(z.object({ id: z.number().int(), label: z.string(), type: z.string(), values: z.unknown() }))
      .describe('Always empty: Mailroom has no contact custom fields'),
  })
  .meta({ id: 'ContactsCustomFields', description: "The contacts' custom fields" })
/** `GET /rest/contactsCustomFields`: Mailroom has no contact custom fields. */
export type ContactsCustomFields = z.infer<typeof ContactsCustomFieldsSchema>
