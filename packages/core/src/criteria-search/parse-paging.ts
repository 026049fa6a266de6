import { fail } from '../errors/domain-error.js'
import { SEARCH_ORDERS, type SearchOrder, type SearchPaging } from './criteria.js'

/** Records per page when `limit` is absent (20.10). */
export const DEFAULT_SEARCH_LIMIT = 25
/** Most records one page may hold: `allResources` already lists every match's id. */
export const MAX_SEARCH_LIMIT = 1_000

type QueryValue = string | string[] | undefined

/** A query parameter as one string (the last one when repeated, as PHP reads it); undefined when absent or empty. */
function single(value: QueryValue): string | undefined {
  const last = Array.isArray(value) ? value[value.length - 1] : value
  return last === undefined || last === '' ? undefined : last
}

function integerParameter(name: 'limit' | 'offset', value: QueryValue, min: number, max: number, fallback: number) {
  const given = single(value)
  if (given === undefined) return fallback
  const number = /^\d{1,10}$/.test(given) ? Number(given) : Number.NaN
  if (!(number >= min && number <= max))
    fail('CRITERIA_SEARCH_QUERY_INVALID', { name, expected: `an integer from ${min} to ${max}` })
  return number
}

/**
 * Checks the query parameters of `POST /rest/search`: `limit` (default 25), `offset` (default 0), `order`
 * (one of 20.10's names), `orderDir` (`ASC`/`DESC`), `filters` (when present, the facets are not computed).
 * Where 20.10 falls back to its defaults on a value it does not understand, Mailroom answers 400 naming it.
 */
export function parseSearchPaging(query: Readonly<Record<string, QueryValue>>): SearchPaging {
  const limit = integerParameter('limit', query.limit, 1, MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT)
  const offset = integerParameter('offset', query.offset, 0, 2_147_483_647, 0)
  const order = single(query.order)
  if (order !== undefined && !(SEARCH_ORDERS as readonly string[]).includes(order))
    fail('CRITERIA_SEARCH_QUERY_INVALID', { name: 'order', expected: `one of ${SEARCH_ORDERS.join(', ')}` })
  const direction = single(query.orderDir)
  if (direction !== undefined && direction !== 'ASC' && direction !== 'DESC')
    fail('CRITERIA_SEARCH_QUERY_INVALID', { name: 'orderDir', expected: 'ASC or DESC' })
  return {
    limit,
    offset,
    order: (order as SearchOrder | undefined) ?? null,
    direction: direction ?? null,
    skipFacets: single(query.filters) !== undefined,
  }
}
