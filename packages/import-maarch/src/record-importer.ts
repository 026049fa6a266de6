import { type Actor, fail } from '@mailroom/core'
import {
  type Database,
  FolderDocumentStore,
  highestChronoNumbers,
  type ImportedRecord,
  insertImportedRecord,
  insertImportedRecords,
  JournalWriter,
  moveRecordIdsPastHighest,
  raiseChronoCounter,
  type StoredDocument,
} from '@mailroom/storage'
import type { Kysely, Transaction } from 'kysely'
import { DEFAULT_FALLBACK_DEPOSITOR, type MaarchImportOptions, type MaarchImportTarget } from './import-options.js'
import type { ImporterParts } from './importer-parts.js'
import {
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
import { type AttachmentFile, type OriginalFile, RecordFiles, type VersionFile } from './record-files.js'
import { type Related, relatedOf } from './related-rows.js'
import type { RecordReport } from './report.js'
import { outcomeValue } from './settled.js'
import type { MaarchSource } from './source.js'

/** A record read from the source, ready to be stored: its files' bytes, its depositor, its report. */
export interface PreparedRecord {
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

/** How the report lists an imported record. */
export function outcomeOf(row: MaarchRow, report: RecordReport): 'imported' | 'repaired' | 'flagged' {
  if (report.file?.fingerprint === 'mismatch' || (row.filename && !report.file)) return 'flagged'
  if (report.attachments?.some((a) => a.fingerprint === 'mismatch' || a.fingerprint === 'missing')) return 'flagged'
  if (report.file?.fingerprint === 'computed' || (report.problems?.length ?? 0) > 0) return 'repaired'
  return 'imported'
}

/**
 * A record's import, step by step: reads a record's files and finds its depositor ({@link prepareRecord}), stores its
 * files ({@link store}), writes the rows of a batch of them ({@link insertBatch}); then moves the id sequence and
 * the chrono counters past what was imported ({@link finish}).
 */
export class RecordImporter {
  readonly #source: MaarchSource
  readonly #target: MaarchImportTarget
  readonly #options: MaarchImportOptions
  readonly #files: RecordFiles
  readonly #journal = new JournalWriter()
  readonly #actors = new Map<number, Actor | null>()
  /** Ids of the source's users the organisation brings over (for a dry run, where it is not applied). */
  #sourceUsers = new Set<number>()
  #fallback: { readonly login: string; readonly actor: Actor | null; readonly willExist: boolean } = {
    login: DEFAULT_FALLBACK_DEPOSITOR,
    actor: null,
    willExist: false,
  }

  constructor(source: MaarchSource, target: MaarchImportTarget, options: MaarchImportOptions) {
    this.#source = source
    this.#target = target
    this.#options = options
    const writer =
      target.documentStore ??
      (options.docserverDir === undefined ? undefined : new FolderDocumentStore(options.docserverDir))
    if (!writer) throw new Error("importMaarch needs the target's documentStore or docserverDir")
    this.#files = new RecordFiles(options.docservers, writer)
  }

  async prepare(): Promise<void> {
    await this.#files.prepare(this.#source, this.#target.db)
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
    const original = await this.#files.readOriginal(row, problems)
    const versions = await this.#files.readVersions(related.adr.get(resId) ?? [], problems)
    const attachments = await this.#files.readAttachments(related.attachments.get(resId) ?? [], problems)
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
      original ? this.#files.storeOriginal(row, original.bytes, created, written) : null,
      this.#files.storeVersions(versions, created, written),
      this.#files.storeAttachments(attachments, written),
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
      await this.#files.remove(written.map((f) => f.key))
      throw error
    }
    return prepared.report
  }

  /** Removes stored files that no committed row names (a batch that failed, a refused record). */
  remove(keys: readonly string[]): Promise<void> {
    return this.#files.remove(keys)
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
    const files = this.#files
    return {
      sourceVersion: this.#source.version,
      journal: this.#journal,
      readOriginal: (row, problems) => files.readOriginal(row, problems),
      readVersions: (adr, problems) => files.readVersions(adr, problems),
      readAttachments: (rows, problems) => files.readAttachments(rows, problems),
      storeOriginal: (row, bytes, created, written) => files.storeOriginal(row, bytes, created, written),
      storeVersions: (versions, created, written) => files.storeVersions(versions, created, written),
      storeAttachments: (attachments, written) => files.storeAttachments(attachments, written),
      depositor: (typist, resId, dryRun, problems) => this.#depositor(typist, resId, dryRun, problems),
      remove: (written) => files.remove(written.map((s) => s.key)),
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
