import { z } from 'zod'
import { SEARCH_ORDERS } from '../criteria-search/criteria.js'
import { DEFAULT_SEARCH_LIMIT, MAX_SEARCH_LIMIT } from '../criteria-search/parse-paging.js'

const criterion = (values: z.ZodType, description: string) => z.object({ values }).describe(description).optional()
const dayRange = z.object({ start: z.iso.date().nullish(), end: z.iso.date().nullish() })
const ids = z.array(z.number().int().nullable())
const roleItems = z.array(z.object({ id: z.number().int(), type: z.enum(['user', 'entity']) }).nullable())
/** The roles of 20.10's search form, each a `role_<role>` criterion. */
const ROLES = [
  ['dest', 'The assignee (dest)'],
  ['cc', 'A copy (cc)'],
  ['avis', 'An opinion (avis)'],
  ['visa', 'A visa of the visa circuit (not yet signed off as signatory)'],
  ['sign', 'A signatory'],
] as const

/**
 * Body of `POST /rest/search`, for the OpenAPI document: validation goes through parseSearchCriteria, which
 * names the criterion in its 400s.
 */
export const CriteriaSearchBodySchema = z
  .object({
    meta: criterion(
      z.string(),
      "Quick search: a substring of subject, chrono (spaces removed) or barcode, or of an attachment's title or chrono, case and accents ignored; between double quotes: exact; digits also match the record id",
    ),
    subject: criterion(
      z.string(),
      'Every word (2 characters or more) is a substring of the subject; between double quotes: the exact subject',
    ),
    chrono: criterion(
      z.string(),
      'A substring of the chrono, spaces removed, case ignored (20.10: MAARCH/2020A/1 also finds MAARCH/2020A/10)',
    ),
    barcode: criterion(z.string(), 'A substring of the barcode'),
    resId: criterion(
      z.object({ start: z.number().int().nullish(), end: z.number().int().nullish() }),
      'Record id range, inclusive',
    ),
    doctype: criterion(z.array(z.number().int()), 'Document type ids'),
    category: criterion(z.array(z.string()), 'Categories: incoming, outgoing, internal, ged_doc'),
    status: criterion(
      ids,
      'Status identifiers (the integer `identifier` of GET /rest/statuses, not the code); null: no status',
    ),
    priority: criterion(z.array(z.string().nullable()), 'Priority ids; null: no priority'),
    destination: criterion(ids, 'Destination entities by integer id; null: none'),
    initiator: criterion(ids, 'Initiator entities by integer id; null: none'),
    confidentiality: criterion(z.array(z.boolean().nullable()), 'true, false, null'),
    binding: criterion(z.array(z.boolean().nullable()), 'true, false, null'),
    retentionFrozen: criterion(z.array(z.boolean().nullable()), 'true, false, null'),
    creationDate: criterion(dayRange, 'From the start of `start` to the end of `end` (YYYY-MM-DD)'),
    documentDate: criterion(dayRange, 'Document date range'),
    arrivalDate: criterion(dayRange, 'Arrival (admission) date range'),
    departureDate: criterion(dayRange, 'Departure date range'),
    processLimitDate: criterion(dayRange, 'Process limit date range'),
    closingDate: criterion(dayRange, 'Closing date range'),
    senders: criterion(
      z.union([
        z.array(z.object({ id: z.number().int(), type: z.enum(['contact', 'user', 'entity']) })),
        z.array(z.string()),
      ]),
      'Senders as {id, type}, or a company name (first item) that contacts sending the record hold',
    ),
    recipients: criterion(
      z.union([
        z.array(z.object({ id: z.number().int(), type: z.enum(['contact', 'user', 'entity']) })),
        z.array(z.string()),
      ]),
      'Recipients as {id, type}, or a company name',
    ),
    tags: criterion(ids, 'Tag ids; null: records without tags'),
    folders: criterion(ids, 'Folder ids; null: records in no folder'),
    notes: criterion(z.string(), 'A substring of a note of the record the caller may read (once notes are served)'),
    attachment_type: criterion(
      z.array(z.string()),
      'The record has a sent, signed or frozen attachment of one of these types',
    ),
    attachment_creationDate: criterion(dayRange, 'The record has such an attachment created in the range'),
    ...(Object.fromEntries(
      ROLES.map(([role, meaning]) => [
        `role_${role}`,
        criterion(
          roleItems,
          `${meaning} of the diffusion list is one of these users (or has one as delegate) or entities; null: or the list has none (any role_<item_mode> is read the same way)`,
        ),
      ]),
    ) as Record<`role_${(typeof ROLES)[number][0]}`, ReturnType<typeof criterion>>),
    senderDepartment: criterion(
      z.array(z.union([z.string(), z.number().int()]).nullable()),
      'A contact sending the record has a postcode starting with one of these departments (digits); null: or a contact sender without postcode',
    ),
    groupSign: criterion(
      ids,
      'A signatory of the diffusion list (or their delegate) is a member of one of these groups (integer ids); null: or a signatory in no group',
    ),
    registeredMail_reference: criterion(
      z.string(),
      'Registered mail reference: no record (Mailroom keeps no registered mail)',
    ),
    registeredMail_issuingSite: criterion(z.array(z.number().int()), 'Registered mail issuing sites: no record'),
    registeredMail_receivedDate: criterion(dayRange, 'Registered mail received date: no record'),
    registeredMail_recipient: criterion(
      z.union([z.array(z.object({ id: z.number().int(), type: z.string() })), z.array(z.string())]),
      'Registered mail recipients: no record',
    ),
    filters: z
      .record(
        z.string(),
        z.object({
          values: z.array(z.object({ id: z.union([z.string(), z.number(), z.null()]), selected: z.boolean() })),
          expand: z.boolean().optional(),
        }),
      )
      .optional()
      .describe('Facets of a previous answer; the selected ids narrow the search'),
  })
  .meta({
    id: 'CriteriaSearchRequest',
    description:
      "Maarch 20.10's structured search: every criterion given must match. Also `role_<item_mode>` for any role of the diffusion list, and `indexingCustomField_<id>` for a custom field: text for a string field (between double quotes: exact), {start, end} for an integer or date field, an array of values (null: empty) for select and radio, of values for checkbox, of {id} for banAutocomplete, of {id, type} or a company name for contact",
  })

/** Body of `POST /rest/search`: criteria, each `{values}`. */
export type CriteriaSearchBody = z.input<typeof CriteriaSearchBodySchema>

/** Query of `POST /rest/search`. */
export const CriteriaSearchQuerySchema = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_SEARCH_LIMIT)
    .optional()
    .describe(`Records per page (default ${DEFAULT_SEARCH_LIMIT})`),
  offset: z.number().int().min(0).optional().describe('Records to skip (default 0)'),
  order: z.enum(SEARCH_ORDERS).optional().describe('Sort key (default: creation date)'),
  orderDir: z.enum(['ASC', 'DESC']).optional().describe('Sort direction (default ASC)'),
  filters: z.string().optional().describe('When present, the answer carries no computed facets'),
})

const displayItem = z.object({
  value: z.string(),
  cssClasses: z.array(z.string()),
  icon: z.string(),
  displayValue: z.unknown().describe('A label, a list of names, or {creationDate, processLimitDate}'),
})

/** One record of an answer, as 20.10's result list shows it. */
export const CriteriaSearchResourceSchema = z
  .object({
    resId: z.number().int(),
    chrono: z.string().nullable(),
    barcode: z.string().nullable(),
    subject: z.string().nullable(),
    confidentiality: z.string().nullable(),
    statusLabel: z.string().nullable(),
    statusImage: z.string().nullable(),
    priorityColor: z.string().nullable(),
    closing_date: z.string().nullable().describe('ISO 8601'),
    countAttachments: z.number().int(),
    hasDocument: z.boolean(),
    mailTracking: z.boolean().describe('The caller follows the record'),
    integrations: z.object({ inShipping: z.boolean(), inSignatureBook: z.boolean() }),
    retentionFrozen: z.boolean(),
    binding: z.boolean().nullable(),
    countNotes: z.number().int(),
    folders: z.array(z.unknown()),
    display: z.array(displayItem),
    inAttachments: z.boolean(),
  })
  .meta({ id: 'CriteriaSearchResource' })

/** One record of a `POST /rest/search` answer. */
export type CriteriaSearchResource = z.infer<typeof CriteriaSearchResourceSchema>

const facet = z.object({
  values: z.array(
    z.object({
      id: z.union([z.string(), z.number(), z.null()]),
      label: z.string(),
      count: z.number().int(),
      selected: z.boolean(),
    }),
  ),
  expand: z.boolean(),
})

/** The facets of an answer: for each, the values among the matches with their counts. */
export const CriteriaSearchFiltersSchema = z.object({
  priorities: facet,
  categories: facet,
  statuses: facet,
  doctypes: facet,
  entities: facet,
  folders: facet,
})

/** The facets of a `POST /rest/search` answer. */
export type CriteriaSearchFilters = z.infer<typeof CriteriaSearchFiltersSchema>

/** Body of a successful `POST /rest/search`. */
export const CriteriaSearchResponseSchema = z
  .object({
    resources: z.array(CriteriaSearchResourceSchema).describe('The page of records'),
    count: z.number().int().describe('Every match (0 when the offset is past the end, as 20.10)'),
    allResources: z.array(z.number().int()).describe('The id of every match, in order'),
    defaultTab: z.string().optional(),
    displayFolderTags: z.boolean().optional(),
    templateColumns: z.number().int().optional(),
    filters: CriteriaSearchFiltersSchema.optional().describe(
      'Absent when the query has filters, or when a sender, recipient, tag, folder or note criterion matched nothing (20.10)',
    ),
  })
  .meta({ id: 'CriteriaSearchResponse', description: 'The records found' })

/** Body of a successful `POST /rest/search`. */
export type CriteriaSearchResponse = z.infer<typeof CriteriaSearchResponseSchema>

/** Body of `GET /rest/search/configuration`. */
export const SearchConfigurationResponseSchema = z
  .object({
    configuration: z.object({
      listEvent: z.object({ defaultTab: z.string() }),
      listDisplay: z.object({
        templateColumns: z.number().int(),
        subInfos: z.array(z.object({ value: z.string(), cssClasses: z.array(z.string()), icon: z.string() })),
      }),
    }),
  })
  .meta({ id: 'SearchConfigurationResponse' })

/** Body of `GET /rest/search/configuration`. */
export type SearchConfigurationResponse = z.infer<typeof SearchConfigurationResponseSchema>
