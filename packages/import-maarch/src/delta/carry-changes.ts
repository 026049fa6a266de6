import {
  applyImportedRecordChanges,
  type ImportedHistoryRow,
  type ImportedRecordChanges,
  type ImportedRecordState,
  type ImportedVersionRow,
  type StoredDocument,
} from '@mailroom/storage'
import type { MaarchImportTarget } from '../import-options.js'
import type { ImporterParts } from '../importer-parts.js'
import { dateOf, type MaarchRow, text } from '../maarch-record-rows.js'
import type { Related } from '../related-rows.js'
import type { DeltaCounts, UpdatedRecordEntry } from '../report.js'
import { attachmentChanges, storeAttachmentChanges } from './attachment-changes.js'
import {
  columnChanges,
  type FoundChange,
  historyChanges,
  listChanges,
  noteChanges,
  type OriginalChange,
  originalChange,
  versionChanges,
} from './record-changes.js'

/** A record's changes carried: its report entry, what they were by kind, the bytes of the files stored. */
export interface CarriedChanges {
  readonly entry: UpdatedRecordEntry
  readonly counts: Partial<DeltaCounts>
  readonly bytes: number
}

/**
 * One record's changes, or null when it is as the source has it: each kind of change found (see
 * record-changes.ts, attachment-changes.ts), then, unless a dry run, their files stored and deposited and
 * every change written in one transaction. A failure removes the files stored.
 */
export async function carryChanges(
  parts: ImporterParts,
  row: MaarchRow,
  related: Related,
  sourceAttachments: readonly MaarchRow[],
  state: ImportedRecordState,
  dryRun: boolean,
  target: MaarchImportTarget,
): Promise<CarriedChanges | null> {
  const resId = Number(row.res_id)
  const held = state.record
  const problems: string[] = []
  const columns = columnChanges(row, held)
  const file = await originalChange(parts, row, held, problems)
  const versions = await versionChanges(parts, resId, related, state, file, problems)
  const lists = listChanges(resId, related, state)
  const notes = noteChanges(resId, related, state, problems)
  const attachments = await attachmentChanges(parts, sourceAttachments, state, problems)
  const history = historyChanges(resId, related, state)
  const found: FoundChange[] = [columns, file, versions, lists, notes, attachments, history]
  const changes = found.flatMap((kind) => kind.changes)
  if (changes.length === 0) return null
  const counts: Partial<DeltaCounts> = Object.assign({}, ...found.map((kind) => kind.counts))
  const entry: UpdatedRecordEntry = {
    outcome: 'updated',
    resId,
    chrono: text(row.alt_identifier) ?? null,
    changes,
    ...(problems.length > 0 ? { problems } : {}),
  }
  if (dryRun) return { entry, counts, bytes: 0 }

  // The new files are deposited in the name of the record's typist, as its first import was.
  const needsDepositor =
    file.original !== null || attachments.addedFiles.length > 0 || attachments.changedFiles.length > 0
  const { actor } = needsDepositor ? await parts.depositor(Number(row.typist), resId, false, problems) : { actor: null }
  const set = columns.set
  const destination = text(set.destination ?? held.destination) ?? null
  const deposits: ImportedRecordChanges['deposits'][number][] = []
  const deposit = (stored: { readonly sha256: string; readonly size: number }, provenance: string) => {
    if (actor)
      deposits.push({
        destination,
        sha256: stored.sha256,
        size: stored.size,
        actor,
        provenance: `imported from Maarch Courrier ${parts.sourceVersion} ${provenance}`,
      })
  }
  const written: StoredDocument[] = []
  try {
    const versionRows = await storeNewOriginal(parts, row, held, file, set, written, deposit)
    versionRows.push(...(await parts.storeVersions(versions.files, dateOf(row.creation_date), written)))
    const attachmentRows = await storeAttachmentChanges(parts, resId, attachments, written, deposit)
    const trace: ImportedHistoryRow = {
      event_type: 'IMPORT',
      user_id: null,
      event_date: new Date(),
      info: `Changes carried over from Maarch Courrier ${parts.sourceVersion}: ${changes.join(', ')}${problems.length > 0 ? `; ${problems.join('; ')}` : ''}`,
      id_module: 'import',
      remote_ip: null,
      event_id: 'maarchDelta',
    }
    const changed: ImportedRecordChanges = {
      resId,
      set,
      versions: versionRows,
      ...lists.lists,
      notes: notes.notes,
      ...attachmentRows,
      history: changes.some((c) => !c.startsWith('history')) ? [...history.history, trace] : history.history,
      deposits,
    }
    await target.db.transaction().execute((trx) => applyImportedRecordChanges(trx, parts.journal, changed))
  } catch (error) {
    await parts.remove(written)
    throw error
  }
  return { entry, counts, bytes: written.reduce((sum, d) => sum + d.size, 0) }
}

/**
 * Stores a new original (without a writable area it is not stored) and sets the record's file columns to it;
 * the one it replaces becomes a DOC version, returned with the versions to add.
 */
async function storeNewOriginal(
  parts: ImporterParts,
  row: MaarchRow,
  held: ImportedRecordState['record'],
  file: OriginalChange,
  set: Record<string, unknown>,
  written: StoredDocument[],
  deposit: (stored: StoredDocument, provenance: string) => void,
): Promise<ImportedVersionRow[]> {
  const versions: ImportedVersionRow[] = []
  if (file.original === null) return versions
  const kept = await parts.storeOriginal(row, file.original.bytes, new Date(), written)
  if (kept === null) return versions
  if (held.filename && held.docserver_id && held.path !== null)
    versions.push({
      type: 'DOC',
      version: file.heldVersion,
      docserver_id: String(held.docserver_id),
      path: String(held.path),
      filename: String(held.filename),
      fingerprint: (held.fingerprint as string | null) ?? null,
      filesize: held.filesize === null ? null : Number(held.filesize),
    })
  Object.assign(set, {
    format: kept.format,
    docserver_id: kept.area.docserverId,
    path: kept.document.path,
    filename: kept.document.filename,
    filesize: kept.document.size,
    fingerprint: kept.document.sha256,
    version: file.nextVersion,
  })
  deposit(
    kept.document,
    `record ${Number(row.res_id)} version ${file.sourceVersion}, source fingerprint ${file.original.report.mode} ${String(row.fingerprint ?? '')}`.trim(),
  )
  return versions
}
