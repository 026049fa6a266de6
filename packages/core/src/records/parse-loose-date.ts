/**
 * The date and date-time forms real clients send to the record dates (clients-and-digital-safe.md B8.7).
 * The reference accepts anything PHP `strtotime` reads; Mailroom accepts the forms seen on the wire:
 *
 * - `DD-MM-YYYY` (day first, as French clients send it) and `DD-MM-YYYY HH:MM[:SS]`
 * - `YYYY-MM-DD`
 * - `YYYY-MM-DD HH:MM[:SS[.fraction]]` with `T` or a space between date and time
 * - any of the date-time forms followed by `Z`, `±HH:MM`, `±HHMM` or `±HH`
 *
 * A value without an offset is read as UTC (the service has no configured time zone, and UTC makes the
 * stored instant independent of the server's own zone). Fractions beyond milliseconds are truncated.
 * Relative words (`now`, `+1 day`) and month names are not accepted.
 */
export function parseLooseDate(text: string): Date | null {
  const trimmed = text.trim()
  const match = DAY_FIRST.exec(trimmed) ?? YEAR_FIRST.exec(trimmed)
  if (!match?.groups) return null
  const g = match.groups
  const year = Number(g.year)
  const month = Number(g.month)
  const day = Number(g.day)
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null
  const hour = g.hour === undefined ? 0 : Number(g.hour)
  const minute = g.minute === undefined ? 0 : Number(g.minute)
  const second = g.second === undefined ? 0 : Number(g.second)
  if (hour > 23 || minute > 59 || second > 59) return null
  const millisecond = g.fraction === undefined ? 0 : Number(g.fraction.slice(0, 3).padEnd(3, '0'))
  const offsetMinutes = parseOffset(g.offset)
  if (offsetMinutes === null) return null
  const utc = new Date(0)
  // setUTCFullYear keeps years 1..99 as they are (Date.UTC would map them to 1900..1999).
  utc.setUTCFullYear(year, month - 1, day)
  utc.setUTCHours(hour, minute, second, millisecond)
  return new Date(utc.getTime() - offsetMinutes * 60_000)
}

const TIME = String.raw`(?:[ T](?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?)?(?<offset>Z|[+-]\d{2}(?::?\d{2})?)?)?`
const DAY_FIRST = new RegExp(String.raw`^(?<day>\d{2})-(?<month>\d{2})-(?<year>\d{4})${TIME}$`)
const YEAR_FIRST = new RegExp(String.raw`^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})${TIME}$`)

/** Minutes east of UTC of an offset suffix; 0 when absent; null when out of range. */
function parseOffset(offset: string | undefined): number | null {
  if (offset === undefined || offset === 'Z') return 0
  const sign = offset.startsWith('-') ? -1 : 1
  const digits = offset.slice(1).replace(':', '')
  const hours = Number(digits.slice(0, 2))
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0
  if (hours > 14 || minutes > 59) return null
  return sign * (hours * 60 + minutes)
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** The calendar date of an instant in UTC, as `YYYY-MM-DD` (custom date fields are stored this way). */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10)
}

/** Midnight UTC of the day `days` after the day of `now` (0: today, 1: tomorrow). */
export function startOfUtcDay(now: Date, days = 0): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days))
}
