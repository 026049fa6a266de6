/**
 * The letter lists of 20.10's web client (a basket's list, a search) come with the fields that client renders as
 * HTML made inert by the server: a word joiner (U+2060) after each `<` or `&` that would start markup (core's
 * `inertHtmlText`). This client reads them as text, so it takes the joiners out: the text as the caller wrote it.
 */

/** One joiner after each `<` or `&`: exactly what the server added (it adds one before a joiner already there). */
const ADDED_JOINER = /([<&])\u2060/g

/** The text as written, from its inert form. */
function writtenText(inert: string): string {
  return inert.replace(ADDED_JOINER, '$1')
}

function writtenValue(value: unknown): unknown {
  if (typeof value === 'string') return writtenText(value)
  if (Array.isArray(value)) return value.map(writtenValue)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, writtenValue(item)]))
  return value
}

/** What a list's row carries that the server made inert: chrono, barcode, subject, display values. */
interface InertRow {
  readonly chrono: string | null
  readonly barcode: string | null
  readonly subject: string | null
  readonly display: readonly { readonly displayValue?: unknown }[]
}

function writtenDisplay(display: InertRow['display']): InertRow['display'] {
  return display.map((item) =>
    Object.hasOwn(item, 'displayValue') ? { ...item, displayValue: writtenValue(item.displayValue) } : item,
  )
}

/** A list's answer with its rows' text as written (an answer of another shape is left as it came). */
export function withWrittenText<List extends { readonly resources: readonly InertRow[] }>(list: List): List {
  if (!Array.isArray(list?.resources)) return list
  const text = (value: string | null) => (typeof value === 'string' ? writtenText(value) : value)
  return {
    ...list,
    resources: list.resources.map((row) => ({
      ...row,
      chrono: text(row.chrono),
      barcode: text(row.barcode),
      subject: text(row.subject),
      display: Array.isArray(row.display) ? writtenDisplay(row.display) : row.display,
    })),
  }
}
