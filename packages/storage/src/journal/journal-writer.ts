import type { Actor, Clock, JournalEvent, SafeDirectory } from '@mailroom/core'
import { createJournalRecorder, type JournalRecorder, type PendingJournalEvent } from '@mailroom/core/internal'
import { type Insertable, type Kysely, sql } from 'kysely'
import type { Database, JournalArchivesTable } from '../database/schema.js'
import { type Logger, SILENT_LOGGER } from '../logger.js'
import { BackgroundSealer } from './background-sealer.js'
import { eventToRow, loadSafeDirectory, sha256Hex } from './journal-rows.js'
import {
  eventToPendingRow,
  type LockedHead,
  linkPending,
  lockHead,
  moveHead,
  SEAL_BATCH_SIZE,
  sealJournal,
} from './journal-sealer.js'
import { pooledRandomBytes } from './random-pool.js'

/** A record's archive: its files' events, in one safe. */
interface JournalArchive {
  readonly archiveId: string
  readonly safe: string
}

/** A journal_archives row about to be inserted. */
type NewArchiveRow = Insertable<JournalArchivesTable> & { readonly archive_id: string; readonly safe: string }

/** A journal_pending row about to be inserted. */
export type PendingJournalRow = ReturnType<typeof eventToPendingRow>

/** A new record's deposit, ready to be inserted by the caller (see {@link JournalRowsOfCommit.prepareDeposit}). */
export interface PreparedDeposit {
  /** The record the deposit names. */
  readonly resId: number
  readonly safe: string
  readonly archive: NewArchiveRow
  readonly pending: PendingJournalRow
}

/** A stored file entering the journal: on creation ('deposit') or as a new version ('newResource'). */
export interface JournalDepositRequest {
  readonly resId: number
  /** entity_id of the record's destination (null: none). */
  readonly destination: string | null
  /** Lower-case hex SHA-256 of the stored bytes. */
  readonly sha256: string
  readonly size: number
  readonly actor: Actor
  readonly kind: 'deposit' | 'newResource'
  /** Where the file came from when not from a create (an import, with its source fingerprint): in the event's description. */
  readonly provenance?: string
}

/** A record's content was served. */
export interface JournalConsultationRequest {
  readonly resId: number
  readonly sha256: string
  readonly size: number
  readonly actor: Actor
}

/** A record's file was checked against its fingerprint; `sha256`/`size` are the stored (expected) ones. */
export interface JournalIntegrityCheckRequest extends JournalConsultationRequest {
  readonly ok: boolean
  /** What went wrong when `ok` is false (ignored when true: core writes `Checking succeeded`). */
  readonly info: string
}

/** A read of a safe's journal. */
export interface JournalReadRequest {
  readonly safe: string
  /** The organisation read: the query's originatorOrgRegNumber, else the safe. */
  readonly organizationRegNumber: string
  readonly actor: Actor
}

/**
 * Journal rows a caller inserts in a statement of its own, prepared inside {@link JournalWriter.committing}:
 * the writer learns of every safe they go to when that commit is done, so none waits for the sweep.
 */
export interface JournalRowsOfCommit {
  /**
   * The rows of a new record's deposit (its archive and its pending event), built without touching the
   * database so that they go in with the statement that inserts the record.
   */
  prepareDeposit(directory: SafeDirectory, request: Omit<JournalDepositRequest, 'kind'>): PreparedDeposit
  /**
   * The pending rows of many consultations, in the order given (records never deposited are skipped), after
   * one archive lookup: reads that finish together share one statement (see ReadAudit).
   */
  consultationRows(
    db: Kysely<Database>,
    requests: readonly JournalConsultationRequest[],
  ): Promise<readonly PendingJournalRow[]>
}

/** Effects the writer needs; defaults are the system clock and node:crypto. */
export interface JournalWriterOptions {
  readonly clock?: Clock
  /** Event and archive identifiers (`mailroom_<unique>`). */
  readonly newId?: () => string
  /**
   * The database background seals run on (the writer's methods only ever get a caller's transaction). Without
   * it nothing is sealed in the background: call {@link JournalWriter.seal} yourself.
   */
  readonly db?: Kysely<Database>
  /** Where background seal failures go (default: dropped). */
  readonly logger?: Logger
  /**
   * Debounce between a write and its background seal (default 100 ms). Reads seal first, so it delays no
   * answer; longer batches cost fewer round trips per event (at 16 concurrent creates, 100 ms against 15 ms
   * took about a tenth off the server's and PostgreSQL's CPU per create).
   */
  readonly sealDelayMs?: number
  /** Period of the sweep sealing every safe's leftovers (default 1500 ms; 0 disables it). */
  readonly sweepIntervalMs?: number
}

/**
 * The only code that appends to the digital-safe journal. Every method runs inside the CALLER's transaction
 * (`trx`), so that an event exists exactly when the change it records is committed. Core's recorder
 * (`createJournalRecorder`) words every event and places it on its chain; the writer finds archives, persists
 * rows and seals.
 *
 * Writing and chaining are two steps. deposit, consultation and integrityCheck write the complete event into
 * journal_pending, taking no lock: concurrent creates of one safe do not wait for each other's commit. A seal
 * ({@link sealJournal}) later links committed pending events into the safe's hash chain under the lock of its
 * journal_heads row (the chain's checkpoint), in short transactions of its own: a debounced background seal
 * shortly after each write, a periodic sweep (also sealing other servers' and crashed processes' leftovers),
 * every journal read (journalRead seals first, so a read sees every committed event) and `journal verify`.
 * The writer's own background work ({@link BackgroundSealer}) needs the `db` option; {@link JournalWriter.close}
 * ends it. Rows a caller inserts in its own statement are prepared inside {@link JournalWriter.committing},
 * which tells the background sealer once that statement has committed.
 */
export class JournalWriter {
  readonly #clock: Clock
  readonly #recorder: JournalRecorder
  /** Background sealing; null without the `db` option (seal yourself then). */
  readonly #sealer: BackgroundSealer | null

  constructor(options: JournalWriterOptions = {}) {
    this.#clock = options.clock ?? { now: () => new Date() }
    this.#recorder = createJournalRecorder({
      sha256Hex,
      clock: this.#clock,
      randomBytes: pooledRandomBytes(),
      ...(options.newId ? { newEventId: options.newId } : {}),
    })
    this.#sealer =
      options.db === undefined
        ? null
        : new BackgroundSealer(options.db, {
            logger: options.logger ?? SILENT_LOGGER,
            sealDelayMs: Math.max(0, options.sealDelayMs ?? 100),
            sweepIntervalMs: options.sweepIntervalMs ?? 1500,
          })
  }

  /**
   * Journals a stored file. 'deposit' opens a new archive (generated archiveId, journal_archives row in the
   * safe of the destination) with a `recordsManagement/deposit` event; 'newResource' appends
   * `recordsManagement/depositNewResource` to the record's archive, opening one first when it has none.
   */
  async deposit(trx: Kysely<Database>, request: JournalDepositRequest): Promise<void> {
    const directory = await loadSafeDirectory(trx)
    let archive = request.kind === 'newResource' ? await this.#archiveOf(trx, request.resId) : null
    // A new archive's row goes in with its first event, in one statement.
    let opened: NewArchiveRow | null = null
    if (archive === null) {
      opened = this.#newArchive(directory, request.resId, request.destination)
      archive = { archiveId: opened.archive_id, safe: opened.safe }
    }
    const found = archive
    await this.#write(
      trx,
      found.safe,
      () => this.#recorder.fileEntered(directory, found, request, request.kind),
      opened,
    )
  }

  /**
   * The pending row of a file joining a known archive (`recordsManagement/depositNewResource`: an attachment's
   * file in its master record's archive), built without touching the database, for the caller to insert in its
   * own statement. The sealer is told now, as for every pending row (its sweep catches a slow commit).
   */
  newResourceRow(
    directory: SafeDirectory,
    archive: JournalArchive,
    request: Omit<JournalDepositRequest, 'kind'>,
  ): PendingJournalRow {
    const event = this.#recorder.fileEntered(directory, archive, request, 'newResource')
    this.#sealer?.written(archive.safe)
    return eventToPendingRow(event)
  }

  /**
   * Runs `commit`, the caller's statement or transaction that inserts journal rows prepared with the handle it
   * is given, and once it has resolved (committed) has the safes those rows go to sealed soon. Rows are
   * prepared through this handle only, so none can be committed without the writer knowing; the handle
   * refuses to prepare once `commit` has ended. A failed commit announces nothing (nothing was committed).
   */
  async committing<T>(commit: (rows: JournalRowsOfCommit) => Promise<T>): Promise<T> {
    const safes = new Set<string>()
    let open = true
    const assertOpen = () => {
      if (!open) throw new Error('journal rows prepared after their commit ended: prepare them inside committing()')
    }
    const rows: JournalRowsOfCommit = {
      prepareDeposit: (directory, request) => {
        assertOpen()
        const prepared = this.#prepareDeposit(directory, request)
        safes.add(prepared.safe)
        return prepared
      },
      consultationRows: async (db, requests) => {
        assertOpen()
        const consultations = await this.#consultationRows(db, requests)
        assertOpen()
        for (const safe of consultations.safes) safes.add(safe)
        return consultations.rows
      },
    }
    try {
      const result = await commit(rows)
      for (const safe of safes) this.#sealer?.written(safe)
      return result
    } finally {
      open = false
    }
  }

  #prepareDeposit(directory: SafeDirectory, request: Omit<JournalDepositRequest, 'kind'>): PreparedDeposit {
    const archive = this.#newArchive(directory, request.resId, request.destination)
    const found = { archiveId: archive.archive_id, safe: archive.safe }
    const event = this.#recorder.fileEntered(directory, found, request, 'deposit')
    return { resId: request.resId, safe: found.safe, archive, pending: eventToPendingRow(event) }
  }

  /** Journals a consultation of the record's content; does nothing when the record was never deposited. */
  async consultation(trx: Kysely<Database>, request: JournalConsultationRequest): Promise<void> {
    await this.#writeResourceEvent(trx, request, (archive) => this.#recorder.consultation(archive, request))
  }

  /** The pending rows of many consultations and the safes they go to (see JournalRowsOfCommit). */
  async #consultationRows(
    db: Kysely<Database>,
    requests: readonly JournalConsultationRequest[],
  ): Promise<{ readonly rows: readonly PendingJournalRow[]; readonly safes: readonly string[] }> {
    if (requests.length === 0) return { rows: [], safes: [] }
    const archives = await this.#archivesOf(
      db,
      requests.map((r) => r.resId),
    )
    const rows: PendingJournalRow[] = []
    const safes = new Set<string>()
    for (const request of requests) {
      const archive = archives.get(request.resId)
      if (!archive) continue
      const event = this.#recorder.consultation(archive, request)
      rows.push(eventToPendingRow(event))
      safes.add(archive.safe)
    }
    return { rows, safes: [...safes] }
  }

  /** Journals an integrity check (operationResult false when `ok` is false); no-op without an archive. */
  async integrityCheck(trx: Kysely<Database>, request: JournalIntegrityCheckRequest): Promise<void> {
    await this.#writeResourceEvent(trx, request, (archive) => this.#recorder.integrityCheck(archive, request))
  }

  /** Writes an event about one resource of the record's archive (consultation, integrity check). */
  async #writeResourceEvent(
    trx: Kysely<Database>,
    request: JournalConsultationRequest,
    build: (archive: JournalArchive) => PendingJournalEvent,
  ): Promise<void> {
    const archive = await this.#archiveOf(trx, request.resId)
    if (archive === null) return
    await this.#write(trx, archive.safe, () => build(archive))
  }

  /**
   * Journals a read of a safe's journal as `organization/journal` (orgName: the label of the organisation
   * read when it is an entity, else ''; ownerOrgId: the safe). Unlike the other events it is chained at once,
   * after sealing every pending event of the safe committed so far, holding the head lock to the end of
   * `trx`. Returns the appended event: reads answer with the events that precede it.
   */
  async journalRead(trx: Kysely<Database>, request: JournalReadRequest): Promise<JournalEvent> {
    const entity = await trx
      .selectFrom('entities')
      .select('entity_label')
      .where('entity_id', '=', request.organizationRegNumber)
      .executeTakeFirst()
    return this.#append(trx, request.safe, (head) =>
      this.#recorder.journalRead(head, {
        organizationRegNumber: request.organizationRegNumber,
        orgName: entity?.entity_label ?? '',
        actor: request.actor,
      }),
    )
  }

  /** The record's archive: the most recently opened one when a record was deposited more than once. */
  async #archiveOf(trx: Kysely<Database>, resId: number): Promise<{ archiveId: string; safe: string } | null> {
    const row = await trx
      .selectFrom('journal_archives')
      .select(['archive_id', 'safe'])
      .where('res_id', '=', resId)
      .orderBy('created_at', 'desc')
      .orderBy(sql`archive_id collate "C"`, 'desc')
      .executeTakeFirst()
    return row ? { archiveId: row.archive_id, safe: row.safe } : null
  }

  /** The archive of each record (as #archiveOf: the most recently opened one), in one query. */
  async #archivesOf(
    trx: Kysely<Database>,
    resIds: readonly number[],
  ): Promise<Map<number, { archiveId: string; safe: string }>> {
    const rows = await trx
      .selectFrom('journal_archives')
      .distinctOn('res_id')
      .select(['res_id', 'archive_id', 'safe'])
      .where('res_id', '=', sql<number>`any(${sql.val([...new Set(resIds)])}::bigint[])`)
      .orderBy('res_id')
      .orderBy('created_at', 'desc')
      .orderBy(sql`archive_id collate "C"`, 'desc')
      .execute()
    return new Map(rows.map((r) => [Number(r.res_id), { archiveId: r.archive_id, safe: r.safe }]))
  }

  /** The journal_archives row of a record's new archive, in the safe of its destination. */
  #newArchive(directory: SafeDirectory, resId: number, destination: string | null): NewArchiveRow {
    const { archiveId, safe } = this.#recorder.newArchive(directory, destination)
    return { archive_id: archiveId, safe, res_id: resId, created_at: this.#clock.now() }
  }

  /**
   * Writes one archive event of a safe into journal_pending, in the caller's transaction and without any lock:
   * core's recorder words it without a chain position (position and hash are set when it is sealed), and the
   * safe is marked for the next background seal.
   */
  async #write(
    trx: Kysely<Database>,
    safe: string,
    build: () => PendingJournalEvent,
    newArchive: Insertable<JournalArchivesTable> | null = null,
  ): Promise<void> {
    const event = build()
    const pending = eventToPendingRow(event)
    if (newArchive)
      await trx
        .with('archive', (db) => db.insertInto('journal_archives').values(newArchive))
        .insertInto('journal_pending')
        .values(pending)
        .execute()
    else await trx.insertInto('journal_pending').values(pending).execute()
    // Told before the caller's commit: the drain seals a safe that had something once more, and the sweep
    // catches a commit slower than that.
    this.#sealer?.written(safe)
  }

  /**
   * Appends one event straight to a safe's chain under the lock of its head row, after sealing every pending
   * event of the safe committed so far, so that the event follows all of them.
   */
  async #append(trx: Kysely<Database>, safe: string, build: (head: LockedHead) => JournalEvent): Promise<JournalEvent> {
    let head = await lockHead(trx, safe)
    for (;;) {
      const linked = await linkPending(trx, head, SEAL_BATCH_SIZE)
      head = linked.head
      if (linked.count < SEAL_BATCH_SIZE) break
    }
    const event = build(head)
    await trx.insertInto('journal_events').values(eventToRow(event)).execute()
    await moveHead(trx, { safe, sequence: event.sequence, hash: event.hash, timestamp: event.timestamp })
    return event
  }

  /**
   * Links the committed pending events of `safe` (default: every safe) into their chains now, in the given
   * database (not a transaction of the caller's: each batch commits on its own). Returns how many were sealed.
   */
  seal(db: Kysely<Database>, safe?: string): Promise<number> {
    return sealJournal(db, safe === undefined ? {} : { safe })
  }

  /**
   * Seals every committed pending event of the writer's database, after any background seal in flight; errors
   * are thrown. Needs the `db` option (no-op without it).
   */
  async flush(): Promise<void> {
    await this.#sealer?.flush()
  }

  /** Stops background sealing, then seals what is left (errors logged): call before closing the database. */
  async close(): Promise<void> {
    await this.#sealer?.close()
  }
}
