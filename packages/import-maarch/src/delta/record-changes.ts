import { createHash } from 'node:crypto'
import type { ImportedHistoryRow, ImportedNoteRow, ImportedRecordChanges, ImportedRecordState } from '@mailroom/storage'
import type { ImporterParts } from '../importer-parts.js'
import {
  contactRows,
  diffusionRows,
  historyRows,
  keptColumns,
  type MaarchRow,
  noteRows,
} from '../maarch-record-rows.js'
import type { OriginalFile, VersionFile } from '../record-files.js'
import type { Related } from '../related-rows.js'
import type { DeltaCounts } from '../report.js'
import { canonical, changedColumns, missingItems, rowKeys, sameItems } from './compare.js'

/** What one kind of change found on a record: how the report names it (none: no change) and its count. */
export interface FoundChange {
  readonly changes: readonly string[]
  readonly counts: Partial<DeltaCounts>
}

/** A row of the record as Mailroom holds it. */
type HeldRecord = ImportedRecordState['record']

/** res_letterbox columns not compared: the typist (replaced when not imported), Mailroom's own, the file's. */
const NOT_COMPARED = new Set(['res_id', 'typist', 'fulltext_result', 'version', 'format', 'external_id'])
const JSON_COLUMNS = new Set(['integrations', 'custom_fields', 'linked_resources'])

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** The record's own columns that differ from the source's, as the values to set. */
export function columnChanges(row: MaarchRow, held: HeldRecord): FoundChange & { set: Record<string, unknown> } {
  const kept = keptColumns(row) as unknown as Record<string, unknown>
  const wanted = Object.fromEntries(Object.entries(kept).filter(([column]) => !NOT_COMPARED.has(column)))
  const columns = changedColumns(wanted, held, JSON_COLUMNS)
  const set: Record<string, unknown> = Object.fromEntries(columns.map((column) => [column, wanted[column]]))
  // external_id: Maarch's, keeping what the import noted in it (maarchImport).
  const heldExternal = (held.external_id ?? {}) as Record<string, unknown>
  const { maarchImport, ...heldOwn } = heldExternal
  const sourceExternal = typeof row.external_id === 'object' && row.external_id !== null ? row.external_id : {}
  if (canonical(sourceExternal) !== canonical(heldOwn)) {
    columns.push('external_id')
    set.external_id = JSON.stringify({ ...sourceExternal, ...(maarchImport === undefined ? {} : { maarchImport }) })
  }
  return { set, changes: columns, counts: columns.length > 0 ? { fields: 1 } : {} }
}

/** The source's original compared by its bytes: a new one is stored beside the old one, which becomes a DOC version. */
export interface OriginalChange extends FoundChange {
  /** The source's original when it differs from Mailroom's (null: the same, or none). */
  readonly original: OriginalFile | null
  /** The version Mailroom's present original has, which a new one moves to its DOC versions. */
  readonly heldVersion: number
  readonly sourceVersion: number
  /** The version a new original gets. */
  readonly nextVersion: number
}

/** Reads the source's original and tells whether it is new (what reading it found joins `problems` then). */
export async function originalChange(
  parts: ImporterParts,
  row: MaarchRow,
  held: HeldRecord,
  problems: string[],
): Promise<OriginalChange> {
  const scratch: string[] = []
  const original = row.filename ? await parts.readOriginal(row, scratch) : null
  const isNew = original !== null && sha256(original.bytes) !== String(held.fingerprint ?? '')
  const heldVersion = Number(held.version ?? 1)
  const sourceVersion = Number(row.version ?? 1)
  const nextVersion = held.filename ? Math.max(sourceVersion, heldVersion + 1) : Math.max(sourceVersion, heldVersion)
  if (isNew) problems.push(...scratch)
  return {
    original: isNew ? original : null,
    heldVersion,
    sourceVersion,
    nextVersion,
    changes: isNew ? [`file (version ${nextVersion})`] : [],
    counts: isNew ? { files: 1 } : {},
  }
}

/**
 * Converted versions the source has and Mailroom not, read (the old original's DOC row, when a new original
 * moves it there, is Mailroom's own: not read from the source).
 */
export async function versionChanges(
  parts: ImporterParts,
  resId: number,
  related: Related,
  state: ImportedRecordState,
  file: OriginalChange,
  problems: string[],
): Promise<FoundChange & { files: VersionFile[] }> {
  const heldVersions = new Set(state.versions.map((v) => `${String(v.type)}:${Number(v.version)}`))
  if (file.original && state.record.filename) heldVersions.add(`DOC:${file.heldVersion}`)
  const missingAdr = (related.adr.get(resId) ?? []).filter((a) => !heldVersions.has(`${String(a.type)}:${a.version}`))
  const files = missingAdr.length > 0 ? await parts.readVersions(missingAdr, problems) : []
  return {
    files,
    changes: files.length > 0 ? [`versions +${files.length}`] : [],
    counts: files.length > 0 ? { versions: files.length } : {},
  }
}

/** The lists to replace: the diffusion list, senders and recipients, tags, folders that differ from the source's. */
export function listChanges(
  resId: number,
  related: Related,
  state: ImportedRecordState,
): FoundChange & { lists: Pick<ImportedRecordChanges, 'diffusion' | 'contacts' | 'tagIds' | 'folderIds'> } {
  const diffusion = diffusionRows(related.listinstance.get(resId) ?? [])
  const contacts = contactRows(related.contacts.get(resId) ?? [])
  const tagIds = (related.tags.get(resId) ?? []).map((t) => Number(t.tag_id))
  const folderIds = (related.folders.get(resId) ?? []).map((f) => Number(f.folder_id))
  const diffusionColumns = Object.keys(diffusion[0] ?? {})
  const lists: Pick<ImportedRecordChanges, 'diffusion' | 'contacts' | 'tagIds' | 'folderIds'> = {
    ...(sameItems(rowKeys(diffusion, diffusionColumns), rowKeys(state.diffusion, diffusionColumns)) &&
    diffusion.length === state.diffusion.length
      ? {}
      : { diffusion }),
    ...(sameItems(rowKeys(contacts, ['item_id', 'type', 'mode']), rowKeys(state.contacts, ['item_id', 'type', 'mode']))
      ? {}
      : { contacts }),
    ...(sameItems(tagIds.map(String), state.tagIds.map(String)) ? {} : { tagIds }),
    ...(sameItems(folderIds.map(String), state.folderIds.map(String)) ? {} : { folderIds }),
  }
  const names = Object.keys(lists)
  return {
    lists,
    changes: names.map((name) => ({ diffusion: 'diffusion list' })[name] ?? name),
    counts: names.length > 0 ? { lists: 1 } : {},
  }
}

/** Notes: the source's not in Mailroom are added; Mailroom's not in the source are reported, never removed. */
export function noteChanges(
  resId: number,
  related: Related,
  state: ImportedRecordState,
  problems: string[],
): FoundChange & { notes: ImportedNoteRow[] } {
  const noteColumns = ['user_id', 'creation_date', 'note_text']
  const sourceNotes = noteRows(related.notes.get(resId) ?? [])
  const notes = missingItems(sourceNotes, rowKeys(sourceNotes, noteColumns), rowKeys(state.notes, noteColumns))
  const gone = missingItems(state.notes, rowKeys(state.notes, noteColumns), rowKeys(sourceNotes, noteColumns))
  for (const note of gone)
    problems.push(
      `note ${String(note.id)} is not in the source as it is here (edited or deleted in Maarch since): kept as it was`,
    )
  return {
    notes,
    changes: notes.length > 0 ? [`notes +${notes.length}`] : [],
    counts: notes.length > 0 ? { notes: notes.length } : {},
  }
}

/** historyRows' import row, dropped here: a delta writes its own. */
const IGNORED: ImportedHistoryRow = { event_type: 'IMPORT', event_date: new Date(0), id_module: 'import' }

/** History: the source's rows Mailroom does not have yet. */
export function historyChanges(
  resId: number,
  related: Related,
  state: ImportedRecordState,
): FoundChange & { history: ImportedHistoryRow[] } {
  const historyColumns = ['event_type', 'user_id', 'event_date', 'info', 'event_id']
  const sourceHistory = historyRows(related.history.get(resId) ?? [], IGNORED).slice(0, -1)
  const history: ImportedHistoryRow[] = missingItems(
    sourceHistory,
    rowKeys(sourceHistory, historyColumns),
    rowKeys(state.history, historyColumns),
  )
  return {
    history,
    changes: history.length > 0 ? [`history +${history.length}`] : [],
    counts: history.length > 0 ? { history: history.length } : {},
  }
}
