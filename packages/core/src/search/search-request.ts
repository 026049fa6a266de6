import { z } from 'zod'
import { fail } from '../errors/domain-error.js'
import type { ClauseAst, OrderItem } from './ast.js'
import { MAX_ORDER_BY_ITEMS } from './limits.js'
import { parseClause, parseOrderItem, parseSelectNames } from './parser.js'
import { syntaxError } from './syntax-error.js'
import { VIEW_COLUMN_NAMES, type ViewColumnName } from './view-columns.js'

/** A checked search request of `POST /rest/res/list`, ready for the storage compiler. */
export interface SearchQuery {
  /** View columns to return, deduplicated, in the caller's order (never empty). */
  readonly columns: readonly ViewColumnName[]
  /** The caller's clause (never holds macros). */
  readonly clause: ClauseAst
  readonly orderBy: readonly OrderItem[]
  /**
   * Most rows to return, as the caller gave it; null when absent (or 0, as the reference reads it): every
   * match. Never lowered: an operator's ceiling refuses instead (checkSearchCeiling).
   */
  readonly limit: number | null
  readonly offset: number
  readonly withFile: boolean
  /** The caller named the pseudo-column `sve_start_date` (dropped from `columns`, reference §3 step 6). */
  readonly sveStartDate: boolean
  /**
   * The caller named the pseudo-column `fulltext_excerpt`: each result carries a short excerpt of its best
   * matching file, the words of the clause's `fulltext(...)` conditions between `**` (null without them).
   */
  readonly fulltextExcerpt: boolean
}

/** The pseudo-column the reference fills from acknowledgement receipts instead of the view. */
export const SVE_START_DATE = 'sve_start_date'
/** The pseudo-column of the full-text excerpt (see SearchQuery.fulltextExcerpt). */
export const FULLTEXT_EXCERPT = 'fulltext_excerpt'

/** PHP's `empty()`: what the reference treats as "not given" for the optional fields. */
export function isPhpEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0')
    return true
  if (Array.isArray(value)) return value.length === 0
  if (typeof value === 'object') return Object.keys(value).length === 0
  return false
}

/** A required text field: a string that is not empty, not blank and not "0". */
function isFilledString(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '' && value !== '0'
}

/** The columns of a select list: `*` is every column, `sve_start_date` is noted and dropped. */
export function parseSelect(select: string): {
  columns: ViewColumnName[]
  sveStartDate: boolean
  fulltextExcerpt: boolean
} {
  const names = parseSelectNames(select)
  const columns = new Set<ViewColumnName>()
  for (const name of names) {
    if (name === '*') for (const column of VIEW_COLUMN_NAMES) columns.add(column)
    else if (name !== SVE_START_DATE && name !== FULLTEXT_EXCERPT) columns.add(name as ViewColumnName)
  }
  const sveStartDate = names.includes(SVE_START_DATE)
  const fulltextExcerpt = names.includes(FULLTEXT_EXCERPT)
  return { columns: columns.size === 0 ? ['res_id'] : [...columns], sveStartDate, fulltextExcerpt }
}

/**
 * Checks a `POST /rest/res/list` body in the reference's order and with its messages (§3 steps 1-5, then
 * offset), then parses select, clause and orderBy. Throws a bad-request DomainError on the first problem.
 */
export function parseSearchRequest(body: unknown): SearchQuery {
  const fields: Record<string, unknown> =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  const { select, clause, withFile, orderBy, limit, offset } = fields
  if (!isFilledString(select)) fail('SEARCH_SELECT_INVALID')
  if (!isFilledString(clause)) fail('SEARCH_CLAUSE_INVALID')
  if (!isPhpEmpty(withFile) && withFile !== true) fail('SEARCH_WITH_FILE_INVALID')
  if (!isPhpEmpty(orderBy) && !Array.isArray(orderBy)) fail('SEARCH_ORDER_BY_INVALID')
  if (!isPhpEmpty(limit) && !(typeof limit === 'number' && Number.isInteger(limit) && limit > 0))
    fail('SEARCH_LIMIT_INVALID')
  if (!isPhpEmpty(offset) && !(typeof offset === 'number' && Number.isSafeInteger(offset) && offset >= 0))
    fail('SEARCH_OFFSET_INVALID')

  const { columns, sveStartDate, fulltextExcerpt } = parseSelect(select)
  const clauseAst = parseClause(clause)
  const orderItems = Array.isArray(orderBy) ? orderBy : []
  if (orderItems.length > MAX_ORDER_BY_ITEMS) syntaxError('orderBy', '', 'too-many-order-items')
  const order = orderItems.map((item: unknown) =>
    typeof item === 'string' ? parseOrderItem(item) : syntaxError('orderBy', '', 'not-a-string'),
  )
  return {
    columns,
    clause: clauseAst,
    orderBy: order,
    // A limit beyond 2^53 exceeds any table's rows: it is the same as none.
    limit: typeof limit === 'number' && Number.isSafeInteger(limit) && limit > 0 ? limit : null,
    offset: typeof offset === 'number' && offset > 0 ? offset : 0,
    withFile: withFile === true,
    sveStartDate,
    fulltextExcerpt,
  }
}

/**
 * Shape of the search body for the OpenAPI document only: validation goes through
 * {@link parseSearchRequest}, which keeps the reference's messages and PHP "empty" rules.
 */
export const searchRequestBodySchema = z.object({
  select: z
    .string()
    .describe(
      'Comma-separated columns of res_view_letterbox, or *; fulltext_excerpt adds a short excerpt of the best matching file (words of the fulltext() conditions between **)',
    ),
  clause: z
    .string()
    .describe(
      "Where part over the columns of res_view_letterbox (safe PostgreSQL expression subset); fulltext('words') matches the text of the record's files, fulltext_rank('words') measures how well",
    ),
  withFile: z.boolean().optional().describe('When true each result carries fileBase64Content'),
  orderBy: z.array(z.string()).optional().describe('Ordering expressions: expr [ASC|DESC] [NULLS FIRST|LAST]'),
  limit: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'Maximum number of results. Absent or 0: every matching record of the perimeter (large answers are streamed). ' +
        'Never lowered: when the operator set MAILROOM_SEARCH_MAX_RESULTS, a larger limit, or a search without limit matching more records, is refused with 400.',
    ),
  offset: z.number().int().nonnegative().optional().describe('Number of results to skip'),
})

/**
 * An operator's ceiling on the records one search may return (MAILROOM_SEARCH_MAX_RESULTS), or null for none.
 * A limit above it is refused, never lowered: a script must not miss records without being told.
 */
export function checkSearchLimit(query: SearchQuery, ceiling: number | null): void {
  if (ceiling !== null && query.limit !== null && query.limit > ceiling) fail('SEARCH_LIMIT_OVER_CEILING', { ceiling })
}

/** Refuses a search without limit that matched more records than the operator's ceiling. */
export function refuseTooManyResults(ceiling: number): never {
  return fail('SEARCH_RESULTS_OVER_CEILING', { ceiling })
}
