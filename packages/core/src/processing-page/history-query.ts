import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { isStorableText } from '../status/status-update-request.js'
import type { HistoryOrderColumn, HistoryPageQuery } from './ports.js'

/** 20.10's page size when none is asked. */
const DEFAULT_LIMIT = 25
/** Mailroom's largest page (20.10 takes any): a page is read whole into memory. */
export const HISTORY_LIMIT_MAX = 500
/** At most this many values in one filter list, and this many search words: each is a bound parameter. */
const LIST_MAX = 100

const ORDER_COLUMNS: Readonly<Record<string, HistoryOrderColumn>> = {
  event_date: 'event_date',
  userLabel: 'user_id',
  user_id: 'user_id',
  info: 'info',
  remote_ip: 'remote_ip',
}

/** PHP's `empty()` on a query value: absent, '' and '0' are empty. */
export function isEmptyParam(value: unknown): boolean {
  return value === undefined || value === '' || value === '0' || (Array.isArray(value) && value.length === 0)
}

/** One query value as text: the last of a repeated one (as PHP reads `?a=1&a=2`). */
function single(value: unknown): string | undefined {
  const last = Array.isArray(value) ? value.at(-1) : value
  return typeof last === 'string' ? last : undefined
}

/** A list filter: `users[]=a&users[]=b` (PHP's arrays; also `users=a`), each value storable text. */
function listOf(query: Readonly<Record<string, unknown>>, name: string): string[] {
  const raw = query[`${name}[]`] ?? query[name]
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v) => v !== '')
  if (values.length > LIST_MAX || values.some((v) => typeof v !== 'string' || !isStorableText(v)))
    fail('HISTORY_QUERY_INVALID', { field: name })
  return values as string[]
}

/** `limit`/`offset`: PHP takes a numeric value and ignores anything else; a negative or huge one is refused here. */
function pageNumber(value: unknown, name: string, fallback: number, max: number): number {
  const text = single(value)
  if (text === undefined || text === '' || !/^[-+]?[0-9]+$/.test(text.trim())) return fallback
  const number = Number(text.trim())
  if (number === 0) return fallback
  if (number < 0 || number > max) fail('HISTORY_QUERY_INVALID', { field: name })
  return number
}

function dateOf(value: unknown, name: string): Date | null {
  const text = single(value)
  if (text === undefined || text === '') return null
  const date = new Date(text)
  if (!isStorableText(text) || Number.isNaN(date.getTime())) fail('HISTORY_QUERY_INVALID', { field: name })
  return date
}

/** A LIKE pattern matching `word` anywhere, its wildcards taken literally. */
function containing(word: string, trailingSpace: boolean): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}${trailingSpace ? ' ' : ''}%`
}

/**
 * `search` as 20.10's AutoCompleteController reads it: each space-separated word of 2 bytes or more must be in
 * the line's text or address; a word that another word starts with is looked for followed by a space.
 */
function searchPatterns(value: unknown): string[] {
  const text = single(value)
  if (text === undefined || text === '') return []
  if (!isStorableText(text)) fail('HISTORY_QUERY_INVALID', { field: 'search' })
  const words = text.split(' ')
  const patterns = words.flatMap((word, index) => {
    if (new TextEncoder().encode(word).length < 2) return []
    const included = words.some((other, i) => i !== index && other.startsWith(word))
    return [containing(word, included)]
  })
  if (patterns.length > LIST_MAX) fail('HISTORY_QUERY_INVALID', { field: 'search' })
  return patterns
}

/**
 * The query of `GET /rest/history` (the record, already checked, is given apart), read as `HistoryController::get`
 * reads it: filters by users, dates, actions and system events, a search, an order and a page.
 */
export function parseHistoryQuery(query: Readonly<Record<string, unknown>>, resId: number | null): HistoryPageQuery {
  const users = listOf(query, 'users')
  const eventTypes = [
    ...listOf(query, 'actions').map((action) => `ACTION#${action}`),
    ...listOf(query, 'systemActions'),
  ]
  const orderBy = ORDER_COLUMNS[single(query.orderBy) ?? '']
  const direction = single(query.order)
  return {
    resId,
    onlyActions: !isEmptyParam(single(query.onlyActions)),
    users:
      users.length === 0
        ? null
        : {
            // A numeric value is a serial id (one past the column matches no one), anything else a login.
            ids: users.filter((u) => /^[0-9]+$/.test(u)).flatMap((u) => databaseIdOf(u) ?? []),
            logins: users.filter((u) => !/^[0-9]+$/.test(u)),
          },
    after: dateOf(query.startDate, 'startDate'),
    before: dateOf(query.endDate, 'endDate'),
    eventTypes: eventTypes.length === 0 ? null : eventTypes,
    searchPatterns: searchPatterns(query.search),
    // 20.10: newest first, unless a known column is asked (then ascending unless desc is asked).
    order:
      orderBy === undefined
        ? { column: 'event_date', direction: 'desc' }
        : { column: orderBy, direction: direction === 'desc' ? 'desc' : 'asc' },
    limit: pageNumber(query.limit, 'limit', DEFAULT_LIMIT, HISTORY_LIMIT_MAX),
    offset: pageNumber(query.offset, 'offset', 0, 2_147_483_647),
  }
}
