/** What the filter builder holds; empty strings are filters left out. */
export interface SearchFilters {
  /** Words the text of a record's files must hold (full-text search: accents, case and endings ignored). */
  readonly words: string
  readonly status: string
  readonly doctype: string
  readonly destination: string
  /** A priority id (GET /rest/priorities). */
  readonly priority: string
  /** yyyy-mm-dd, inclusive. */
  readonly createdFrom: string
  /** yyyy-mm-dd, inclusive (the whole day). */
  readonly createdTo: string
  readonly chrono: string
  /** Words that must all appear in the subject, in any case. */
  readonly subjectWords: string
  /** A custom field's number and the value it must have. */
  readonly customField: string
  readonly customValue: string
}

export const NO_FILTERS: SearchFilters = {
  words: '',
  status: '',
  doctype: '',
  destination: '',
  priority: '',
  createdFrom: '',
  createdTo: '',
  chrono: '',
  subjectWords: '',
  customField: '',
  customValue: '',
}

/** A string literal of the clause language: quotes doubled, so a value can never end the literal. */
export function literal(value: string): string {
  return `'${value.replaceAll("'", "''")}'`
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const INTEGER = /^\d{1,9}$/

/** The day after a yyyy-mm-dd date, in the same form. */
function nextDay(date: string): string {
  const day = new Date(`${date}T00:00:00Z`)
  day.setUTCDate(day.getUTCDate() + 1)
  return day.toISOString().slice(0, 10)
}

/**
 * The clause the filters describe, over the columns of res_view_letterbox: every filter given must hold
 * (AND). Values become literals (never raw text); a number field that holds no number, or a date that is
 * not a date, is left out, so the clause is always well formed. No filter: `1=1`.
 */
export function buildClause(filters: SearchFilters): string {
  const parts: string[] = []
  const words = filters.words.trim()
  if (words) parts.push(`fulltext(${literal(words)})`)
  const status = filters.status.trim()
  if (status) parts.push(`status = ${literal(status)}`)
  const doctype = filters.doctype.trim()
  if (INTEGER.test(doctype)) parts.push(`type_id = ${Number(doctype)}`)
  const destination = filters.destination.trim()
  if (destination) parts.push(`destination = ${literal(destination)}`)
  const priority = filters.priority.trim()
  if (priority) parts.push(`priority = ${literal(priority)}`)
  if (DATE.test(filters.createdFrom)) parts.push(`creation_date >= ${literal(filters.createdFrom)}`)
  if (DATE.test(filters.createdTo)) parts.push(`creation_date < ${literal(nextDay(filters.createdTo))}`)
  const chrono = filters.chrono.trim()
  if (chrono) parts.push(`alt_identifier = ${literal(chrono)}`)
  for (const word of filters.subjectWords.split(/\s+/).filter((w) => w !== ''))
    parts.push(`subject ilike ${literal(`%${word}%`)}`)
  const field = filters.customField.trim()
  if (INTEGER.test(field) && filters.customValue !== '')
    parts.push(`custom_fields->>${literal(field)} = ${literal(filters.customValue)}`)
  return parts.length === 0 ? '1=1' : parts.join(' and ')
}

/** An excerpt's parts: the words the search found are between `**` (the server's marks, never HTML). */
export function excerptParts(excerpt: string): { text: string; found: boolean }[] {
  return excerpt
    .split('**')
    .map((text, index) => ({ text, found: index % 2 === 1 }))
    .filter((part) => part.text !== '')
}

/** The 1-based character position a search error names ("... at position 12"), if any. */
export function errorPosition(message: string): number | null {
  const match = /at position (\d+)$/.exec(message)
  return match ? Number(match[1]) : null
}

/**
 * A clause narrowed to the records a sender look-up found (POST /rest/search by sender: the view has no
 * sender column): `res_id in (…)`, or a clause that matches nothing when none was found.
 */
export function withinRecords(clause: string, resIds: readonly number[]): string {
  const ids = resIds.filter((id) => Number.isSafeInteger(id) && id > 0)
  return ids.length === 0 ? '1=0' : `(${clause}) and res_id in (${ids.join(', ')})`
}
