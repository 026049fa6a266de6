import {
  beginImportBatch,
  commitImportBatch,
  committedImportBatches,
  type Database,
  existingRecordIds,
  forgetImportBatch,
  leaveImportBatchOpen,
  refreshImportStatistics,
  type StoredDocument,
  unfinishedImportBatches,
} from '@mailroom/storage'
import { type Kysely, sql } from 'kysely'
import { DEFAULT_BATCH_SIZE, defaultJobs, type MaarchImportOptions, type MaarchImportTarget } from './import-options.js'
import { outcomeOf, type PreparedRecord, type RecordImporter, refusalOf } from './record-importer.js'
import { type Related, RelatedRowsInOrder } from './related-rows.js'
import type { ImportCounts, ImportReportSink, MaarchImportSummary, RecordEntry, UpdatedRecordEntry } from './report.js'
import { mapLimit, settled } from './settled.js'
import type { MaarchSource } from './source.js'

/** Records of a batch whose files are read at once. */
const READERS = 8
/** The first committed batch after which the target's statistics are refreshed; then every time the count doubles. */
export const FIRST_STATISTICS_BATCH = 8

/** A run's counts as they grow. */
export type RunCounts = { -readonly [K in keyof ImportCounts]: ImportCounts[K] }

/** A full run's entry for a record: imported or skipped (only a delta run updates records). */
type ImportedEntry = Exclude<RecordEntry, UpdatedRecordEntry>

/** One batch as the reader hands it to the writers: its range of source records and what was read of them. */
type ReadBatch =
  | {
      /** A range committed by an earlier run: only its ids are read, to list them. */
      readonly kind: 'committed'
      readonly afterResId: number
      readonly lastResId: number
      readonly resIds: readonly number[]
    }
  | {
      readonly kind: 'read'
      readonly afterResId: number
      readonly lastResId: number
      /** Records of the range already in Mailroom (a run stopped before its batch was noted). */
      readonly present: readonly number[]
      readonly related: Related
      readonly records: readonly PreparedRecord[]
    }

/** Name of this importer's rows in import_batches. */
const IMPORTER = 'maarch'

/**
 * The records, a batch at a time. One reader goes through the source in res_id order (its one connection
 * holds the snapshot), reading a batch's rows, related rows and files while earlier batches are written;
 * up to `jobs` batches are written at once, each committed whole in one transaction after its files are
 * durable. Entries reach the report in res_id order whatever order batches commit in.
 */
export async function importRecords(
  source: MaarchSource,
  target: MaarchImportTarget,
  importer: RecordImporter,
  options: MaarchImportOptions,
  sink: ImportReportSink,
  counts: RunCounts,
): Promise<{ bytes: number; interrupted: boolean; resumed: MaarchImportSummary['resumed'] }> {
  const dryRun = options.dryRun === true
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE))
  const jobs = Math.max(1, Math.floor(options.jobs ?? defaultJobs()))
  const db = target.db
  // Files of batches an earlier run stored and never committed: referenced by nothing, removed first.
  let cleaned = { batches: 0, files: 0 }
  if (!dryRun)
    for (const unfinished of await unfinishedImportBatches(db, IMPORTER)) {
      await importer.remove(unfinished.files)
      await forgetImportBatch(db, unfinished.id)
      cleaned = { batches: cleaned.batches + 1, files: cleaned.files + unfinished.files.length }
    }
  const committed = new Map((await committedImportBatches(db, IMPORTER)).map((b) => [b.afterResId, b]))
  // Where the earlier runs' committed batches end without a gap from the start: where this run resumes.
  const chain = { afterResId: 0, batches: 0, records: 0 }
  for (let b = committed.get(0); b !== undefined; b = committed.get(b.lastResId))
    Object.assign(chain, { afterResId: b.lastResId, batches: chain.batches + 1, records: chain.records + b.records })
  const resumed: MaarchImportSummary['resumed'] = chain.batches > 0 ? chain : null
  const total = Number((await source.rows<{ n: string }>('select count(*) as n from res_letterbox'))[0]?.n ?? 0)
  options.onStart?.({ total, resumed, cleaned, batchSize, jobs })

  async function* read(): AsyncGenerator<ReadBatch> {
    // Where the earlier runs' batches end, the walk through the related tables starts.
    const walk = await RelatedRowsInOrder.open(source, chain.afterResId)
    try {
      for (let after = 0; ; ) {
        const done = committed.get(after)
        if (done !== undefined) {
          const ids = await source.rows<{ res_id: number }>(
            'select res_id from res_letterbox where res_id > $1 and res_id <= $2 order by res_id',
            [done.afterResId, done.lastResId],
          )
          await walk.upTo(done.lastResId) // passed over (nothing when the walk starts beyond it)
          yield { kind: 'committed', ...done, resIds: ids.map((r) => Number(r.res_id)) }
          after = done.lastResId
          continue
        }
        const page = await source.rows(
          `select * from res_letterbox where res_id > $1 order by res_id limit ${batchSize}`,
          [after],
        )
        if (page.length === 0) return
        const afterResId = after
        after = Number(page.at(-1)?.res_id)
        const present = await existingRecordIds(
          db,
          page.map((r) => Number(r.res_id)),
        )
        const todo = page.filter((r) => !present.has(Number(r.res_id)))
        const related = await walk.upTo(after)
        const records = await mapLimit(todo, READERS, (row) => importer.prepareRecord(row, related, dryRun))
        yield { kind: 'read', afterResId, lastResId: after, present: [...present], related, records }
      }
    } finally {
      await walk.close()
    }
  }

  let done = 0
  let bytes = 0
  let batches = 0
  let statisticsDueAt = FIRST_STATISTICS_BATCH
  // Entries of committed batches wait here until every batch before them is reported.
  const finished = new Map<number, ImportedEntry[]>()
  let reported = 0
  const report = async (sequence: number, entries: ImportedEntry[]) => {
    finished.set(sequence, entries)
    for (let next = finished.get(reported); next !== undefined; next = finished.get(reported)) {
      finished.delete(reported++)
      for (const entry of next) {
        if (entry.outcome === 'skipped') counts.skipped++
        else {
          counts.imported++
          if (entry.outcome !== 'imported') counts[entry.outcome]++
        }
      }
      await sink.records(next)
    }
  }

  const write = async (batch: ReadBatch): Promise<ImportedEntry[]> => {
    if (batch.kind === 'committed')
      return batch.resIds.map((resId) => ({ outcome: 'skipped', resId, reason: 'already imported' }))
    const entries: ImportedEntry[] = batch.present.map((resId) => ({
      outcome: 'skipped',
      resId,
      reason: 'already imported',
    }))
    const refused = dryRun ? new Map<number, string>() : await writeBatch(db, importer, batch)
    for (const p of batch.records) {
      const resId = Number(p.row.res_id)
      const refusal = refused.get(resId)
      if (refusal !== undefined) {
        entries.push({ outcome: 'skipped', resId, reason: `refused by Mailroom, not imported: ${refusal}` })
        continue
      }
      bytes += p.report.file?.size ?? 0
      entries.push({ outcome: outcomeOf(p.row, p.report), ...p.report })
    }
    return entries.sort((a, b) => a.resId - b.resId)
  }

  const reader = read()
  const inFlight = new Set<Promise<void>>()
  let failure: { error: unknown } | null = null
  let interrupted = false
  let sequence = 0
  let reading: Promise<IteratorResult<ReadBatch>> = reader.next()
  try {
    for (;;) {
      const next = await reading
      if (next.done) break
      if (options.signal?.aborted || failure !== null) {
        interrupted = failure === null
        break
      }
      // The next batch is read while this one is written.
      reading = reader.next()
      reading.catch(() => {})
      const batch = next.value
      const mine = sequence++
      const job: Promise<void> = write(batch)
        .then(async (entries) => {
          done += entries.length
          batches++
          // The 8th, 16th, 32nd… batch: statistics grow with the tables at a cost that stays a small share.
          if (!dryRun && batches >= statisticsDueAt) {
            statisticsDueAt *= 2
            await refreshImportStatistics(db)
          }
          await report(mine, entries)
          options.onProgress?.({ records: done, total, bytes, batches })
        })
        .catch((error: unknown) => {
          failure ??= { error }
        })
        .finally(() => inFlight.delete(job))
      inFlight.add(job)
      while (inFlight.size >= jobs) await Promise.race(inFlight)
    }
  } finally {
    // The batches in flight end, whole or absent, before the run stops or fails.
    await Promise.allSettled(inFlight)
    await reading.catch(() => {})
    await reader.return(undefined).catch(() => {})
  }
  if (failure !== null) throw (failure as { error: unknown }).error
  if (options.signal?.aborted) interrupted = true
  return { bytes, interrupted, resumed }
}

/**
 * Writes one batch: every file stored and durable, the files noted in import_batches, then every record's
 * rows in one transaction that also marks the batch committed. A record the database refuses (see
 * refusalOf) makes the batch run again with a savepoint per record, leaving that record out; the returned
 * map says which, and why. Any other failure removes the batch's files and fails.
 */
async function writeBatch(
  db: Kysely<Database>,
  importer: RecordImporter,
  batch: Extract<ReadBatch, { kind: 'read' }>,
): Promise<Map<number, string>> {
  const files = batch.records.map(() => [] as StoredDocument[])
  const refused = new Map<number, string>()
  const leftOut = () => batch.records.flatMap((p, i) => (refused.has(Number(p.row.res_id)) ? (files[i] ?? []) : []))
  let id: number | null = null
  try {
    const rows = await settled(
      batch.records.map((p, i) => importer.store(p, batch.related, files[i] as StoredDocument[])),
    )
    id = await beginImportBatch(db, {
      importer: IMPORTER,
      afterResId: batch.afterResId,
      lastResId: batch.lastResId,
      files: files.flat().map((f) => f.key),
    })
    const batchId = id
    const records = batch.records.length + batch.present.length
    try {
      await importer.insertBatch(db, rows, (trx) => commitImportBatch(trx, batchId, records))
    } catch (error) {
      if (refusalOf(error) === null) throw error
      // Rare: the batch again, each record behind a savepoint, so one refused record leaves the others in.
      await db.transaction().execute(async (trx) => {
        for (const [i, imported] of rows.entries()) {
          await sql`savepoint record`.execute(trx)
          try {
            await importer.insert(trx, imported)
            await sql`release savepoint record`.execute(trx)
          } catch (error) {
            const refusal = refusalOf(error)
            if (refusal === null) throw error
            await sql`rollback to savepoint record`.execute(trx)
            refused.set(Number(batch.records[i]?.row.res_id), refusal)
          }
        }
        if (refused.size === 0) await commitImportBatch(trx, batchId, records)
        else
          await leaveImportBatchOpen(
            trx,
            batchId,
            leftOut().map((f) => f.key),
          )
      })
    }
  } catch (error) {
    await importer.remove(files.flat().map((f) => f.key))
    if (id !== null) await forgetImportBatch(db, id).catch(() => {})
    throw error
  }
  if (refused.size > 0 && id !== null) {
    // A refused record's files: its rows are gone, so nothing names them. The batch stays open (a rerun tries
    // the refused records again) until they are removed.
    await importer.remove(leftOut().map((f) => f.key))
    await forgetImportBatch(db, id)
  }
  return refused
}
