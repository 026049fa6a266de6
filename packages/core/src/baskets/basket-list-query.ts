import { databaseIdOf } from '../request-values/database-id.js'
import type { OrderItem } from '../search/ast.js'
import { parseOrderItem } from '../search/parser.js'

/** The most records one page of a basket's list returns (20.10 has no bound). */
export const MAX_BASKET_PAGE = 500
const DEFAULT_LIMIT = 10
/** The most values one filter takes: a longer list is a request no client sends. */
export const MAX_FILTER_VALUES = 1000

/**
 * A filter over a column that may be empty (priorities, categories, entities), as 20.10 reads it: absent, no
 * condition; empty text, only the records without a value; a list, those values, and the records without one
 * too when the list starts or ends with a comma (or holds `,,`).
 */
export interface NullableFilter {
  readonly values: readonly string[]
  readonly orNull: boolean
}

/**
 * An item of a list's order; `natural`: the chrono compared as 20.10's `order_alphanum(alt_identifier)` does, each
 * run of digits as a number (`MAARCH/2026A/9` before `MAARCH/2026A/10`).
 */
export interface ListOrderItem extends OrderItem {
  readonly natural?: true
}

/** What a list, its filters and its count select, read from the query as 20.10 reads it. */
export interface BasketListQuery {
  readonly limit: number
  readonly offset: number
  /** The caller's order (one column and a direction), else the basket's (`basket_res_order`). */
  readonly order: readonly ListOrderItem[]
  /** Whether the order is the caller's (a query the database refuses is then the caller's fault). */
  readonly callerOrder: boolean
  /** The words searched in the chrono and the subject, or null. */
  readonly search: { readonly text: string; readonly exact: boolean } | null
  readonly priorities: NullableFilter | null
  readonly categories: NullableFilter | null
  readonly entities: NullableFilter | null
  /** Destination codes, each with its sub-entities (20.10's `entitiesChildren`), read as the nullable filters. */
  readonly entitiesChildren: NullableFilter | null
  readonly statuses: readonly string[] | null
  /** Document type ids (only integers can name one). */
  readonly doctypes: readonly number[] | null
  /** Folder ids. */
  readonly folders: readonly number[] | null
  readonly delayed: boolean
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  // A parameter given twice arrives as an array: 20.10 (PHP) keeps the last one.
  if (Array.isArray(value)) return text(value[value.length - 1])
  return undefined
}

/** PHP's `is_numeric` then `(int)` for limit and offset: anything else is the default. */
function integerOr(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '' || !/^\s*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(value))
    return fallback
  const n = Math.trunc(Number(value))
  return Number.isFinite(n) ? n : fallback
}

/** The values of a comma-separated list; one with a NUL names nothing the database can hold, so it is left out. */
function values(list: string): string[] {
  return list
    .split(',')
    .filter((v) => v !== '' && !v.includes('\u0000'))
    .slice(0, MAX_FILTER_VALUES)
}

function nullableFilter(value: string | undefined): NullableFilter | null {
  if (value === undefined) return null
  if (value === '') return { values: [], orNull: true }
  return { values: values(value), orNull: value.startsWith(',') || value.endsWith(',') || value.includes(',,') }
}

function idList(value: string | undefined): number[] | null {
  if (value === undefined || value === '') return null
  return values(value).flatMap((v) => databaseIdOf(v) ?? [])
}

/** The basket's own order (`basket_res_order`, e.g. `res_id desc` or `creation_date desc, res_id`), else res_id desc. */
function basketOrder(resOrder: string): OrderItem[] {
  try {
    return resOrder
      .split(',')
      .filter((part) => part.trim() !== '')
      .map((part) => parseOrderItem(part))
  } catch {
    return [parseOrderItem('res_id desc')]
  }
}

/**
 * The caller's order as 20.10's getResourcesListQueryData takes it: any order naming `alt_identifier` (and neither
 * `dest_user` nor `priority`, which it reads after) becomes `order_alphanum(alt_identifier)` with the text's second
 * word as direction; where 20.10 writes that word into its SQL, Mailroom takes only what the order grammar does
 * (`asc`, `desc`, none), refusing anything else as any bad order.
 */
function callerOrder(order: string): ListOrderItem {
  if (order.includes('alt_identifier') && !order.includes('dest_user') && !order.includes('priority')) {
    const direction = order.split(' ')[1] ?? ''
    return { ...parseOrderItem(`alt_identifier ${direction}`), natural: true }
  }
  return parseOrderItem(order)
}

/**
 * Reads a list's query as `ResourceListController::get` and `getResourcesListQueryData` do. Where 20.10 writes
 * the caller's `order` into its SQL, Mailroom parses it as one item of the clause language (refused with
 * SEARCH_ORDER_BY_SYNTAX otherwise); ids that are not integers select nothing instead of failing the query.
 */
export function parseBasketListQuery(query: Readonly<Record<string, unknown>>, resOrder: string): BasketListQuery {
  const offset = integerOr(text(query.offset), 0)
  const limit = integerOr(text(query.limit), DEFAULT_LIMIT)
  const order = text(query.order)
  const search = text(query.search)
  const quoted = search === undefined ? null : /^"([^"]+)"$/.exec(search)
  return {
    // 0 is "empty" in PHP, hence the default; a negative offset finds no row at that index: an empty page.
    limit: limit === 0 ? DEFAULT_LIMIT : Math.min(limit, MAX_BASKET_PAGE),
    offset,
    order: order === undefined || order.trim() === '' ? basketOrder(resOrder) : [callerOrder(order)],
    callerOrder: order !== undefined && order.trim() !== '',
    search:
      search === undefined || [...search].length < 2
        ? null
        : quoted
          ? { text: quoted[1] as string, exact: true }
          : { text: search, exact: false },
    priorities: nullableFilter(text(query.priorities)),
    categories: nullableFilter(text(query.categories)),
    entities: nullableFilter(text(query.entities)),
    entitiesChildren: nullableFilter(text(query.entitiesChildren)),
    statuses: text(query.statuses) ? values(text(query.statuses) as string) : null,
    doctypes: idList(text(query.doctypes)),
    folders: idList(text(query.folders)),
    delayed: text(query.delayed) === 'true',
  }
}
