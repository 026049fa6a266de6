import { fail } from '../errors/domain-error.js'

/** Columns a contact list may be ordered by (20.10: anything else orders by id). */
export const CONTACT_ORDER_COLUMNS = ['firstname', 'lastname', 'company'] as const

/** The most contacts one page of `GET /rest/contacts` holds. */
export const CONTACT_PAGE_MAX = 1000
/** The page size when `limit` is absent (20.10's default). */
export const CONTACT_PAGE_DEFAULT = 25
/** The most words a contact search holds: a longer one is refused, never cut (a cut query lists contacts the caller's later words would have left out). */
export const CONTACT_SEARCH_MAX_WORDS = 20

/** A contact list request, checked. */
export interface ContactListQuery {
  /** Words every listed contact matches (each in one of its name or address fields), accent- and case-folded. */
  readonly words: readonly string[]
  readonly offset: number
  readonly limit: number
  readonly orderBy: (typeof CONTACT_ORDER_COLUMNS)[number] | null
  readonly order: 'asc' | 'desc'
}

/** Lower case without diacritics: how search words and the columns they match are compared. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

function single(value: unknown): string | undefined {
  return Array.isArray(value) ? single(value[value.length - 1]) : typeof value === 'string' ? value : undefined
}

function wholeNumber(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max)
    fail('CONTACT_QUERY_INVALID', { name, rule: `must be an integer from ${min} to ${max}` })
  return Number(raw)
}

/**
 * The query of `GET /rest/contacts` (search, offset, limit, orderBy, order). Where 20.10 sends a negative or
 * huge `limit` or `offset` to the database (a 500), or reads a non-number as the default, Mailroom answers 400
 * naming the parameter; `limit=0` keeps 20.10's meaning (the default page).
 */
export function parseContactListQuery(query: Readonly<Record<string, unknown>>): ContactListQuery {
  const limitText = single(query.limit)
  const limit = limitText === '0' ? CONTACT_PAGE_DEFAULT : wholeNumber('limit', limitText, 25, 1, CONTACT_PAGE_MAX)
  const offset = wholeNumber('offset', single(query.offset), 0, 0, 2147483647)
  const orderByText = single(query.orderBy)
  const orderBy = CONTACT_ORDER_COLUMNS.find((column) => column === orderByText) ?? null
  const order = single(query.order) === 'desc' ? 'desc' : 'asc'
  const search = single(query.search) ?? ''
  if (search.length > 1000) fail('CONTACT_QUERY_INVALID', { name: 'search', rule: 'is longer than 1000 characters' })
  const words = foldForSearch(search).split(/\s+/).filter(Boolean)
  if (words.length > CONTACT_SEARCH_MAX_WORDS)
    fail('CONTACT_QUERY_INVALID', { name: 'search', rule: `has more than ${CONTACT_SEARCH_MAX_WORDS} words` })
  return { words, offset, limit, orderBy, order }
}
