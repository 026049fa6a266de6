import { LINK_HISTORY } from '../links/link-request.js'
import type { HistoryEntry } from './record-history.js'

/** What a link line shows in place of the chrono of a linked record its reader may not see. */
export const HIDDEN_LINKED_RECORD = 'courrier hors de votre périmètre'

const LINK_LINE_PREFIXES = [LINK_HISTORY.added, LINK_HISTORY.removed].map((what) => `${what} : `)

/**
 * The chrono a link line names ("Liaison ajoutée : MAARCH/2026A/3", as 20.10 writes it on both records), or null
 * for any other line and for a link to a record without chrono.
 */
export function linkedChronoOf(info: string | null): string | null {
  if (info === null) return null
  const prefix = LINK_LINE_PREFIXES.find((p) => info.startsWith(p))
  if (prefix === undefined) return null
  const chrono = info.slice(prefix.length)
  return chrono === '' ? null : chrono
}

/**
 * A history line as its reader may see it: a link line naming the chrono of a record outside the reader's
 * perimeter keeps its wording, with the chrono replaced by a neutral mention, so that the history of a record
 * she may read never tells her the number of one she may not. `visibleChronos`: the chronos the line may show
 * (those every record bearing them is in her perimeter).
 */
export function redactHistoryEntry<E extends Pick<HistoryEntry, 'info'>>(
  entry: E,
  visibleChronos: ReadonlySet<string>,
): E {
  const chrono = linkedChronoOf(entry.info)
  if (chrono === null || visibleChronos.has(chrono)) return entry
  const prefix = (entry.info ?? '').slice(0, (entry.info ?? '').length - chrono.length)
  return { ...entry, info: `${prefix}${HIDDEN_LINKED_RECORD}` }
}
