import type {
  Actor,
  CriteriaSearchFilters,
  CriteriaSearchResource,
  CriteriaSearchResponse,
  CriteriaSearchServices,
  CriteriaTerm,
  CustomFieldType,
  FullTextIndex,
  FullTextLanguage,
  SearchCriteria,
  SearchPaging,
} from '@mailroom/core'
import {
  namesCustomFields,
  parseSearchCriteria,
  parseSearchPaging,
  SEARCH_CONFIGURATION,
} from '@mailroom/core/internal'
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely'
import { databaseFullText, type FullTextSql, fullTextConfigOf } from '../search/compile-clause.js'
import { candidateFullText } from '../search/full-text-candidates.js'
import { runSearch } from '../search/run-search.js'
import type { StorageContext } from '../storage-context.js'
import {
  attachmentMatch,
  compileTerm,
  FACET_COLUMNS,
  likeEscaped,
  type NotesSource,
  orderColumns,
  selectionCondition,
  type TermSources,
} from './compile-criteria.js'
import { keepsGenericPlan, withGenericPlans } from './generic-plan.js'
import { type OptionalTables, optionalTables, visibleNotes } from './optional-tables.js'
import { type FacetRow, facetRows, facetsFrom, MATCHES } from './search-facets.js'
import { formattedResource, type ResourceRow, resourceDetails } from './search-resources.js'

function notesSource(actor: Actor): NotesSource {
  return {
    recordsWithNote: (text) =>
      sql`select n.identifier from notes n where n.note_text ilike ${sql.val(`%${likeEscaped(text)}%`)} and ${visibleNotes(actor)}`,
  }
}

/**
 * Whether 20.10 checks a term before its search, answering an empty result without facets when the term finds no
 * record (its pre-queries: correspondents, tags and folders, notes, roles, senders' departments, a contact's
 * company in a custom field); `none`: the term can find no record here (no notes table yet, registered mail).
 */
function preChecked(term: CriteriaTerm, notes: NotesSource | null): boolean | 'none' {
  switch (term.kind) {
    case 'correspondents':
    case 'correspondentCompany':
    case 'senderDepartment':
      return true
    case 'linkedIds':
    case 'role':
      return !term.orNone
    case 'notes':
      return notes === null ? 'none' : true
    case 'registeredMail':
      return 'none'
    case 'customField':
      return term.match.kind === 'company'
    default:
      return false
  }
}

/**
 * True when one of the pre-checked terms finds no record the caller may see. 20.10 runs its pre-queries over the
 * whole database, so the answer's shape (`filters` or not) told whether a record outside the perimeter held a
 * note, a sender, an assignee…: here each term is checked among the records of the perimeter only, the same
 * condition the search ANDs, so the answer is the one 20.10 would give on a database of those records alone.
 */
async function somePreCheckEmpty(
  db: Kysely<any>,
  terms: readonly CriteriaTerm[],
  sources: TermSources,
  perimeter: Expression<SqlBool> | null,
): Promise<boolean> {
  const checks: RawBuilder<SqlBool>[] = []
  for (const term of terms) {
    const checked = preChecked(term, sources.notes)
    if (checked === 'none') return true
    if (!checked) continue
    const visible = perimeter === null ? sql`` : sql` and ${perimeter}`
    checks.push(sql<SqlBool>`exists (select 1 from res_view_letterbox where ${compileTerm(term, sources)}${visible})`)
  }
  if (checks.length === 0) return false
  const { rows } = await sql<{ found: boolean }>`select (${sql.join(checks, sql` and `)}) as found`.execute(db)
  return rows[0]?.found !== true
}

/** A json column as the driver gave it: parsed already (pg, PGlite), or as text. */
function jsonValue<T>(value: T | string): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value
}

/** How the searches read the full-text index (createMailroom's `fulltext` options). */
export interface FullTextSearchSettings {
  /** The language the full-text index is built in (MAILROOM_FULLTEXT_LANGUAGE); its words are read the same way. */
  readonly fullTextLanguage?: FullTextLanguage
  /** An external index (a search engine); absent, the database's own index answers inside the search's SQL. */
  readonly fullTextIndex?: FullTextIndex | null
  /** The most candidates an external index gives per words (createMailroom's `fulltext.candidates`, 10,000 by default). */
  readonly fullTextCandidates?: number
}

/** The default of FullTextSearchSettings.fullTextCandidates. */
export const DEFAULT_FULLTEXT_CANDIDATES = 10_000

const SEARCHABLE_STATUS = sql<SqlBool>`${sql.ref('status')} = any(array(select id from status where can_be_searched = 'Y'))`

/** The facets' columns, carried by the matches for the selection and the facets' counts. */
const FACET_MATCH_COLUMNS = sql.join(Object.values(FACET_COLUMNS).map((column) => sql.ref(column)))

const EMPTY_ANSWER: CriteriaSearchResponse = { resources: [], count: 0, allResources: [] }

/**
 * Wires `POST /rest/search` over kysely: the terms ANDed with the caller's perimeter (the one of
 * `POST /rest/res/list`) and the searchable statuses; every match's id in order (`allResources`), the facets
 * of the matches, then the page's records with what 20.10's result list shows. Statements the database
 * refuses answer 400 (runSearch), never 500.
 */
export function createCriteriaSearchServices(
  context: StorageContext,
  settings: FullTextSearchSettings = {},
): CriteriaSearchServices {
  const language = settings.fullTextLanguage ?? 'fr'
  const databaseSql = databaseFullText(fullTextConfigOf(language))
  const index = settings.fullTextIndex ?? null
  const candidates = settings.fullTextCandidates ?? DEFAULT_FULLTEXT_CANDIDATES

  /** The full-text matching of these terms: the database's own index, or the external index's candidates. */
  async function fullTextOf(criteria: SearchCriteria): Promise<FullTextSql> {
    if (index === null) return databaseSql
    const words = [...new Set(criteria.terms.flatMap((term) => (term.kind === 'fulltext' ? [term.text] : [])))]
    const answers = await Promise.all(words.map((w) => index.search({ words: w, language, limit: candidates })))
    return candidateFullText(new Map(words.map((w, i) => [w, answers[i] ?? []])))
  }
  let tables: Promise<OptionalTables> | undefined

  /** The custom fields' types by id, read when a body names one (the values a criterion takes depend on it). */
  async function customFieldTypes(): Promise<Map<number, CustomFieldType>> {
    const rows = await context.db.selectFrom('custom_fields').select(['id', 'type']).execute()
    return new Map(rows.map((row) => [row.id, row.type as CustomFieldType]))
  }

  async function search(
    actor: Actor,
    body: unknown,
    query: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<CriteriaSearchResponse> {
    const criteria = parseSearchCriteria(body, namesCustomFields(body) ? await customFieldTypes() : undefined)
    const paging = parseSearchPaging(query)
    tables ??= optionalTables(context.db).catch((error) => {
      tables = undefined
      throw error
    })
    const present = await tables
    const notes = present.notes ? notesSource(actor) : null
    const fullText = await fullTextOf(criteria)
    return runSearch(context, async (db) => {
      // Narrowed by the database's words index, the perimeter is written for index scans beside the words.
      const narrowed = fullText === databaseSql && criteria.terms.some((term) => term.kind === 'fulltext')
      const perimeter = await context.perimeter.condition(context.db, actor, narrowed ? 'index' : 'filter')
      const sources: TermSources = { notes, attachments: present.attachments, fullText }
      if (await somePreCheckEmpty(db, criteria.terms, sources, perimeter)) return EMPTY_ANSWER
      const conditions: RawBuilder<SqlBool>[] = criteria.terms.map((term) => compileTerm(term, sources))
      // An array read once, not `in (select …)`: as a semi-join, PostgreSQL ran the records' scan once per searchable
      // status, ANDing each with a bitmap of that status's records (a word in 1.2 % of a million letters: 135 ms
      // against 24 ms; a word in 10 %: 11 s against 0.9 s; docs/benchmarks.md).
      conditions.push(SEARCHABLE_STATUS)
      if (perimeter !== null) conditions.push(sql<SqlBool>`${perimeter}`)
      const matching = sql<SqlBool>`${sql.join(conditions, sql` and `)}`
      return answer(db, actor, matching, criteria, paging, present, attachmentMatch(criteria.terms, sources))
    })
  }

  async function answer(
    db: Kysely<any>,
    actor: Actor,
    matching: RawBuilder<SqlBool>,
    criteria: SearchCriteria,
    paging: SearchPaging,
    present: OptionalTables,
    inAttachments: RawBuilder<SqlBool> | null,
  ): Promise<CriteriaSearchResponse> {
    // One statement, one row: the matches read once (with the facets' columns and the sort's keys), then every
    // match's id in order as one JSON array (a million matches stay one value, not a million rows), the page's
    // records with their details, read for those records only, and the facets' rows. (The listing and the
    // facets were two statements run at once, each reading the matches: a word in 1.2 % of a million letters
    // read its ~12,000 records' pages twice.)
    const first = paging.offset
    const last = paging.offset + paging.limit
    const order = orderColumns(paging)
    const facets = paging.skipFacets
      ? sql`null`
      : sql`(select coalesce(json_agg(f), '[]') from (${facetRows(actor, criteria)}) f)`
    const statement = sql<{
      ids: number[] | string
      page: ResourceRow[] | string
      facets: FacetRow[] | string | null
    }>`with ${sql.table(MATCHES)} as materialized (
        select res_id, ${FACET_MATCH_COLUMNS}, ${order.select} from res_view_letterbox
        where ${matching}),
      m as (select res_id, row_number() over (order by ${order.orderBy}) as n from ${sql.table(MATCHES)}
        where ${selectionCondition(criteria.selection)})
      select (select coalesce(json_agg(m.res_id order by m.n), '[]') from m) as ids,
        (select coalesce(json_agg(row_to_json(page) order by page.n), '[]') from (
          select m.n, m.res_id, d.* from m cross join lateral (${resourceDetails(actor, present, sql`m.res_id`, inAttachments)}) d
          where m.n > ${sql.val(first)} and m.n <= ${sql.val(last)}) page) as page,
        ${facets} as facets`
    const { rows } = keepsGenericPlan(criteria, context.kind)
      ? await withGenericPlans(db, (on) => statement.execute(on))
      : await statement.execute(db)
    const facetList = rows[0]?.facets ?? null
    const filters = facetList === null ? null : facetsFrom(jsonValue(facetList), criteria)
    const withFilters = filters === null ? {} : { filters: filters satisfies CriteriaSearchFilters }
    const allResources = jsonValue(rows[0]?.ids ?? []).map(Number)
    if (paging.offset >= allResources.length) return { ...EMPTY_ANSWER, ...withFilters }
    const resources: CriteriaSearchResource[] = jsonValue(rows[0]?.page ?? []).map(formattedResource)
    return {
      resources,
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

  return {
    search,
    async configuration() {
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
    },
  }
}
