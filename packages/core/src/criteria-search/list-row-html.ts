import { inertHtmlText } from '../session-shell/safe-html.js'

/** What a row of 20.10's letter lists carries that its web client renders as HTML somewhere. */
interface ListRowText {
  readonly chrono: string | null
  readonly barcode: string | null
  readonly subject: string | null
  readonly display: readonly { readonly displayValue?: unknown }[]
}

/** Every string of a display value made inert: a name, a list of names, a visa step's `user`, a custom field's text. */
function inertValue(value: unknown): unknown {
  if (typeof value === 'string') return inertHtmlText(value)
  if (Array.isArray(value)) return value.map(inertValue)
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, inertValue(item)]))
  return value
}

/**
 * A row of a basket's list (`GET /rest/resourcesList/…`) or of a search (`POST /rest/search`) as 20.10's web
 * client may read it: the fields it renders as HTML made inert ({@link inertHtmlText}). Its result lists bind the
 * chrono, the barcode, the subject and each display item's value to `[innerHTML]`, a basket's list its display
 * values, and the side panel of both the chrono and subject; its code also writes the names of a column (senders,
 * visa circuit) into markup of its own. Other fields are shown as text, or are the server's own (labels of the
 * organisation, dates, ids), and stay as they are.
 */
export function withInertHtml<Row extends ListRowText>(row: Row): Row {
  const inert = (text: string | null) => (text === null ? null : inertHtmlText(text))
  return {
    ...row,
    chrono: inert(row.chrono),
    barcode: inert(row.barcode),
    subject: inert(row.subject),
    display: row.display.map((item) =>
      Object.hasOwn(item, 'displayValue') ? { ...item, displayValue: inertValue(item.displayValue) } : item,
    ),
  }
}
