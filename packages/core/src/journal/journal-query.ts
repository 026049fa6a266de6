import { fail } from '../errors/domain-error.js'
import { ARCHIVE_OBJECT_CLASS, JOURNAL_EVENT_ID_PATTERN, type JournalEvent } from './journal-event.js'

/** Largest `limit` accepted. Without `limit` the whole selection is returned (streamed), as upstream does. */
export const JOURNAL_MAX_LIMIT = 10_000

/** Filters and paging of `GET /digitalSafe/digitalSafe/{owner}/events`, validated. Bounds are inclusive. */
export interface JournalQuery {
  readonly archiveId?: string
  /** Matches the event's orgUnitRegNumber, as upstream does. */
  readonly originatorOrgRegNumber?: string
  readonly fromDate?: Date
  /** Inclusive; a date-only toDate has been moved to 23:59:59.999 UTC of that day. */
  readonly toDate?: Date
  readonly fromOriginatorArchiveId?: string
  readonly toOriginatorArchiveId?: string
  /** At most this many events; absent means all. */
  readonly limit?: number
  /** eventId of the last event of the previous page; the page starts strictly after it in journal order. */
  readonly after?: string
}

/** Raw query as an HTTP framework hands it over (repeated parameters as arrays). */
export type RawJournalQuery = Readonly<Record<string, string | readonly string[] | undefined>>

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms))
  date.setUTCFullYear(year)
  return date.getTime()
}

/**
 * Parses a journal date parameter: an ISO 8601 calendar date (`2024-03-01`) or date-time
 * (`2024-03-01T10:00`, `…T10:00:00`, `…T10:00:00.123`, with `Z`, `±HH`, `±HHMM` or `±HH:MM`, or without
 * offset meaning UTC; a space may replace the `T`; fractions beyond milliseconds are truncated).
 * A date alone is the start of that day in UTC, or its last millisecond when `endOfDay`.
 * Anything else fails with 400 `Invalid format date`.
 */
export function parseJournalDate(text: string, endOfDay = false): Date {
  const dateOnly = DATE.exec(text)
  if (dateOnly) {
    const [year, month, day] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])]
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) fail('JOURNAL_INVALID_DATE')
    return new Date(endOfDay ? utc(year, month, day, 23, 59, 59, 999) : utc(year, month, day))
  }
  const match = DATE_TIME.exec(text)
  if (!match) fail('JOURNAL_INVALID_DATE')
  const [year, month, day, hour, minute] = [1, 2, 3, 4, 5].map((i) => Number(match[i])) as [
    number,
    number,
    number,
    number,
    number,
  ]
  const second = match[6] === undefined ? 0 : Number(match[6])
  const ms = match[7] === undefined ? 0 : Number(match[7].padEnd(3, '0').slice(0, 3))
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) fail('JOURNAL_INVALID_DATE')
  if (hour > 23 || minute > 59 || second > 59) fail('JOURNAL_INVALID_DATE')
  let offsetMinutes = 0
  if (match[9] !== undefined) {
    const offsetHours = Number(match[10])
    const offsetMins = match[11] === undefined ? 0 : Number(match[11])
    if (offsetHours > 23 || offsetMins > 59) fail('JOURNAL_INVALID_DATE')
    offsetMinutes = (match[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMins)
  }
  return new Date(utc(year, month, day, hour, minute, second, ms) - offsetMinutes * 60_000)
}

function single(raw: RawJournalQuery, name: string): string | undefined {
  const value = raw[name]
  if (value === undefined) return undefined
  if (typeof value !== 'string') {
    if (value.length > 1) fail('JOURNAL_REPEATED_PARAMETER', { name })
    return value[0] === '' ? undefined : value[0]
  }
  // Upstream treats an empty parameter as absent.
  return value === '' ? undefined : value
}

/**
 * Validates the query of `/events`. Empty parameters count as absent; unknown parameters are ignored;
 * a repeated one is refused. `archiveId` excludes fromDate, toDate, fromOriginatorArchiveId and
 * toOriginatorArchiveId (400); dates as {@link parseJournalDate}, fromDate ≤ toDate; `limit` an integer
 * 1..{@link JOURNAL_MAX_LIMIT}; `after` an eventId.
 */
export function parseJournalQuery(raw: RawJournalQuery): JournalQuery {
  const archiveId = single(raw, 'archiveId')
  const originatorOrgRegNumber = single(raw, 'originatorOrgRegNumber')
  const fromDateText = single(raw, 'fromDate')
  const toDateText = single(raw, 'toDate')
  const fromOriginatorArchiveId = single(raw, 'fromOriginatorArchiveId')
  const toOriginatorArchiveId = single(raw, 'toOriginatorArchiveId')
  const limitText = single(raw, 'limit')
  const after = single(raw, 'after')

  if (
    archiveId !== undefined &&
    [fromDateText, toDateText, fromOriginatorArchiveId, toOriginatorArchiveId].some((v) => v !== undefined)
  ) {
    fail('JOURNAL_ARCHIVE_ID_COMBINED')
  }
  const fromDate = fromDateText === undefined ? undefined : parseJournalDate(fromDateText)
  const toDate = toDateText === undefined ? undefined : parseJournalDate(toDateText, true)
  if (fromDate !== undefined && toDate !== undefined && fromDate.getTime() > toDate.getTime())
    fail('JOURNAL_DATE_RANGE_INVERTED')

  let limit: number | undefined
  if (limitText !== undefined) {
    limit = /^\d{1,6}$/.test(limitText) ? Number(limitText) : Number.NaN
    if (!(limit >= 1 && limit <= JOURNAL_MAX_LIMIT)) fail('JOURNAL_INVALID_LIMIT', { max: JOURNAL_MAX_LIMIT })
  }
  if (after !== undefined && (after.length > 255 || !JOURNAL_EVENT_ID_PATTERN.test(after)))
    fail('JOURNAL_INVALID_CURSOR')

  return {
    ...(archiveId === undefined ? {} : { archiveId }),
    ...(originatorOrgRegNumber === undefined ? {} : { originatorOrgRegNumber }),
    ...(fromDate === undefined ? {} : { fromDate }),
    ...(toDate === undefined ? {} : { toDate }),
    ...(fromOriginatorArchiveId === undefined ? {} : { fromOriginatorArchiveId }),
    ...(toOriginatorArchiveId === undefined ? {} : { toOriginatorArchiveId }),
    ...(limit === undefined ? {} : { limit }),
    ...(after === undefined ? {} : { after }),
  }
}

/** For the documentation: how fromOriginatorArchiveId / toOriginatorArchiveId compare. */
export const ORIGINATOR_ARCHIVE_ID_RANGE_RULE =
  'fromOriginatorArchiveId and toOriginatorArchiveId are inclusive bounds on the originatorArchiveId of an event. ' +
  'When the value and every bound given are integers (ASCII digits only), they compare as numbers (leading zeros ignored, ' +
  'any length); otherwise they compare as strings in Unicode code point order, which is the byte order of their UTF-8 ' +
  'encoding (PostgreSQL COLLATE "C"). Events without an originatorArchiveId never match a bound.'

const DIGITS = /^[0-9]+$/

function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=.)/, '')
  const y = b.replace(/^0+(?=.)/, '')
  if (x.length !== y.length) return x.length < y.length ? -1 : 1
  return x < y ? -1 : x > y ? 1 : 0
}

/** Compares strings by Unicode code point (not UTF-16 code unit), matching UTF-8 byte order. */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i += 1) {
    const x = a.codePointAt(i)!
    const y = b.codePointAt(i)!
    if (x !== y) return x < y ? -1 : 1
    // A code point above U+FFFF spans two code units; both strings share it, skip its second half.
    if (x > 0xffff) i += 1
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1
}

/** True when `value` lies within the inclusive range, as {@link ORIGINATOR_ARCHIVE_ID_RANGE_RULE} says. */
export function compareOriginatorArchiveId(value: string, from: string | undefined, to: string | undefined): boolean {
  const numeric =
    DIGITS.test(value) && (from === undefined || DIGITS.test(from)) && (to === undefined || DIGITS.test(to))
  const compare = numeric ? compareDigits : compareCodePoints
  if (from !== undefined && compare(value, from) < 0) return false
  if (to !== undefined && compare(value, to) > 0) return false
  return true
}

/** Journal order of `/events`: timestamp ascending, then eventId in code point order (SQL: COLLATE "C"). */
export function compareJournalOrder(
  a: Pick<JournalEvent, 'timestamp' | 'eventId'>,
  b: Pick<JournalEvent, 'timestamp' | 'eventId'>,
): number {
  const byTime = a.timestamp.getTime() - b.timestamp.getTime()
  return byTime !== 0 ? Math.sign(byTime) : compareCodePoints(a.eventId, b.eventId)
}

/**
 * True when `event` is returned by `/events` of `safe` for `query`, paging aside: an archive event of the safe
 * (event.orgRegNumber = safe) matching every filter. Storage adapters translate the same rules into SQL.
 */
export function matchesJournalQuery(event: JournalEvent, safe: string, query: JournalQuery): boolean {
  if (event.objectClass !== ARCHIVE_OBJECT_CLASS || event.orgRegNumber !== safe) return false
  if (query.archiveId !== undefined && event.objectId !== query.archiveId) return false
  if (query.originatorOrgRegNumber !== undefined && event.orgUnitRegNumber !== query.originatorOrgRegNumber)
    return false
  const time = event.timestamp.getTime()
  if (query.fromDate !== undefined && time < query.fromDate.getTime()) return false
  if (query.toDate !== undefined && time > query.toDate.getTime()) return false
  if (query.fromOriginatorArchiveId !== undefined || query.toOriginatorArchiveId !== undefined) {
    const id = 'originatorArchiveId' in event.info ? event.info.originatorArchiveId : undefined
    if (id === undefined || !compareOriginatorArchiveId(id, query.fromOriginatorArchiveId, query.toOriginatorArchiveId))
      return false
  }
  return true
}

/**
 * Applies journal order, the `after` cursor and `limit` to matching events, in memory (reference semantics
 * and tests; adapters do this in SQL). `cursorEvent` is the event named by `query.after`, looked up by the
 * caller in the same safe; when `query.after` is set and it is missing, the cursor is invalid (400).
 */
export function selectJournalPage(
  events: Iterable<JournalEvent>,
  safe: string,
  query: JournalQuery,
  cursorEvent?: Pick<JournalEvent, 'timestamp' | 'eventId'> | null,
): JournalEvent[] {
  const cursor = query.after === undefined ? null : (cursorEvent ?? null)
  if (query.after !== undefined && (cursor === null || cursor.eventId !== query.after)) fail('JOURNAL_INVALID_CURSOR')
  const selected = [...events]
    .filter((event) => matchesJournalQuery(event, safe, query))
    .filter((event) => cursor === null || compareJournalOrder(event, cursor) > 0)
    .sort(compareJournalOrder)
  return query.limit === undefined ? selected : selected.slice(0, query.limit)
}
