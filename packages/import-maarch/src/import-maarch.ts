import { existingAttachmentIds } from '@mailroom/storage'
import { importChanges } from './delta/import-changes.js'
import type { MaarchImportOptions, MaarchImportTarget } from './import-options.js'
import { importOrganisation } from './import-organisation.js'
import { importRecords, type RunCounts } from './import-records.js'
import { ImportRuns } from './import-runs.js'
import { text } from './maarch-record-rows.js'
import { RecordImporter } from './record-importer.js'
import type { AttachmentEntry, DeltaSummary, ImportReportSink, MaarchImportSummary } from './report.js'
import { type MaarchSource, openMaarchSource } from './source.js'

/** Attachments listed per query. */
const PAGE = 200

/** Imports a Maarch Courrier 20.10 installation into Mailroom; see docs/migrating-from-maarch.md. */
export async function importMaarch(
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportSummary> {
  const source = await openMaarchSource(options.from)
  try {
    return await run(source, target, options)
  } finally {
    await source.close()
  }
}

/** Where nothing is kept: the caller wants the summary only. */
const NO_REPORT: ImportReportSink = { begin: async () => {}, records: async () => {}, attachments: async () => {} }

/**
 * A run: the organisation, then the records (every one, a batch at a time, or those changed since a cut-off),
 * then what was left out, each step reporting to the sink.
 */
async function run(
  source: MaarchSource,
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportSummary> {
  const dryRun = options.dryRun === true
  const sink = options.report ?? NO_REPORT
  // Before anything is written: a --since that names no cut-off stops here.
  const runs = await ImportRuns.begin(source, target, options)
  const organisation = options.only !== 'records' ? await importOrganisation(source, target, options) : null
  await sink.begin({ sourceVersion: source.version, dryRun, organisation })
  // Only counts stay in memory; every record's entry goes to the sink a page at a time.
  const counts: RunCounts = { imported: 0, repaired: 0, flagged: 0, skipped: 0, attachmentsNotImported: 0 }
  const chronoCounters: { counter: string; value: number }[] = []
  let bytes = 0
  let interrupted = false
  let resumed: MaarchImportSummary['resumed'] = null

  let delta: DeltaSummary | undefined
  if (options.only !== 'reference' && runs.since !== null) {
    const importer = new RecordImporter(source, target, options)
    await importer.prepare()
    const carried = await importChanges({ source, target, options, importer, since: runs.since, sink, counts })
    ;({ delta } = carried)
    bytes += carried.bytes
    interrupted = carried.interrupted
    if (!dryRun) {
      chronoCounters.push(...(await importer.finish()))
      await target.journalFlush()
    }
  } else if (options.only !== 'reference') {
    const importer = new RecordImporter(source, target, options)
    await importer.prepare()
    const outcome = await importRecords(source, target, importer, options, sink, counts)
    bytes = outcome.bytes
    interrupted = outcome.interrupted
    resumed = outcome.resumed
    if (!dryRun) {
      chronoCounters.push(...(await importer.finish()))
      await target.journalFlush()
    }
  }
  await listAttachmentsNotImported(source, target, sink, counts)
  const summary = {
    sourceVersion: source.version,
    dryRun,
    organisation,
    interrupted,
    resumed,
    counts,
    chronoCounters,
    bytes,
  }
  return runs.end({ ...summary, ...(delta ? { delta } : {}) })
}

/** Lists the attachments still absent (their record skipped, refused or not run): the others came with their record. */
async function listAttachmentsNotImported(
  source: MaarchSource,
  target: MaarchImportTarget,
  sink: ImportReportSink,
  counts: RunCounts,
): Promise<void> {
  for (let afterAttachment = 0; ; ) {
    const page = await source.rows(
      `select res_id, res_id_master, title from res_attachments where coalesce(status, '') <> 'DEL' and res_id > $1 order by res_id limit ${PAGE}`,
      [afterAttachment],
    )
    if (page.length === 0) break
    afterAttachment = Number(page.at(-1)?.res_id)
    const present = await existingAttachmentIds(
      target.db,
      page.map((a) => Number(a.res_id)),
    )
    const attachments: AttachmentEntry[] = page
      .filter((a) => !present.has(Number(a.res_id)))
      .map((a) => ({
        resId: Number(a.res_id),
        resIdMaster: a.res_id_master === null ? null : Number(a.res_id_master),
        title: text(a.title) ?? null,
      }))
    counts.attachmentsNotImported += attachments.length
    await sink.attachments(attachments)
  }
}
