import type { Kysely, Transaction } from 'kysely'
import type { Database } from '../database/schema.js'

/** A committed batch of an import: the source records with `afterResId < res_id <= lastResId`. */
export interface CommittedImportBatch {
  readonly afterResId: number
  readonly lastResId: number
  /** Records of the range the batch imported or found already there. */
  readonly records: number
}

/** A batch whose files were stored but whose rows never committed (a run stopped in between). */
export interface UnfinishedImportBatch {
  readonly id: number
  readonly files: readonly string[]
}

/** The committed batches of an importer ('maarch'), in source order. */
export async function committedImportBatches(db: Kysely<Database>, importer: string): Promise<CommittedImportBatch[]> {
  const rows = await db
    .selectFrom('import_batches')
    .select(['after_res_id', 'last_res_id', 'records'])
    .where('importer', '=', importer)
    .where('committed', '=', true)
    .orderBy('after_res_id')
    .execute()
  return rows.map((r) => ({ afterResId: Number(r.after_res_id), lastResId: Number(r.last_res_id), records: r.records }))
}

/** Batches of an importer that stored files and never committed: their files are referenced by nothing. */
export async function unfinishedImportBatches(
  db: Kysely<Database>,
  importer: string,
): Promise<UnfinishedImportBatch[]> {
  const rows = await db
    .selectFrom('import_batches')
    .select(['id', 'files'])
    .where('importer', '=', importer)
    .where('committed', '=', false)
    .orderBy('id')
    .execute()
  return rows.map((r) => ({ id: Number(r.id), files: filesOf(r.files) }))
}

/**
 * Notes, in a transaction of its own, the stored files of a batch about to commit (durable before its rows
 * are written); returns the batch's id, for {@link commitImportBatch} or {@link forgetImportBatch}.
 */
export async function beginImportBatch(
  db: Kysely<Database>,
  batch: {
    readonly importer: string
    readonly afterResId: number
    readonly lastResId: number
    readonly files: readonly string[]
  },
): Promise<number> {
  const row = await db
    .insertInto('import_batches')
    .values({
      importer: batch.importer,
      after_res_id: batch.afterResId,
      last_res_id: batch.lastResId,
      files: JSON.stringify(batch.files),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return Number(row.id)
}

/** Marks the batch committed, in the transaction of its rows: its files are referenced from then on. */
export async function commitImportBatch(trx: Transaction<Database>, id: number, records: number): Promise<void> {
  await trx
    .updateTable('import_batches')
    .set({ committed: true, files: null, records, updated_at: new Date() })
    .where('id', '=', id)
    .execute()
}

/**
 * In the transaction of a batch's rows when some of its records were left out (refused): the batch stays
 * not committed, so a rerun reads its range again, and keeps only the keys of the left-out records' files,
 * which nothing references (removed next, or by the next run).
 */
export async function leaveImportBatchOpen(
  trx: Transaction<Database>,
  id: number,
  files: readonly string[],
): Promise<void> {
  await trx
    .updateTable('import_batches')
    .set({ files: JSON.stringify(files), updated_at: new Date() })
    .where('id', '=', id)
    .execute()
}

/** Forgets a batch that never committed, once its files are removed. */
export async function forgetImportBatch(db: Kysely<Database>, id: number): Promise<void> {
  await db.deleteFrom('import_batches').where('id', '=', id).where('committed', '=', false).execute()
}

function filesOf(value: unknown): string[] {
  const parsed = typeof value === 'string' ? JSON.parse(value) : value
  return Array.isArray(parsed) ? parsed.map(String) : []
}
