import { readFile } from 'node:fs/promises'
import { availableParallelism } from 'node:os'
import { extname } from 'node:path'
import { type Actor, fail } from '@mailroom/core'
import {
  attachmentStorageArea,
  beginImportBatch,
  commitImportBatch,
  committedImportBatches,
  type Database,
  type DocumentStore,
  existingAttachmentIds,
  existingRecordIds,
  FolderDocumentStore,
  forgetImportBatch,
  highestChronoNumbers,
  type ImportedAttachmentRow,
  type ImportedRecord,
  type ImportedVersionRow,
  insertImportedRecord,
  insertImportedRecords,
  JournalWriter,
  leaveImportBatchOpen,
  moveRecordIdsPastHighest,
  type OrganisationAdmin,
  raiseChronoCounter,
  refreshImportStatistics,
  type StoredDocument,
  unfinishedImportBatches,
  userLogins,
  type WritableStorageArea,
  writableStorageAreas,
} from '@mailroom/storage'
import { type Kysely, sql, type Transaction } from 'kysely'
import { type MaarchAttachmentTypeSources, mapAttachmentTypes, parseEntrepriseXml } from './attachment-types.js'
import { type DeltaSummary, importChanges } from './delta/import-changes.js'
import { ImportRuns } from './delta/import-runs.js'
import type { ImporterParts } from './delta/importer-parts.js'
import { checkFingerprint, type DocserverLocations, maarchFilePath, readIfPresent } from './files.js'
import {
  attachmentRow,
  contactRows,
  dateOf,
  diffusionRows,
  historyRows,
  importHistoryRow,
  type MaarchRow,
  noteRows,
  type RecordFindings,
  recordRow,
  type StoredOriginal,
  text,
} from './maarch-record-rows.js'
import { type MaarchOrganisationRows, type MaarchUserMapping, mapOrganisation } from './map-organisation.js'
import { type Related, RelatedRowsInOrder, relatedOf } from './related-rows.js'
import type {
  AttachmentEntry,
  ImportCounts,
  ImportReportSink,
  MaarchImportSummary,
  RecordEntry,
  RecordReport,
  UpdatedRecordEntry,
} from './report.js'
import { type MaarchSource, openMaarchSource } from './source.js'

/** The Mailroom installation receiving the import (a `createMailroom` result fits). */
export interface MaarchImportTarget {
  readonly db: Kysely<Database>
  /** Mailroom's document store; absent: the folder docserverDir. */
  readonly documentStore?: DocumentStore
  readonly organisation: OrganisationAdmin
  actor(user: string | number): Promise<Actor>
  journalFlush(): Promise<void>
}

export interface MaarchImportOptions {
  /** URL of the Maarch 20.10 PostgreSQL database (opened read-only). */
  readonly from: string
  readonly docservers: DocserverLocations
  /** Mailroom's document storage folder (MAILROOM_DOCSERVER_DIR): needed only when the target has no documentStore. */
  readonly docserverDir?: string
  readonly dryRun?: boolean
  /**
   * Login of the Mailroom user in whose name records whose Maarch typist is not imported (a user deleted in
   * Maarch) are recorded and deposited in the digital safe; `superadmin`, Maarch's root user, by default.
   */
  readonly fallbackDepositor?: string
  /**
   * How the imported users sign in: `ldap` or `oidc` for an installation whose login_method.xml enables ldap,
   * keycloak, cas, sso, openam or azure_saml (web-service and root users keep their Maarch password).
   */
  readonly authentication?: MaarchUserMapping['authentication']
  /**
   * Path of the installation's `apps/maarch_entreprise/xml/entreprise.xml` (its custom copy when it has one),
   * where 20.10 keeps its attachment types; without it, the types 20.10 installs (and those its attachments use).
   */
  readonly entrepriseXml?: string
  /** Only the organisation ('reference') or only the records ('records'); both by default. */
  readonly only?: 'reference' | 'records'
  /** Stops between two batches (those in flight finish); what is committed stays, the next run continues. */
  readonly signal?: AbortSignal
  /**
   * Records per batch: a batch's files are made durable together, then its rows committed in one
   * transaction, whole or not at all. DEFAULT_BATCH_SIZE by default.
   */
  readonly batchSize?: number
  /** Batches written at once, each its own transaction; defaultJobs() by default (two per core, at least 4). */
  readonly jobs?: number
  /** Called once before the records: their number, where the run resumes, what it cleaned up. */
  readonly onStart?: (start: ImportStart) => void
  /** Called after each batch is committed. */
  readonly onProgress?: (progress: ImportProgress) => void
  /** Receives the per-record report as the import goes (a `JsonReportFile`, a `ReportCollector`). */
  readonly report?: ImportReportSink
  /**
   * A delta run: only what changed in the source since then (a date and time, or `last`: the cut-off recorded
   * by the last finished run from this source); see delta/import-changes.ts.
   */
  readonly since?: Date | string
}

/** Where a run stands after a batch: records done (imported or skipped) of the source's total. */
export interface ImportProgress {
  readonly records: number
  readonly total: number
  /** Bytes of the originals imported. */
  readonly bytes: number
  /** Batches done so far in this run. */
  readonly batches?: number
}

/** How a run of the records starts. */
export interface ImportStart {
  /** Records in the source. */
  readonly total: number
  /** Where the batches committed by earlier runs end (null: nothing committed, the run starts at the beginning). */
  readonly resumed: MaarchImportSummary['resumed']
  /** Batches an earlier run stopped before committing, whose files were removed. */
  readonly cleaned: { readonly batches: number; readonly files: number }
  readonly batchSize: number
  readonly jobs: number
}

/** The queries reading the organisation from the source, by section (the verification reads it alike). */
export const ORG_QUERIES: Record<keyof MaarchOrganisationRows, string> = {
  entities: 'select * from entities order by id',
  usergroups: 'select * from usergroups order by id',
  usergroupsServices: 'select group_id, service_id from usergroups_services order by group_id, service_id',
  security: 'select * from security order by security_id',
  users: `select * from users where status <> 'DEL' order by id`,
  usersEntities: 'select * from users_entities',
  usergroupContent: 'select * from usergroup_content',
  status: 'select * from status order by identifier',
  doctypesFirstLevel: 'select * from doctypes_first_level order by doctypes_first_level_id',
  doctypesSecondLevel: 'select * from doctypes_second_level order by doctypes_second_level_id',
  doctypes: 'select * from doctypes order by type_id',
  indexingModels: 'select * from indexing_models order by id',
  indexingModelsFields: 'select * from indexing_models_fields order by id',
  priorities: 'select * from priorities order by "order", id',
  customFields: 'select * from custom_fields order by id',
  tags: 'select * from tags order by id',
  folders: 'select * from folders order by level, id',
  entitiesFolders: 'select * from entities_folders order by id',
  contacts: 'select * from contacts order by id',
  parameters: 'select * from parameters order by id',
}

/** Records read from the source per query (and attachments listed per query). */
const PAGE = 200
/** Maarch's root user: the default fallback depositor. */
export const DEFAULT_FALLBACK_DEPOSITOR = 'superadmin'
/** Records per batch by default: committed together, their files made durable together before. */
export const DEFAULT_BATCH_SIZE = 100
/** Records of a batch whose files are read at once. */
const READERS = 8
/** The first committed batch after which the target's statistics are refreshed; then every time the count doubles. */
export const FIRST_STATISTICS_BATCH = 8

/** A record's original read from Maarch's docservers, with what its check found. */
export interface OriginalFile {
  readonly bytes: Buffer
  readonly report: NonNullable<RecordReport['file']>
}

/** An attachment read from Maarch: its row, and its file (null when not found) with what the check found. */
export interface AttachmentFile {
  readonly row: MaarchRow
  readonly bytes: Buffer | null
  readonly fingerprint: 'matched' | 'computed' | 'mismatch' | 'missing'
}

/** A record read from the source, ready to be stored: its files' bytes, its depositor, its report. */
interface PreparedRecord {
  readonly row: MaarchRow
  readonly report: RecordReport
  readonly original: OriginalFile | null
  readonly versions: readonly VersionFile[]
  readonly attachments: readonly AttachmentFile[]
  readonly typist: number
  readonly actor: Actor | null
  readonly replaced: boolean
  readonly problems: string[]
}

/** A converted version of a record read from Maarch's docservers. */
export interface VersionFile {
  readonly type: string
  readonly version: number
  readonly bytes: Buffer
}

/**
 * What the database refused in a record's rows (a status, doctype or user Maarch no longer has, a value too
 * long): that record is skipped and reported, its files removed, and the import goes on. Null for any
 * other failure, which stops the run.
 */
export function refusalOf(error: unknown): string | null {
  const e = error as { code?: unknown; detail?: unknown; message?: unknown }
  if (
    typeof e?.code !== 'string' ||
    !['23503', '23502', '23505', '23514', '22001', '22P02', '22007', '22008'].includes(e.code)
  )
    return null
  return String(e.detail ?? e.message ?? e.code)
}

/** The installation's attachment types: its table (later releases), the entreprise.xml given, the types its attachments use. */
async function attachmentTypeSources(
  source: MaarchSource,
  options: MaarchImportOptions,
): Promise<MaarchAttachmentTypeSources> {
  const [present] = await source.rows<{ table: boolean }>(`select to_regclass('attachment_types') is not null as table`)
  const table = present?.table === true ? await source.rows('select * from attachment_types order by type_id') : null
  const configured =
    options.entrepriseXml === undefined ? null : parseEntrepriseXml(await readFile(options.entrepriseXml, 'utf8'))
  const used = await source.rows<{ attachment_type: string }>(
    'select distinct attachment_type from res_attachments where attachment_type is not null order by 1',
  )
  return { table, configured, used: used.map((row) => row.attachment_type) }
}

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

/** How the report lists an imported record. */
export function outcomeOf(row: MaarchRow, report: RecordReport): 'imported' | 'repaired' | 'flagged' {
  if (report.file?.fingerprint === 'mismatch' || (row.filename && !report.file)) return 'flagged'
  if (report.attachments?.some((a) => a.fingerprint === 'mismatch' || a.fingerprint === 'missing')) return 'flagged'
  if (report.file?.fingerprint === 'computed' || (report.problems?.length ?? 0) > 0) return 'repaired'
  return 'imported'
}

async function run(
  source: MaarchSource,
  target: MaarchImportTarget,
  options: MaarchImportOptions,
): Promise<MaarchImportSummary> {
  const dryRun = options.dryRun === true
  const sink = options.report ?? NO_REPORT
  // Before anything is written: a --since that names no cut-off stops here.
  const runs = await ImportRuns.begin(source, target, options)
  let organisation: MaarchImportSummary['organisation'] = null
  if (options.only !== 'records') {
    // One connection, one snapshot: the queries run one after the other.
    const read: Record<string, unknown> = {}
    for (const [section, query] of Object.entries(ORG_QUERIES)) read[section] = await source.rows(query)
    const rows = read as unknown as MaarchOrganisationRows
    const { document, notes } = mapOrganisation(rows, {
      ...(options.authentication === undefined ? {} : { authentication: options.authentication }),
    })
    document.attachmentTypes = mapAttachmentTypes(await attachmentTypeSources(source, options), notes)
    // A user already in Mailroom keeps the password hash it has there: a rerun must not put back the bcrypt
    // hash that the first login replaced, nor undo a password changed since.
    const present = new Set((await userLogins(target.db)).map((login) => login.toLowerCase()))
    document.users = document.users?.map(({ passwordHash, ...user }) =>
      present.has(user.login.toLowerCase()) ? user : { ...user, passwordHash },
    )
    const result = await target.organisation.apply(document, {
      dryRun,
      author: { userId: null, name: 'import maarch' },
    })
    organisation = { applied: result.applied, lines: result.lines, notes }
  }
  await sink.begin({ sourceVersion: source.version, dryRun, organisation })
  // Only counts stay in memory; every record's entry goes to the sink a page at a time.
  const counts: Counts = { imported: 0, repaired: 0, flagged: 0, skipped: 0, attachmentsNotImported: 0 }
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
  // Attachments come with their record; those still absent (their record skipped, refused or not run) are listed.
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

type Counts = { -readonly [K in keyof ImportCounts]: ImportCounts[K] }

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

/** Runs `work` on each item, at most `limit` at once, in order of the results. */
async function mapLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i] as T)
  }
  await settled(Array.from({ length: Math.min(limit, items.length) }, worker))
  return results
}

/** Like Promise.all, but waits for every promise before failing with the first failure (no write left running). */
async function settled<T>(promises: readonly Promise<T>[]): Promise<T[]> {
  return (await Promise.allSettled(promises)).map(outcomeValue)
}

function outcomeValue<T>(result: PromiseSettledResult<T>): T {
  if (result.status === 'rejected') throw result.reason
  return result.value
}

/**
 * The records, a batch at a time. One reader goes through the source in res_id order (its one connection
 * holds the snapshot), reading a batch's rows, related rows and files while earlier batches are written;
 * up to `jobs` batches are written at once, each committed whole in one transaction after its files are
 * durable. Entries reach the report in res_id order whatever order batches commit in.
 */
async function importRecords(
  source: MaarchSource,
  target: MaarchImportTarget,
  importer: RecordImporter,
  options: MaarchImportOptions,
  sink: ImportReportSink,
  counts: Counts,
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

/**
 * Batches written at once by default: two per core, at least 4, at most 16. A batch mostly waits (its files'
 * fsyncs, its statements' round trips), so more batches than cores keep both the disk and the database busy.
 */
export function defaultJobs(): number {
  return Math.max(4, Math.min(16, availableParallelism() * 2))
}

export class RecordImporter {
  readonly #source: MaarchSource
  readonly #target: MaarchImportTarget
  readonly #options: MaarchImportOptions
  readonly #writer: DocumentStore
  readonly #journal = new JournalWriter()
  readonly #actors = new Map<number, Actor | null>()
  /** Ids of the source's users the organisation brings over (for a dry run, where it is not applied). */
  #sourceUsers = new Set<number>()
  #fallback: { readonly login: string; readonly actor: Actor | null; readonly willExist: boolean } = {
    login: DEFAULT_FALLBACK_DEPOSITOR,
    actor: null,
    willExist: false,
  }
  #docservers = new Map<string, { pathTemplate: string; mode: string | null }>()
  /** Mailroom's writable storage areas by docserver type (DOC, CONVERT). */
  #areas = new Map<string, WritableStorageArea>()
  /** Where Mailroom stores attachment files (the attachments collection's writable DOC area). */
  #attachmentArea: WritableStorageArea | null = null

  constructor(source: MaarchSource, target: MaarchImportTarget, options: MaarchImportOptions) {
    this.#source = source
    this.#target = target
    this.#options = options
    const writer =
      target.documentStore ??
      (options.docserverDir === undefined ? undefined : new FolderDocumentStore(options.docserverDir))
    if (!writer) throw new Error("importMaarch needs the target's documentStore or docserverDir")
    this.#writer = writer
  }

  async prepare(): Promise<void> {
    const rows = await this.#source.rows(
      'select d.docserver_id, d.path_template, t.fingerprint_mode from docservers d left join docserver_types t using (docserver_type_id)',
    )
    this.#docservers = new Map(
      rows.map((r) => [
        String(r.docserver_id),
        { pathTemplate: String(r.path_template), mode: text(r.fingerprint_mode) ?? null },
      ]),
    )
    this.#areas = await writableStorageAreas(this.#target.db)
    this.#attachmentArea = await attachmentStorageArea(this.#target.db)
    const users = await this.#source.rows<{ id: number; user_id: string }>(
      `select id, user_id from users where status <> 'DEL'`,
    )
    this.#sourceUsers = new Set(users.map((u) => Number(u.id)))
    const login = this.#options.fallbackDepositor ?? DEFAULT_FALLBACK_DEPOSITOR
    const actor = await this.#target.actor(login).catch(() => null)
    // A dry run does not apply the organisation: a login that the import brings over counts as there.
    const willExist =
      actor !== null ||
      (this.#options.dryRun === true && users.some((u) => u.user_id.toLowerCase() === login.toLowerCase()))
    if (!willExist && this.#options.fallbackDepositor !== undefined) fail('MAARCH_DEPOSITOR_UNKNOWN', { login })
    this.#fallback = { login, actor, willExist }
  }

  /**
   * Who records and deposits a record: its typist, or the fallback depositor when the typist is not imported
   * (deleted in Maarch). Then the fallback also becomes the record's typist: an id Mailroom may give a new
   * user one day must not open someone else's records to them.
   */
  async #depositor(
    typist: number,
    resId: number,
    dryRun: boolean,
    problems: string[],
  ): Promise<{ actor: Actor | null; replaced: boolean }> {
    const actor = await this.#actor(typist)
    if (actor !== null || (dryRun && this.#sourceUsers.has(typist))) return { actor, replaced: false }
    const fallback = this.#fallback
    if (!fallback.willExist) {
      if (!dryRun) fail('MAARCH_DEPOSITOR_UNKNOWN', { login: fallback.login, resId, typist })
      problems.push(
        `typist ${typist} is not imported and the fallback depositor ${fallback.login} does not exist: the import stops here; name one with --depositor`,
      )
      return { actor: null, replaced: false }
    }
    problems.push(`typist ${typist} is not imported (deleted in Maarch?): recorded and deposited as ${fallback.login}`)
    return { actor: fallback.actor, replaced: true }
  }

  async #file(
    docserverId: string,
    path: string,
    filename: string,
  ): Promise<{ file: string; bytes: Buffer | null; mode: string | null }> {
    const docserver = this.#docservers.get(docserverId)
    const file = docserver
      ? maarchFilePath(this.#options.docservers, docserverId, docserver.pathTemplate, path, filename)
      : null
    return {
      file: file ?? `${docserverId}:${path}${filename}`,
      bytes: await readIfPresent(file),
      mode: docserver?.mode ?? null,
    }
  }

  async #actor(userId: number): Promise<Actor | null> {
    if (!this.#actors.has(userId)) this.#actors.set(userId, await this.#target.actor(userId).catch(() => null))
    return this.#actors.get(userId) ?? null
  }

  /** The rows that hang off a few records, read in one query per table and grouped by record. */
  related(resIds: readonly number[]): Promise<Related> {
    return relatedOf(this.#source, resIds)
  }

  /**
   * One record read from the source: its files read and checked, its depositor found, its report written.
   * Nothing is written; {@link store} then stores its files.
   */
  async prepareRecord(row: MaarchRow, related: Related, dryRun: boolean): Promise<PreparedRecord> {
    const resId = Number(row.res_id)
    const problems: string[] = []
    const original = await this.#readOriginal(row, problems)
    const versions = await this.#readVersions(related.adr.get(resId) ?? [], problems)
    const attachments = await this.#readAttachments(related.attachments.get(resId) ?? [], problems)
    // The deposit is made in the name of the record's typist, as its creation was.
    const typist = Number(row.typist)
    const { actor, replaced } = await this.#depositor(typist, resId, dryRun, problems)
    const report: RecordReport = {
      resId,
      chrono: text(row.alt_identifier) ?? null,
      ...(original ? { file: original.report } : {}),
      ...(versions.length > 0 ? { versions: versions.map(({ type, version }) => ({ type, version })) } : {}),
      ...(attachments.length > 0
        ? { attachments: attachments.map((a) => ({ resId: Number(a.row.res_id), fingerprint: a.fingerprint })) }
        : {}),
      ...(replaced ? { depositor: { typist, login: this.#fallback.login } } : {}),
      ...(problems.length > 0 ? { problems } : {}),
    }
    return { row, report, original, versions, attachments, typist, actor, replaced, problems }
  }

  /**
   * Stores a prepared record's files (durable when it resolves) and returns every row of it, ready to be
   * inserted; `written` gets each stored file, also when it fails, for the caller to remove.
   */
  async store(prepared: PreparedRecord, related: Related, written: StoredDocument[]): Promise<ImportedRecord> {
    const { row, original, versions, attachments, typist, actor, replaced, problems } = prepared
    const resId = Number(row.res_id)
    const created = dateOf(row.creation_date)
    // The record's files at once: their fsyncs overlap, and files of one folder share its fsync.
    const [stored, versionRows, attachmentRows] = await Promise.allSettled([
      original ? this.#storeOriginal(row, original.bytes, created, written) : null,
      this.#storeVersions(versions, created, written),
      this.#storeAttachments(attachments, written),
    ]).then(([a, b, c]) => [outcomeValue(a), outcomeValue(b), outcomeValue(c)] as const)
    const findings: RecordFindings = {
      original: stored,
      flagged: original?.report.fingerprint === 'mismatch' || (Boolean(row.filename) && stored === null),
      problems,
      replacement: replaced && actor ? { typist, by: actor.id } : null,
    }
    return {
      ...this.#listsOf(resId, related),
      record: recordRow(row, findings),
      versions: versionRows,
      attachments: attachmentRows.map((a) => a.row),
      attachmentDeposits: actor
        ? attachmentRows.flatMap(({ row: attachment, stored }) =>
            stored
              ? [
                  {
                    destination: text(row.destination) ?? null,
                    sha256: stored.sha256,
                    size: stored.size,
                    actor,
                    provenance: `imported from Maarch Courrier ${this.#source.version} attachment ${attachment.res_id}`,
                  },
                ]
              : [],
          )
        : [],
      history: historyRows(
        related.history.get(resId) ?? [],
        importHistoryRow(this.#source.version, problems, new Date()),
      ),
      deposit: original && stored && actor ? this.#deposit(row, original, stored, actor) : null,
    }
  }

  /**
   * Every row of a batch's records, one statement per table, and `then` (the batch marked committed), in one
   * transaction: the batch is committed whole or not at all.
   */
  insertBatch(
    db: Kysely<Database>,
    records: readonly ImportedRecord[],
    then: (trx: Transaction<Database>) => Promise<void>,
  ): Promise<void> {
    return this.#journal.committing((rows) =>
      db.transaction().execute(async (trx) => {
        await insertImportedRecords(trx, this.#journal, rows, records)
        await then(trx)
      }),
    )
  }

  /** Inserts one record's rows and its deposits in the batch's transaction (behind a savepoint). */
  insert(trx: Transaction<Database>, imported: ImportedRecord): Promise<void> {
    return insertImportedRecord(trx, this.#journal, imported)
  }

  /**
   * One record on its own, as a delta run imports a record new since: prepared, its files stored, then its rows
   * written as a batch of one in one transaction (not noted in import_batches: it is no range of res_ids). A
   * failure removes its files.
   */
  async importRecord(row: MaarchRow, related: Related, dryRun: boolean): Promise<RecordReport> {
    const prepared = await this.prepareRecord(row, related, dryRun)
    if (dryRun) return prepared.report
    const written: StoredDocument[] = []
    try {
      const imported = await this.store(prepared, related, written)
      await this.insertBatch(this.#target.db, [imported], async () => {})
    } catch (error) {
      await this.remove(written.map((f) => f.key))
      throw error
    }
    return prepared.report
  }

  /** Removes stored files that no committed row names (a batch that failed, a refused record). */
  async remove(keys: readonly string[]): Promise<void> {
    for (const key of keys) await this.#writer.remove(key).catch(() => {})
  }

  /** The record's original as Maarch stored it, checked against its fingerprint; null (and a problem) when missing. */
  async #readOriginal(row: MaarchRow, problems: string[]): Promise<OriginalFile | null> {
    if (!row.filename || !row.docserver_id) return null
    const found = await this.#file(String(row.docserver_id), String(row.path ?? ''), String(row.filename))
    if (found.bytes === null) {
      problems.push(`original ${found.file} not found: imported without its file`)
      return null
    }
    const check = checkFingerprint(found.bytes, found.mode, text(row.fingerprint) ?? null)
    if (check.check === 'mismatch')
      problems.push(`fingerprint mismatch: source ${String(row.fingerprint)}, file ${check.computed} (${check.mode})`)
    const report = {
      source: found.file,
      size: found.bytes.length,
      fingerprint: check.check,
      mode: check.mode,
      computed: check.computed,
    }
    return { bytes: found.bytes, report }
  }

  /** The record's converted versions (adr_letterbox) found; a missing one is regenerated when read. */
  async #readVersions(adr: readonly MaarchRow[], problems: string[]): Promise<VersionFile[]> {
    const versions: VersionFile[] = []
    for (const a of adr) {
      const found = await this.#file(String(a.docserver_id), String(a.path), String(a.filename))
      if (found.bytes === null)
        problems.push(
          `${String(a.type)} version ${String(a.version)} ${found.file} not found: regenerated by conversion when read`,
        )
      else versions.push({ type: String(a.type), version: Number(a.version), bytes: found.bytes })
    }
    return versions
  }

  /** Stores the original in the DOC area (without one it is not stored: the record is flagged); `written` gets the file. */
  async #storeOriginal(
    row: MaarchRow,
    bytes: Buffer,
    created: Date,
    written: StoredDocument[],
  ): Promise<StoredOriginal | null> {
    const area = this.#areas.get('DOC')
    if (area === undefined) return null
    const format = String(row.format ?? (extname(String(row.filename ?? '')).slice(1) || 'pdf')).toLowerCase()
    // The storage names files by a safe extension only; a format Maarch let through otherwise keeps its column.
    const extension = /^[a-z0-9]{1,10}$/.test(format) ? format : 'bin'
    const document = await this.#writer.write(area.pathTemplate, extension, bytes, created)
    written.push(document)
    return { area, format, document }
  }

  /** Stores the converted versions in the CONVERT area (else the DOC one); `written` gets each file. */
  async #storeVersions(
    versions: readonly VersionFile[],
    created: Date,
    written: StoredDocument[],
  ): Promise<ImportedVersionRow[]> {
    return settled(
      versions.map(async (v): Promise<ImportedVersionRow> => {
        const area = this.#areas.get('CONVERT') ?? this.#areas.get('DOC')
        if (area === undefined) fail('NO_WRITABLE_DOCSERVER')
        const document = await this.#writer.write(area.pathTemplate, 'pdf', v.bytes, created)
        written.push(document)
        return {
          type: v.type,
          version: v.version,
          docserver_id: area.docserverId,
          path: document.path,
          filename: document.filename,
          fingerprint: document.sha256,
          filesize: document.size,
        }
      }),
    )
  }

  /** The record's attachments and their files, each checked against its fingerprint; a file not found is reported. */
  async #readAttachments(rows: readonly MaarchRow[], problems: string[]): Promise<AttachmentFile[]> {
    const files: AttachmentFile[] = []
    for (const row of rows) {
      const id = Number(row.res_id)
      const found =
        row.filename && row.docserver_id
          ? await this.#file(String(row.docserver_id), String(row.path ?? ''), String(row.filename))
          : null
      if (found === null || found.bytes === null) {
        problems.push(`attachment ${id} file ${found?.file ?? '(none named)'} not found: imported without its file`)
        files.push({ row, bytes: null, fingerprint: 'missing' })
        continue
      }
      const check = checkFingerprint(found.bytes, found.mode, text(row.fingerprint) ?? null)
      if (check.check === 'mismatch')
        problems.push(
          `attachment ${id} fingerprint mismatch: source ${String(row.fingerprint)}, file ${check.computed} (${check.mode})`,
        )
      files.push({ row, bytes: found.bytes, fingerprint: check.check })
    }
    return files
  }

  /** Stores the attachments' files in the attachments' area; `written` gets each file. */
  async #storeAttachments(
    attachments: readonly AttachmentFile[],
    written: StoredDocument[],
  ): Promise<{ row: ImportedAttachmentRow; stored: StoredDocument | null }[]> {
    const carried = new Set(attachments.map((a) => Number(a.row.res_id)))
    return settled(
      attachments.map(async (a) => {
        let stored: StoredDocument | null = null
        const area = this.#attachmentArea
        if (a.bytes !== null) {
          if (area === null) fail('NO_WRITABLE_DOCSERVER')
          const format = String(a.row.format ?? 'pdf').toLowerCase()
          const extension = /^[a-z0-9]{1,10}$/.test(format) ? format : 'bin'
          stored = await this.#writer.write(area.pathTemplate, extension, a.bytes, dateOf(a.row.creation_date))
          written.push(stored)
        }
        const row = attachmentRow(a.row, stored && area ? { area: area.docserverId, stored } : null)
        // A version whose first one was deleted in Maarch (and so stays behind) keeps its relation, not the link.
        const origin = row.origin_id != null && !carried.has(Number(row.origin_id)) ? { origin_id: null } : {}
        return { row: { ...row, ...origin }, stored }
      }),
    )
  }

  /** The record's diffusion list, senders and recipients, tags and folders, as Maarch had them. */
  #listsOf(
    resId: number,
    related: Related,
  ): Pick<ImportedRecord, 'diffusion' | 'contacts' | 'tagIds' | 'folderIds' | 'notes'> {
    const of = (table: keyof Related) => related[table].get(resId) ?? []
    return {
      diffusion: diffusionRows(of('listinstance')),
      contacts: contactRows(of('contacts')),
      tagIds: of('tags').map((t) => Number(t.tag_id)),
      folderIds: of('folders').map((f) => Number(f.folder_id)),
      notes: noteRows(of('notes')),
    }
  }

  /** The stored original's deposit in the digital safe, saying where it came from and its source fingerprint. */
  #deposit(row: MaarchRow, original: OriginalFile, stored: StoredOriginal, actor: Actor): ImportedRecord['deposit'] {
    const resId = Number(row.res_id)
    return {
      destination: text(row.destination) ?? null,
      sha256: stored.document.sha256,
      size: stored.document.size,
      actor,
      provenance:
        `imported from Maarch Courrier ${this.#source.version} record ${resId}, source fingerprint ${original.report.mode} ${String(row.fingerprint ?? '')}`.trim(),
    }
  }

  /** What importRecord reads and stores, for the delta import to carry changes onto records imported before. */
  get parts(): ImporterParts {
    return {
      sourceVersion: this.#source.version,
      journal: this.#journal,
      readOriginal: (row, problems) => this.#readOriginal(row, problems),
      readVersions: (adr, problems) => this.#readVersions(adr, problems),
      readAttachments: (rows, problems) => this.#readAttachments(rows, problems),
      storeOriginal: (row, bytes, created, written) => this.#storeOriginal(row, bytes, created, written),
      storeVersions: (versions, created, written) => this.#storeVersions(versions, created, written),
      storeAttachments: (attachments, written) => this.#storeAttachments(attachments, written),
      depositor: (typist, resId, dryRun, problems) => this.#depositor(typist, resId, dryRun, problems),
      remove: async (written) => {
        for (const s of written) await this.#writer.remove(s.key).catch(() => {})
      },
    }
  }

  /** Moves the record id sequence and the chrono counters past everything imported. */
  async finish(): Promise<{ counter: string; value: number }[]> {
    const db = this.#target.db
    await moveRecordIdsPastHighest(db)
    const counters = new Map<string, number>()
    for (const p of await this.#source.rows(
      `select id, param_value_int from parameters where id like 'chrono\\_%' and param_value_int is not null`,
    )) {
      counters.set(String(p.id), Number(p.param_value_int))
    }
    // Numbers already given count too, whatever the counters say (MAARCH/2020A/12: incoming, 2020, 12).
    const letters: Record<string, string> = { A: 'incoming', D: 'outgoing', I: 'internal', E: 'ged_doc' }
    for (const { year, letter, value } of await highestChronoNumbers(db)) {
      const category = letters[letter]
      if (category === undefined) continue
      const key = `chrono_${category}_${year}`
      counters.set(key, Math.max(counters.get(key) ?? 0, value))
    }
    const out: { counter: string; value: number }[] = []
    for (const [counter, value] of [...counters].sort()) {
      await raiseChronoCounter(db, counter, value)
      out.push({ counter, value })
    }
    return out
  }
}
