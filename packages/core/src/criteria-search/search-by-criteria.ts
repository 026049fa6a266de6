import type { Actor } from '../actors/actor.js'
import type {
  CriteriaSearchFilters,
  CriteriaSearchResource,
  CriteriaSearchResponse,
  SearchConfigurationResponse,
} from '../api/criteria-search-schemas.js'
import { type CriteriaTerm, FACET_NAMES, type FacetName, type SearchCriteria } from './criteria.js'
import type { CriteriaSearchServices } from './criteria-search-services.js'
import { withInertHtml } from './list-row-html.js'
import { namesCustomFields, parseSearchCriteria } from './parse-criteria.js'
import { parseSearchPaging } from './parse-paging.js'
import type { CriteriaMatches, CriteriaSearchStore, FacetRow, ResourceRow } from './ports.js'
import {
  CATEGORY_LABELS,
  SEARCH_CONFIGURATION,
  SEARCH_DISPLAY_ITEMS,
  type SearchDisplayItemName,
} from './search-configuration.js'

/** What the criteria search needs from the outside. */
export interface CriteriaSearchDependencies {
  readonly records: CriteriaSearchStore
}

const EMPTY_ANSWER: CriteriaSearchResponse = { resources: [], count: 0, allResources: [] }

/** Facet values in the order of their labels, as a French reader sorts them (one collator: building one costs). */
const LABEL_ORDER = new Intl.Collator('fr')

/**
 * Whether 20.10 checks a term before its search, answering an empty result without facets when the term finds no
 * record (its pre-queries: correspondents, tags and folders, notes, roles, senders' departments, a contact's
 * company in a custom field, registered mail).
 */
export function isPreChecked(term: CriteriaTerm): boolean {
  switch (term.kind) {
    case 'correspondents':
    case 'correspondentCompany':
    case 'senderDepartment':
    case 'notes':
    case 'registeredMail':
      return true
    case 'linkedIds':
    case 'role':
      return !term.orNone
    case 'customField':
      return term.match.kind === 'company'
    default:
      return false
  }
}

/** The facets from their rows, each facet's values in the order of their labels; `selected` echoes the caller's choice. */
export function facetsFrom(rows: readonly FacetRow[], criteria: SearchCriteria): CriteriaSearchFilters {
  const filters = Object.fromEntries(
    FACET_NAMES.map((facet) => [
      facet,
      { values: [] as CriteriaSearchFilters[FacetName]['values'], expand: criteria.expansion[facet] ?? false },
    ]),
  ) as CriteriaSearchFilters
  for (const row of rows) {
    const id = row.id === null ? null : row.facet === 'doctypes' || row.facet === 'folders' ? Number(row.id) : row.id
    const label = row.facet === 'categories' ? (CATEGORY_LABELS[row.id ?? ''] ?? row.id) : row.label
    const selected = (criteria.selection[row.facet] ?? []).some((chosen) => String(chosen) === String(id))
    filters[row.facet].values.push({ id, label: label ?? '_UNDEFINED', count: Number(row.count), selected })
  }
  for (const facet of FACET_NAMES) filters[facet].values.sort((a, b) => LABEL_ORDER.compare(a.label, b.label))
  return filters
}

/** The names of a record's senders and recipients. */
interface Correspondents {
  readonly senders: string[]
  readonly recipients: string[]
}

function isoOrNull(value: Date | string | null): string | null {
  if (value === null) return null
  return value instanceof Date ? value.toISOString() : new Date(value).toISOString()
}

/** One record of an answer, in 20.10's result list's form (ResourceListController::getFormattedResources). */
export function formattedResource(row: ResourceRow): CriteriaSearchResource {
  const correspondents = typeof row.correspondents === 'string' ? JSON.parse(row.correspondents) : row.correspondents
  const names = (mode: string) =>
    (correspondents as { mode: string; label: string | null }[]).flatMap((c) =>
      c.mode === mode && c.label !== null && c.label !== '' ? [c.label] : [],
    )
  return formatted(row, { senders: names('sender'), recipients: names('recipient') })
}

function displayValue(item: SearchDisplayItemName, row: ResourceRow, names: Correspondents): unknown {
  switch (item) {
    case 'getPriority':
      return row.priority_label
    case 'getCreationAndProcessLimitDates':
      return { creationDate: isoOrNull(row.creation_date), processLimitDate: isoOrNull(row.process_limit_date) }
    case 'getAssignee':
      return [row.dest_user_name, row.entity_label === null ? null : `(${row.entity_label})`]
        .filter((part) => part !== null)
        .join(' ')
    case 'getDoctype':
      return row.type_label
    case 'getRecipients':
      return names.recipients
    case 'getSenders':
      return names.senders
  }
}

function formatted(row: ResourceRow, names: Correspondents): CriteriaSearchResource {
  return {
    resId: Number(row.res_id),
    chrono: row.alt_identifier,
    barcode: row.barcode,
    subject: row.subject,
    confidentiality: row.confidentiality,
    statusLabel: row.label_status,
    statusImage: row.img_filename,
    priorityColor: row.priority_color,
    closing_date: isoOrNull(row.closing_date),
    countAttachments: Number(row.count_attachments),
    hasDocument: row.has_document,
    mailTracking: row.followed,
    integrations: { inShipping: row.in_shipping, inSignatureBook: row.in_signature_book },
    retentionFrozen: row.retention_frozen,
    binding: row.binding,
    countNotes: Number(row.count_notes),
    folders: [],
    display: SEARCH_DISPLAY_ITEMS.map((item) => ({
      value: item.value,
      cssClasses: [...item.cssClasses],
      icon: item.icon,
      displayValue: displayValue(item.value, row, names),
    })),
    // An attachment of the record holds the searched text (20.10's getAttachmentsInsider).
    inAttachments: row.in_attachments,
  }
}

/** The answer in 20.10's form: the page's records, every match's id, the list's settings and the facets. */
function answerOf(matches: CriteriaMatches, criteria: SearchCriteria, offset: number): CriteriaSearchResponse {
  const filters = matches.facets === null ? null : facetsFrom(matches.facets, criteria)
  const withFilters = filters === null ? {} : { filters }
  const allResources = matches.ids.map(Number)
  if (offset >= allResources.length) return { ...EMPTY_ANSWER, ...withFilters }
  return {
    resources: matches.page.map((row) => withInertHtml(formattedResource(row))),
    count: allResources.length,
    allResources,
    defaultTab: SEARCH_CONFIGURATION.listEvent.defaultTab,
    displayFolderTags: SEARCH_CONFIGURATION.listDisplay.subInfos.some(
      (item) => item.value === ('getFolders' as string),
    ),
    templateColumns: SEARCH_CONFIGURATION.listDisplay.templateColumns,
    ...withFilters,
  }
}

/**
 * `POST /rest/search` in 20.10's order: the criteria (their custom fields' types read when the body names one),
 * the paging, then the search inside the perimeter and the searchable statuses, after the pre-checked terms; a
 * pre-checked term that finds no record of the perimeter answers an empty result without facets.
 */
export async function searchByCriteria(
  deps: CriteriaSearchDependencies,
  actor: Actor,
  body: unknown,
  query: Readonly<Record<string, string | string[] | undefined>>,
): Promise<CriteriaSearchResponse> {
  const criteria = parseSearchCriteria(
    body,
    namesCustomFields(body) ? await deps.records.customFieldTypes() : undefined,
  )
  const paging = parseSearchPaging(query)
  const matches = await deps.records.search(actor, criteria, paging, criteria.terms.filter(isPreChecked))
  return matches === null ? EMPTY_ANSWER : answerOf(matches, criteria, paging.offset)
}

/** `GET /rest/search/configuration`: 20.10's result list's settings. */
export function searchConfiguration(): SearchConfigurationResponse {
  return {
    configuration: {
      listEvent: { ...SEARCH_CONFIGURATION.listEvent },
      listDisplay: {
        templateColumns: SEARCH_CONFIGURATION.listDisplay.templateColumns,
        subInfos: SEARCH_CONFIGURATION.listDisplay.subInfos.map((item) => ({
          ...item,
          cssClasses: [...item.cssClasses],
        })),
      },
    },
  }
}

/** The criteria search use cases over their port (storage implements it, the composition root wires it). */
export function createCriteriaSearchUseCases(deps: CriteriaSearchDependencies): CriteriaSearchServices {
  return {
    search: (actor, body, query) => searchByCriteria(deps, actor, body, query),
    configuration: async () => searchConfiguration(),
  }
}
