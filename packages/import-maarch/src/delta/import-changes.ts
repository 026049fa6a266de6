import { createHash } from 'node:crypto'
import {
  applyImportedRecordChanges,
  existingRecordIds,
  type ImportedAttachmentRow,
  type ImportedHistoryRow,
  type ImportedRecordChanges,
  type ImportedRecordState,
  type ImportedVersionRow,
  importedRecordState,
  type StoredDocument,
} from '@mailroom/storage'
import {
  type MaarchImportOptions,
  type MaarchImportTarget,
  outcomeOf,
  type RecordImporter,
  refusalOf,
} from '../import-maarch.js'
import {
  attachmentRow,
  contactRows,
  dateOf,
  diffusionRows,
  historyRows,
  keptColumns,
  type MaarchRow,
  noteRows,
  text,
} from '../maarch-record-rows.js'
import type { Related } from '../related-rows.js'
import type { ImportReportSink, RecordEntry, UpdatedRecordEntry } from '../report.js'
import type { MaarchSource } from '../source.js'
import { canonical, changedColumns, missingItems, rowKeys, sameItems } from './compare.js'
import type { ImporterParts } from './importer-parts.js'

/** What a delta run (`--since`) looked at and carried onto the records imported before. */
export interface DeltaSummary {
  /** The cut-off it carried changes from (ISO). */
  readonly since: string
  /** Source records created or changed since (by their dates, their history, notes, attachments, lists). */
  readonly examined: number
  /** Records imported before that it changed. */
  readonly updated: number
  /** Records imported before that it looked at and found as they were. */
  readonly unchanged: number
  /** What it carried, by kind. */
  readonly carried: DeltaCounts
}

/** What a delta carried, by kind. */
export interface DeltaCounts {
  /** Records whose own columns (status, subject, dates…) changed. */
  fields: number
  /** New originals, stored beside the old one as a new version and deposited. */
  files: number
  /** Converted versions (adr_letterbox) added. */
  versions: number
  /** Diffusion lists, senders and recipients, tags or folders replaced. */
  lists: number
  attachmentsAdded: number
  attachmentsChanged: number
  notes: number
  history: number
}

/** What a delta run needs of the run it is part of. */
export interface DeltaRun {
  readonly source: MaarchSource
  readonly target: MaarchImportTarget
  readonly options: MaarchImportOptions
  readonly importer: RecordImporter
  readonly since: Date
  readonly sink: ImportReportSink
  /** The run's counts: records new since are counted there as a full run counts them. */
  readonly counts: { imported: number; repaired: number; flagged: number; skipped: number }
}

/** Records read from the source at once. */
const PAGE = 200

/** res_letterbox columns not compared: the typist (replaced when not imported), Mailroom's own, the file's. */
const NOT_COMPARED = new Set(['res_id', 'typist', 'fulltext_result', 'version', 'format', 'external_id'])
const JSON_COLUMNS = new Set(['integrations', 'custom_fields', 'linked_resources'])
/** res_attachments columns compared on an attachment imported before (the file is compared by its bytes). */
const ATTACHMENT_FILE_COLUMNS = new Set(['res_id', 'docserver_id', 'path', 'filename', 'filesize', 'fingerprint'])

/**
 * The source records created or changed since the cut-off: by their own dates, or a history row, note,
 * attachment or diffusion list entry dated since. Maarch writes a history row with every action (a status
 * change, a redirection, an edit), so a change whose table has no date is found by its history row.
 */
async function changedRecordIds(source: MaarchSource, since: Date): Promise<number[]> {
  const rows = await source.rows<{ res_id: string }>(
    `select res_id from res_letterbox where res_id in (
       select res_id from res_letterbox where creation_date >= $1::timestamptz or modification_date >= $1::timestamptz
       union select record_id::bigint from history where event_date >= $1::timestamptz
         and table_name in ('res_letterbox', 'res_view_letterbox') and record_id ~ '^[0-9]{1,18}$'
       union select identifier from notes where creation_date >= $1::timestamptz
       union select res_id_master from res_attachments
         where creation_date >= $1::timestamptz or modification_date >= $1::timestamptz
       union select res_id from listinstance where process_date >= $1::timestamptz
     ) order by res_id`,
    [since.toISOString()],
  )
  return rows.map((r) => Number(r.res_id))
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Carries what changed in the source since a cut-off: records created since are imported as a full run
 * imports them; records imported before get their changed columns, lists, new file versions, attachments,
 * notes and history rows, each record in one transaction with its deposits. Nothing is removed.
 */
export async function importChanges(
  run: DeltaRun,
): Promise<{ delta: DeltaSummary; bytes: number; interrupted: boolean }> {
  const { source, target, options, importer, sink, counts } = run
  const dryRun = options.dryRun === true
  const parts = importer.parts
  const ids = await changedRecordIds(source, run.since)
  const carried: DeltaCounts = {
    fields: 0,
    files: 0,
    versions: 0,
    lists: 0,
    attachmentsAdded: 0,
    attachmentsChanged: 0,
    notes: 0,
    history: 0,
  }
  let updated = 0
  let unchanged = 0
  let bytes = 0
  let done = 0
  let interrupted = false
  for (let at = 0; at < ids.length && !interrupted; at += PAGE) {
    const pageIds = ids.slice(at, at + PAGE)
    const page = await source.rows('select * from res_letterbox where res_id = any($1) order by res_id', [pageIds])
    const present = await existingRecordIds(target.db, pageIds)
    const related = await importer.related(pageIds)
    // Deleted ones too: an attachment deleted in Maarch since is a status change to carry.
    const allAttachments = await source.rows(
      'select * from res_attachments where res_id_master = any($1) order by res_id',
      [pageIds.filter((id) => present.has(id))],
    )
    const entries: RecordEntry[] = []
    /** Mailroom's refusal skips the record, saying why; any other failure ends the run, this page's entries kept. */
    const skipRefused = async (error: unknown, resId: number, skipped: string): Promise<void> => {
      const refusal = refusalOf(error)
      if (refusal === null) {
        await sink.records(entries)
        throw error
      }
      counts.skipped++
      entries.push({ outcome: 'skipped', resId, reason: `${skipped}: ${refusal}` })
    }
    for (const row of page) {
      if (options.signal?.aborted) {
        interrupted = true
        break
      }
      const resId = Number(row.res_id)
      done++
      if (!present.has(resId)) {
        // New since: imported whole, as a full run imports it.
        try {
          const report = await importer.importRecord(row, related, dryRun)
          bytes += report.file?.size ?? 0
          const outcome = outcomeOf(row, report)
          counts.imported++
          if (outcome !== 'imported') counts[outcome]++
          entries.push({ outcome, ...report })
        } catch (error) {
          await skipRefused(error, resId, 'refused by Mailroom, not imported')
        }
      } else {
        const state = await importedRecordState(target.db, resId)
        if (state === null) continue
        const attachments = allAttachments.filter((a) => Number(a.res_id_master) === resId)
        let result: Awaited<ReturnType<typeof carryChanges>>
        try {
          result = await carryChanges(parts, row, related, attachments, state, dryRun, target)
        } catch (error) {
          await skipRefused(error, resId, 'changes refused by Mailroom, not carried')
          continue
        }
        if (result === null) unchanged++
        else {
          updated++
          bytes += result.bytes
          for (const [kind, n] of Object.entries(result.counts) as [keyof DeltaCounts, number][]) carried[kind] += n
          entries.push(result.entry)
        }
      }
      options.onProgress?.({ records: done, total: ids.length, bytes })
    }
    await sink.records(entries)
  }
  return {
    delta: { since: run.since.toISOString(), examined: ids.length, updated, unchanged, carried },
    bytes,
    interrupted,
  }
}

/** One record's changes, or null when it is as the source has it. */
async function carryChanges(
  parts: ImporterParts,
  row: MaarchRow,
  related: Related,
  sourceAttachments: readonly MaarchRow[],
  state: ImportedRecordState,
  dryRun: boolean,
  target: MaarchImportTarget,
): Promise<{ entry: UpdatedRecordEntry; counts: Partial<DeltaCounts>; bytes: number } | null> {
  const resId = Number(row.res_id)
  const held = state.record
  const problems: string[] = []
  const changes: string[] = []
  const counts: Partial<DeltaCounts> = {}

  // The record's own columns.
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
  if (columns.length > 0) {
    changes.push(...columns)
    counts.fields = 1
  }

  // The original: compared by its bytes; a new one is stored beside the old one, which becomes a DOC version.
  const versions: ImportedVersionRow[] = []
  const written: StoredDocument[] = []
  const deposits: ImportedRecordChanges['deposits'][number][] = []
  const scratch: string[] = []
  const original = row.filename ? await parts.readOriginal(row, scratch) : null
  const newOriginal = original !== null && sha256(original.bytes) !== String(held.fingerprint ?? '')
  const heldVersion = Number(held.version ?? 1)
  const sourceVersion = Number(row.version ?? 1)
  const nextVersion = held.filename ? Math.max(sourceVersion, heldVersion + 1) : Math.max(sourceVersion, heldVersion)
  if (newOriginal) {
    problems.push(...scratch)
    changes.push(`file (version ${nextVersion})`)
    counts.files = 1
  }
  // Converted versions the source has and Mailroom not (the old original's DOC row is Mailroom's own, below).
  const heldVersions = new Set(state.versions.map((v) => `${String(v.type)}:${Number(v.version)}`))
  if (newOriginal && held.filename) heldVersions.add(`DOC:${heldVersion}`)
  const missingAdr = (related.adr.get(resId) ?? []).filter((a) => !heldVersions.has(`${String(a.type)}:${a.version}`))
  const versionFiles = missingAdr.length > 0 ? await parts.readVersions(missingAdr, problems) : []
  if (versionFiles.length > 0) {
    changes.push(`versions +${versionFiles.length}`)
    counts.versions = versionFiles.length
  }

  // Lists: replaced when they differ.
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
  const listNames = Object.keys(lists)
  if (listNames.length > 0) {
    changes.push(...listNames.map((name) => ({ diffusion: 'diffusion list' })[name] ?? name))
    counts.lists = 1
  }

  // Notes: the source's not in Mailroom are added; Mailroom's not in the source are reported, never removed.
  const noteColumns = ['user_id', 'creation_date', 'note_text']
  const sourceNotes = noteRows(related.notes.get(resId) ?? [])
  const notes = missingItems(sourceNotes, rowKeys(sourceNotes, noteColumns), rowKeys(state.notes, noteColumns))
  const gone = missingItems(state.notes, rowKeys(state.notes, noteColumns), rowKeys(sourceNotes, noteColumns))
  for (const note of gone)
    problems.push(
      `note ${String(note.id)} is not in the source as it is here (edited or deleted in Maarch since): kept as it was`,
    )
  if (notes.length > 0) {
    changes.push(`notes +${notes.length}`)
    counts.notes = notes.length
  }

  // Attachments: new ones with their files; those imported before get their changed columns and a changed file.
  const heldAttachments = new Map(state.attachments.map((a) => [Number(a.res_id), a]))
  const newAttachments = sourceAttachments.filter(
    (a) => !heldAttachments.has(Number(a.res_id)) && String(a.status ?? '') !== 'DEL',
  )
  const attachmentUpdates: { resId: number; set: Record<string, unknown>; file?: MaarchRow }[] = []
  for (const a of sourceAttachments) {
    const mine = heldAttachments.get(Number(a.res_id))
    if (!mine) continue
    const wantedRow = attachmentRow(a, null) as unknown as Record<string, unknown>
    const compared = Object.fromEntries(
      Object.entries(wantedRow).filter(([column]) => !ATTACHMENT_FILE_COLUMNS.has(column) && column !== 'origin_id'),
    )
    const differing = changedColumns(compared, mine, new Set(['external_id']))
    const update: { resId: number; set: Record<string, unknown>; file?: MaarchRow } = {
      resId: Number(a.res_id),
      set: Object.fromEntries(differing.map((column) => [column, compared[column]])),
    }
    if (String(a.status ?? '') !== 'DEL' && a.filename && a.docserver_id) update.file = a
    attachmentUpdates.push(update)
  }
  const readAttachmentFiles = await parts.readAttachments(
    attachmentUpdates.flatMap((u) => (u.file ? [u.file] : [])),
    [],
  )
  const changedAttachmentFiles = readAttachmentFiles.filter(
    (f) => f.bytes !== null && sha256(f.bytes) !== String(heldAttachments.get(Number(f.row.res_id))?.fingerprint ?? ''),
  )
  const changedAttachments = new Set([
    ...attachmentUpdates.filter((u) => Object.keys(u.set).length > 0).map((u) => u.resId),
    ...changedAttachmentFiles.map((f) => Number(f.row.res_id)),
  ])
  const newAttachmentFiles = newAttachments.length > 0 ? await parts.readAttachments(newAttachments, problems) : []
  if (newAttachments.length > 0) {
    changes.push(`attachments +${newAttachments.length}`)
    counts.attachmentsAdded = newAttachments.length
  }
  if (changedAttachments.size > 0) {
    changes.push(`attachments ~${changedAttachments.size}`)
    counts.attachmentsChanged = changedAttachments.size
  }

  // History: the source's rows Mailroom does not have yet.
  const historyColumns = ['event_type', 'user_id', 'event_date', 'info', 'event_id']
  const sourceHistory = historyRows(related.history.get(resId) ?? [], IGNORED).slice(0, -1)
  const history: ImportedHistoryRow[] = missingItems(
    sourceHistory,
    rowKeys(sourceHistory, historyColumns),
    rowKeys(state.history, historyColumns),
  )
  if (history.length > 0) {
    changes.push(`history +${history.length}`)
    counts.history = history.length
  }

  if (changes.length === 0) return null
  const entry: UpdatedRecordEntry = {
    outcome: 'updated',
    resId,
    chrono: text(row.alt_identifier) ?? null,
    changes,
    ...(problems.length > 0 ? { problems } : {}),
  }
  if (dryRun) return { entry, counts, bytes: 0 }

  // The new files are deposited in the name of the record's typist, as its first import was.
  const needsDepositor = newOriginal || newAttachmentFiles.length > 0 || changedAttachmentFiles.length > 0
  const { actor } = needsDepositor ? await parts.depositor(Number(row.typist), resId, false, problems) : { actor: null }
  const destination = text(set.destination ?? held.destination) ?? null
  const deposit = (file: { readonly sha256: string; readonly size: number }, provenance: string) => {
    if (actor)
      deposits.push({
        destination,
        sha256: file.sha256,
        size: file.size,
        actor,
        provenance: `imported from Maarch Courrier ${parts.sourceVersion} ${provenance}`,
      })
  }
  try {
    const created = dateOf(row.creation_date)
    if (newOriginal && original) {
      const kept = await parts.storeOriginal(row, original.bytes, new Date(), written)
      if (kept) {
        if (held.filename && held.docserver_id && held.path !== null)
          versions.push({
            type: 'DOC',
            version: heldVersion,
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
          version: nextVersion,
        })
        deposit(
          kept.document,
          `record ${resId} version ${sourceVersion}, source fingerprint ${original.report.mode} ${String(row.fingerprint ?? '')}`.trim(),
        )
      }
    }
    versions.push(...(await parts.storeVersions(versionFiles, created, written)))
    const added = await parts.storeAttachments(newAttachmentFiles, written)
    // A new version of an attachment imported before keeps its link to it.
    const known = new Set([...heldAttachments.keys(), ...newAttachments.map((a) => Number(a.res_id))])
    const addedRows: (ImportedAttachmentRow & { res_id_master: number })[] = added.map(({ row: a }, i) => {
      const origin = integerOrNull(newAttachments[i]?.origin_id)
      return { ...a, res_id_master: resId, origin_id: origin !== null && known.has(origin) ? origin : a.origin_id }
    })
    for (const { row: a, stored: file } of added) if (file) deposit(file, `attachment ${a.res_id}`)
    const replaced = await parts.storeAttachments(changedAttachmentFiles, written)
    const fileSets = new Map(
      replaced.map(({ row: a, stored: file }) => {
        if (file) deposit(file, `attachment ${a.res_id}, changed since the last import`)
        return [
          a.res_id,
          {
            format: a.format,
            docserver_id: a.docserver_id,
            path: a.path,
            filename: a.filename,
            filesize: a.filesize,
            fingerprint: a.fingerprint,
          },
        ] as const
      }),
    )
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
      versions,
      ...lists,
      notes,
      attachments: addedRows,
      attachmentUpdates: attachmentUpdates
        .map((u) => ({ resId: u.resId, set: { ...u.set, ...(fileSets.get(u.resId) ?? {}) } }))
        .filter((u) => Object.keys(u.set).length > 0),
      history: changes.some((c) => !c.startsWith('history')) ? [...history, trace] : history,
      deposits,
    }
    await target.db.transaction().execute((trx) => applyImportedRecordChanges(trx, parts.journal, changed))
  } catch (error) {
    await parts.remove(written)
    throw error
  }
  return { entry, counts, bytes: written.reduce((sum, d) => sum + d.size, 0) }
}

/** historyRows' import row, dropped here: a delta writes its own. */
const IGNORED: ImportedHistoryRow = { event_type: 'IMPORT', event_date: new Date(0), id_module: 'import' }

const integerOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value))
