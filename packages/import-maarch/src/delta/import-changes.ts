import { existingRecordIds, importedRecordState } from '@mailroom/storage'
import type { MaarchImportOptions, MaarchImportTarget } from '../import-options.js'
import { outcomeOf, type RecordImporter, refusalOf } from '../record-importer.js'
import type { DeltaCounts, DeltaSummary, ImportReportSink, RecordEntry } from '../report.js'
import type { MaarchSource } from '../source.js'
import { type CarriedChanges, carryChanges } from './carry-changes.js'

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
        let result: CarriedChanges | null
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
