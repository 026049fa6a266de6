import type { Language } from '../i18n/i18n.js'
import { formatValue } from '../ui/format.js'
import type { AttachmentRow, LinkedRecord, NoteRow } from './capture-api.js'

/** A note's author: "Firstname LASTNAME (their primary entity)". */
export function noteAuthor(note: NoteRow): string {
  const name = [note.firstname, note.lastname].filter((part) => part && part.trim() !== '').join(' ') || '—'
  return note.entity_label ? `${name} (${note.entity_label})` : name
}

/** The entities a restricted note is kept for (their entity_id), or null for a note everyone may read. */
export function noteRestriction(note: NoteRow): string | null {
  const ids = (note.entities_restriction ?? []).flatMap((entity) => entity.item_id)
  return ids.length === 0 ? null : ids.join(', ')
}

/** An attachment's name in a list: its title (or its type when it has none), its chrono and version. */
export function attachmentName(attachment: AttachmentRow): string {
  const title = attachment.title?.trim() || attachment.typeLabel
  const chrono = attachment.chrono ? ` — ${attachment.chrono}` : ''
  const version = attachment.relation > 1 ? ` (v${attachment.relation})` : ''
  return `${title}${chrono}${version}`
}

/** A linked record in a list: chrono, subject and status label. */
export function linkedRecordLine(record: LinkedRecord): string {
  const status = record.statusLabel || record.status
  return [record.chrono, record.subject, status ? `(${status})` : null]
    .filter(Boolean)
    .join(' — ')
    .replace(' — (', ' (')
}

/** The record numbers typed in the link form ("12, 14 15"), or null when any part is not a record number. */
export function parseRecordNumbers(typed: string): number[] | null {
  const parts = typed.split(/[\s,;]+/).filter((part) => part !== '')
  if (parts.length === 0 || parts.some((part) => !/^\d{1,15}$/.test(part))) return null
  const ids = parts.map(Number)
  return ids.every((id) => Number.isSafeInteger(id) && id > 0) ? [...new Set(ids)] : null
}

/**
 * A moment as the server wrote it: ISO 8601 in the reader's language and time zone, or Maarch's
 * `2026-11-26 21:04:29.080000` (no time zone: the server's own) cut to the minute, as written.
 */
export function maarchMoment(value: string | null | undefined, language: Language): string {
  if (!value) return ''
  const maarch = /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2})(:\d{2}(\.\d+)?)?$/.exec(value)
  return maarch ? maarch[1]! : formatValue(value, language)
}

/** The entity ids typed in a note's restriction field: separated by spaces or commas, each once. */
export function entityIds(typed: string): string[] {
  return [...new Set(typed.split(/[\s,;]+/).filter((id) => id !== ''))]
}
