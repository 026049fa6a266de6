import {
  type Actor,
  type ChronoPlan,
  type CreatePreparation,
  domainError,
  type EarlierReferenceFacts,
  type EarlierReferenceQuery,
  type NewRecord,
  type NewRecordFile,
  type PreparedChronoMerge,
  type RecordReferenceFacts,
  type RecordReferenceQuery,
  type RecordsRepository,
  type RecordTreeEntity,
  type SafeDirectory,
  type StagedFile,
} from '@mailroom/core'
import { buildSafeDirectory, chronoPlan } from '@mailroom/core/internal'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocumentStore, StoredDocument } from '../docserver/document-store.js'
import { removeUnclaimedFile, rowsAfterFile, type WrittenFiles } from '../docserver/file-then-rows.js'
import { StorageAreaCache, type WritableStorageArea } from '../docserver/storage-areas.js'
import { loadSafeDirectory } from '../journal/journal-rows.js'
import type { JournalRowsOfCommit, PreparedDeposit } from '../journal/journal-writer.js'
import type { StorageContext } from '../storage-context.js'
import { insertRecordQuery, type RecordColumnValues } from './insert-record-statement.js'
import { lookupEarlierReferences, lookupReferences, NEXT_RES_ID } from './lookup-references.js'
import { ReferenceCache } from './reference-cache.js'

/**
 * Failure points of a create, for tests that prove atomicity: each hook runs at its point and may throw.
 * Production code passes none. afterInsert and beforeCommit need a point inside a transaction, so a create
 * given either runs in one (as a create with a chrono does) instead of as a lone statement.
 */
export interface RecordCreateFaults {
  /**
   * After the file is durably in place: before the transaction starts, or inside it, after the chrono
   * counter moved, for an office file whose placeholder takes the chrono.
   */
  afterFileWrite?(document: StoredDocument): void | Promise<void>
  /** Inside the transaction, right after the statement inserting the record and all its rows. */
  afterInsert?(resId: number): void | Promise<void>
  /** Inside the transaction, after every row is written, just before COMMIT. */
  beforeCommit?(resId: number): void | Promise<void>
}

/** A file written by stageFile: the area it went to and where it lies, for the create that gets it. */
class StagedDocument implements StagedFile {
  readonly file: NewRecordFile
  readonly area: WritableStorageArea
  readonly document: StoredDocument
  readonly #remove: () => Promise<void>

  constructor(file: NewRecordFile, area: WritableStorageArea, document: StoredDocument, remove: () => Promise<void>) {
    this.file = file
    this.area = area
    this.document = document
    this.#remove = remove
  }

  discard(): Promise<void> {
    return this.#remove()
  }
}

/** A create without a prepared id or entity tree (callers other than the create use case). */
const NO_PREPARATION: CreatePreparation = { resId: null, entityTree: null }

/** What a create stores beside the record's own fields. */
interface StoredRow {
  /** Reserved id (a record with a file), else null: the identity column draws one. */
  readonly resId: number | null
  readonly chrono: string | null
  readonly area: WritableStorageArea | null
  readonly document: StoredDocument | null
  readonly deposit: PreparedDeposit | null
  readonly now: Date
}

/** One id of the records' identity sequence, for a create that was not prepared by the lookup. */
async function reserveResId(db: Kysely<Database>): Promise<number> {
  const result = await sql<{ id: number }>`select ${NEXT_RES_ID} as id`.execute(db)
  return Number(result.rows[0]?.id)
}

/** What is logged when the file of a failed or refused create could not be removed. */
const FAILED_CREATE_REMOVAL = 'could not remove the file of a failed create: mailroom fsck will'

/** History text of a creation (reference _DOC_ADDED in English). */
export const CREATION_HISTORY_INFO = 'Document added'

/**
 * Record creation over kysely and the file system. A create writes its file first (durably, see
 * DocumentStore.write), then every row in ONE statement, which PostgreSQL runs atomically by itself; a record
 * with a chrono wraps it in a transaction with the counter. If the rows fail the file is removed, and a crash
 * in between leaves an orphan file that `mailroom fsck` removes. Never a row without its file. The one
 * exception to the order is an office file that takes the record's chrono: it is written inside the
 * transaction, after the counter, with the same clean-up. Round trips per create: the reference lookup
 * (which also reserves the id and reads the entity tree) and this statement.
 */
export class KyselyRecordsRepository implements RecordsRepository {
  readonly #context: StorageContext
  readonly #writer: DocumentStore
  readonly #files: WrittenFiles
  readonly #faults: RecordCreateFaults
  /** The reference tables' rows create lookups read, kept while the database's reference version holds. */
  readonly #references = new ReferenceCache()
  /** Safe directories by the entity tree they were built from: the cached tree is the same array for many creates. */
  readonly #directories = new WeakMap<readonly RecordTreeEntity[], SafeDirectory>()
  /** Where originals go: the first writable DOC area of the letterbox collection. */
  readonly #areas = new StorageAreaCache()

  constructor(context: StorageContext, faults: RecordCreateFaults = {}) {
    this.#context = context
    this.#writer = context.docservers
    this.#files = { store: context.docservers, logger: context.logger }
    this.#faults = faults
  }

  lookupReferences(actor: Actor, query: RecordReferenceQuery): Promise<RecordReferenceFacts> {
    return lookupReferences(this.#context.db, actor, query, this.#references)
  }

  lookupEarlierReferences(query: EarlierReferenceQuery): Promise<EarlierReferenceFacts> {
    return lookupEarlierReferences(this.#context.db, query)
  }

  /**
   * Writes a record's file before the use case has checked the body, so that its fsyncs overlap the
   * reference lookup. Null for an office file with the chrono placeholder: its stored bytes are merged ones.
   */
  async stageFile(file: NewRecordFile): Promise<StagedFile | null> {
    if (this.#context.chronoMerger.prepare(file.format, file.bytes) !== null) return null
    const area = await this.#writableArea()
    const document = await this.#writer.write(area.pathTemplate, file.format, file.bytes, this.#context.clock.now())
    return new StagedDocument(file, area, document, () =>
      removeUnclaimedFile(this.#files, document, FAILED_CREATE_REMOVAL),
    )
  }

  async create(actor: Actor, record: NewRecord, preparation: CreatePreparation = NO_PREPARATION): Promise<number> {
    const now = this.#context.clock.now()
    const plan = record.chrono ? chronoPlan(record.category, now) : null
    // A file staged by this repository is already in place (stageFile); any other is not ours to use.
    const staged = preparation.stagedFile instanceof StagedDocument ? preparation.stagedFile : null
    if (preparation.stagedFile && staged === null) await preparation.stagedFile.discard()
    let area: WritableStorageArea | null = staged?.area ?? null
    let document: StoredDocument | null = staged?.document ?? null
    // An office file with the placeholder is stored with the chrono merged in (reference §2.2). Its bytes
    // depend on the chrono only when the record gets one; otherwise the field is emptied right away. A
    // staged file has none (stageFile leaves such files to this method).
    const merge =
      record.file && staged === null ? this.#context.chronoMerger.prepare(record.file.format, record.file.bytes) : null
    const mergeInTransaction = merge !== null && plan !== null
    // The QR code names the record, so a file asking for one needs the record's id before it is written.
    if (merge?.needsRecordId && preparation.resId === null)
      preparation = { ...preparation, resId: await reserveResId(this.#context.db) }
    const resIdMaster = preparation.resId
    const filled = (chronoMerge: PreparedChronoMerge, chrono: string) =>
      chronoMerge.fill({ chrono, resIdMaster, title: record.subject })
    if (record.file && staged === null) {
      area = await this.#writableArea()
      if (!mergeInTransaction) {
        const bytes = merge === null ? record.file.bytes : await filled(merge, '')
        document = await this.#writer.write(area.pathTemplate, record.file.format, bytes, now)
      }
    }
    // Read through the getter: the transaction below may write the file itself (a chrono merged in).
    const written = () => document as StoredDocument | null
    try {
      return await rowsAfterFile(
        this.#files,
        written,
        async () => {
          if (document) await this.#faults.afterFileWrite?.(document)
          const store = async (
            journal: JournalRowsOfCommit,
            db: Kysely<Database>,
            chrono: string | null,
            stored: StoredDocument | null,
          ) => {
            const deposit = stored ? await this.#prepareDeposit(journal, db, actor, record, stored, preparation) : null
            return this.#insertAll(db, actor, record, {
              resId: deposit?.resId ?? null,
              chrono,
              area,
              document: stored,
              deposit,
              now,
            })
          }
          // The journal seals the deposit soon after this statement or transaction has committed.
          return await this.#context.journal.committing(async (journal) => {
            if (plan === null && !this.#faults.afterInsert && !this.#faults.beforeCommit) {
              // Every row in one statement, which PostgreSQL runs atomically on its own: no BEGIN, no COMMIT.
              return store(journal, this.#context.db, null, document)
            }
            return this.#context.db.transaction().execute(async (trx) => {
              const chrono = plan ? await nextChrono(trx, plan) : null
              if (mergeInTransaction && area && record.file) {
                // The number is only known once the counter moved, so this file is written under the counter's
                // lock: concurrent creates of the category wait for its fsync, the price of gap-free numbers
                // inside the document. A rollback removes it like any other file (rowsAfterFile).
                document = await this.#writer.write(
                  area.pathTemplate,
                  record.file.format,
                  await filled(merge, chrono ?? ''),
                  now,
                )
                await this.#faults.afterFileWrite?.(document)
              }
              const resId = await store(journal, trx, chrono, document)
              await this.#faults.afterInsert?.(resId)
              await this.#faults.beforeCommit?.(resId)
              return resId
            })
          })
        },
        FAILED_CREATE_REMOVAL,
      )
    } catch (error) {
      this.#context.logger.error({ err: error }, 'record creation failed')
      throw error
    }
  }

  /**
   * The journal rows of a record with a file. The deposit event names the record, so the record has its id
   * before its row exists: the one the lookup reserved, else one drawn now.
   */
  async #prepareDeposit(
    journal: JournalRowsOfCommit,
    db: Kysely<Database>,
    actor: Actor,
    record: NewRecord,
    stored: StoredDocument,
    preparation: CreatePreparation,
  ): Promise<PreparedDeposit> {
    const resId = preparation.resId ?? (await reserveResId(db))
    const directory = preparation.entityTree ? this.#directoryOf(preparation.entityTree) : await loadSafeDirectory(db)
    return journal.prepareDeposit(directory, {
      resId,
      destination: record.destination,
      sha256: stored.sha256,
      size: stored.size,
      actor,
    })
  }

  #directoryOf(tree: readonly RecordTreeEntity[]): SafeDirectory {
    let directory = this.#directories.get(tree)
    if (directory === undefined) {
      directory = buildSafeDirectory(tree)
      this.#directories.set(tree, directory)
    }
    return directory
  }

  /** Every row of a create in one statement (see insertRecordQuery). */
  async #insertAll(db: Kysely<Database>, actor: Actor, record: NewRecord, row: StoredRow): Promise<number> {
    const query = insertRecordQuery({
      resId: row.resId,
      record: this.#recordValues(record, row),
      history: { userId: actor.id, date: row.now, info: CREATION_HISTORY_INFO },
      diffusion: record.diffusionList.map((item) => ({
        id: item.id,
        type: item.type === 'user' ? 'user_id' : 'entity_id',
        mode: item.mode,
      })),
      contacts: [
        ...record.senders.map((c) => ({ id: c.id, type: c.type, mode: 'sender' as const })),
        ...record.recipients.map((c) => ({ id: c.id, type: c.type, mode: 'recipient' as const })),
      ],
      folderIds: record.folders,
      tagIds: record.tags,
      followerId: record.followed ? actor.id : null,
      deposit: row.deposit,
    })
    const inserted = (await db.executeQuery(query)).rows[0]
    if (inserted === undefined) throw new Error('the create statement returned no record')
    return Number(inserted.res_id)
  }

  /** The record's columns; the ones not set here (lock, alarms, closing, links…) keep their defaults. */
  #recordValues(record: NewRecord, { chrono, area, document, now }: StoredRow): RecordColumnValues {
    return {
      model_id: record.modelId,
      category_id: record.category,
      // type_id is nullable since migration 0003 (doctype is optional in the interface).
      type_id: record.doctype,
      subject: record.subject,
      alt_identifier: chrono,
      typist: record.typist,
      status: record.status,
      destination: record.destination,
      initiator: record.initiator,
      dest_user: record.destUser,
      confidentiality: record.confidentiality ? 'Y' : 'N',
      doc_date: record.documentDate,
      admission_date: record.arrivalDate,
      departure_date: record.departureDate,
      process_limit_date: record.processLimitDate,
      priority: record.priority,
      barcode: record.barcode,
      external_id: JSON.stringify(record.externalId),
      custom_fields: JSON.stringify(record.customFields),
      // null leaves the column's default ('{}').
      integrations: record.integrations === null ? null : JSON.stringify(record.integrations),
      creation_date: now,
      modification_date: now,
      version: 1,
      format: record.file?.format ?? null,
      docserver_id: area?.docserverId ?? null,
      path: document?.path ?? null,
      filename: document?.filename ?? null,
      filesize: document?.size ?? null,
      fingerprint: document?.sha256 ?? null,
    }
  }

  /** The area new originals go to: the letterbox collection's first writable DOC area. */
  async #writableArea(): Promise<WritableStorageArea> {
    const area = await this.#areas.writable(this.#context.db, 'DOC')
    if (!area) throw domainError('NO_WRITABLE_DOCSERVER')
    return area
  }
}

/**
 * The next chrono number of a plan. The counter row stays locked until COMMIT: concurrent creates queue
 * here, and a rollback gives the number back, so numbers have no gap and no duplicate.
 */
export async function nextChrono(trx: Transaction<Database>, plan: ChronoPlan): Promise<string> {
  const counter = await trx
    .insertInto('chrono_counters')
    .values({ counter_id: plan.counterId, last_value: 1 })
    .onConflict((oc) =>
      oc.column('counter_id').doUpdateSet({ last_value: sql<number>`chrono_counters.last_value + 1` }),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow()
  return plan.format(counter.last_value)
}
