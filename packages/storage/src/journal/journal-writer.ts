import { randomBytes } from 'node:crypto'
import {
  type Actor,
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  buildNewResourceEvent,
  type Clock,
  chainPositionAfter,
  createJournalEventIdGenerator,
  displayName,
  fail,
  type JournalActor,
  type JournalBuilderDeps,
  type JournalChainPosition,
  type JournalEvent,
  primaryEntityOf,
  type SafeDirectory,
} from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { eventToRow, loadSafeDirectory, sha256Hex } from './journal-rows.js'

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

/** Effects the writer needs; defaults are the system clock and node:crypto. */
export interface JournalWriterOptions {
  readonly clock?: Clock
  /** Event and archive identifiers (`mailroom_<unique>`). */
  readonly newId?: () => string
}

/**
 * The only code that appends to the digital-safe journal. Every method runs inside the CALLER's transaction
 * (`trx`), so that an event exists exactly when the change it records is committed. Appends to one safe are
 * serialised by locking its journal_heads row (`for update`), which is also the chain's checkpoint and moves
 * forward in the same transaction as the event.
 *
 * Organisation numbers: orgRegNumber is the safe; orgUnitRegNumber and depositorOrgRegNumber the actor's
 * primary entity_id ('' without entity); originatorOrgRegNumber the record's destination (the safe's keeper
 * when it has none or it is not in the tree); archiverOrgRegNumber the safe's top-level entity_id.
 * accountId is the actor's login (stable and unique; the interface shows no numeric ids) and accountName
 * their display name (first and last name, else the login). originatorArchiveId is the resId in decimal.
 */
export class JournalWriter {
  readonly #clock: Clock
  readonly #deps: JournalBuilderDeps

  constructor(options: JournalWriterOptions = {}) {
    this.#clock = options.clock ?? { now: () => new Date() }
    const newId = options.newId ?? createJournalEventIdGenerator({ now: () => Date.now(), randomBytes: (length) => randomBytes(length) })
    this.#deps = { sha256Hex, newEventId: newId }
  }

  /**
   * Journals a stored file. 'deposit' opens a new archive (generated archiveId, journal_archives row in the
   * safe of the destination) with a `recordsManagement/deposit` event; 'newResource' appends
   * `recordsManagement/depositNewResource` to the record's archive, opening one first when it has none.
   */
  async deposit(trx: Kysely<Database>, request: JournalDepositRequest): Promise<void> {
    const directory = await loadSafeDirectory(trx)
    let archive = request.kind === 'newResource' ? await this.#archiveOf(trx, request.resId) : null
    if (archive === null) archive = await this.#openArchive(trx, directory, request.resId, request.destination)
    const keeper = directory.keeperOfSafe(archive.safe) ?? ''
    const destination = request.destination
    const originator = destination !== null && destination !== '' && directory.topLevelOf(destination) !== null ? destination : keeper
    const actor = journalActor(request.actor)
    await this.#append(trx, archive.safe, (position, timestamp) => {
      const input = {
        position,
        actor,
        timestamp,
        archiveId: archive.archiveId,
        resource: { resId: String(request.resId), hash: request.sha256, size: request.size },
        originatorOrgRegNumber: originator,
        depositorOrgRegNumber: actor.orgUnitRegNumber,
        archiverOrgRegNumber: keeper,
        originatorArchiveId: String(request.resId),
      }
      return request.kind === 'deposit' ? buildDepositEvent(this.#deps, input) : buildNewResourceEvent(this.#deps, input)
    })
  }

  /** Journals a consultation of the record's content; does nothing when the record was never deposited. */
  async consultation(trx: Kysely<Database>, request: JournalConsultationRequest): Promise<void> {
    const archive = await this.#archiveOf(trx, request.resId)
    if (archive === null) return
    const actor = journalActor(request.actor)
    await this.#append(trx, archive.safe, (position, timestamp) =>
      buildConsultationEvent(this.#deps, {
        position,
        actor,
        timestamp,
        archiveId: archive.archiveId,
        resource: { resId: String(request.resId), hash: request.sha256, size: request.size },
        originatorArchiveId: String(request.resId),
      }),
    )
  }

  /** Journals an integrity check (operationResult false when `ok` is false); no-op without an archive. */
  async integrityCheck(trx: Kysely<Database>, request: JournalIntegrityCheckRequest): Promise<void> {
    const archive = await this.#archiveOf(trx, request.resId)
    if (archive === null) return
    const actor = journalActor(request.actor)
    await this.#append(trx, archive.safe, (position, timestamp) =>
      buildIntegrityCheckEvent(this.#deps, {
        position,
        actor,
        timestamp,
        archiveId: archive.archiveId,
        resource: { resId: String(request.resId), hash: request.sha256, size: request.size },
        originatorArchiveId: String(request.resId),
        requesterOrgRegNumber: actor.orgUnitRegNumber,
        result: request.ok ? { ok: true } : { ok: false, info: request.info },
      }),
    )
  }

  /**
   * Journals a read of a safe's journal as `organization/journal` (orgName: the label of the organisation
   * read when it is an entity, else ''; ownerOrgId: the safe). Returns the appended event: reads answer with
   * the events that precede it.
   */
  async journalRead(trx: Kysely<Database>, request: JournalReadRequest): Promise<JournalEvent> {
    const entity = await trx.selectFrom('entities').select('entity_label').where('entity_id', '=', request.organizationRegNumber).executeTakeFirst()
    const actor = journalActor(request.actor)
    return this.#append(trx, request.safe, (position, timestamp) =>
      buildJournalReadEvent(this.#deps, {
        position,
        actor,
        timestamp,
        organizationRegNumber: request.organizationRegNumber,
        orgName: entity?.entity_label ?? '',
        ownerOrgId: request.safe,
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

  async #openArchive(trx: Kysely<Database>, directory: SafeDirectory, resId: number, destination: string | null) {
    const safe = directory.safeForRecord(destination)
    if (safe === null) fail('JOURNAL_NO_SAFE')
    const archiveId = this.#deps.newEventId()
    await trx.insertInto('journal_archives').values({ archive_id: archiveId, safe, res_id: resId, created_at: this.#clock.now() }).execute()
    return { archiveId, safe }
  }

  /**
   * Appends one event to a safe's chain under the lock of its head row. The head row is created empty
   * (sequence 0) the first time; the previous event's timestamp comes from its row when it is still there,
   * so a clock that went backwards never produces an older event.
   */
  async #append<E extends JournalEvent>(trx: Kysely<Database>, safe: string, build: (position: JournalChainPosition, timestamp: Date) => E): Promise<E> {
    await trx.insertInto('journal_heads').values({ safe, last_sequence: 0, last_hash: '' }).onConflict((oc) => oc.column('safe').doNothing()).execute()
    const head = await trx.selectFrom('journal_heads').select(['last_sequence', 'last_hash']).where('safe', '=', safe).forUpdate().executeTakeFirstOrThrow()
    let position = chainPositionAfter(safe, null)
    if (head.last_sequence > 0) {
      const last = await trx.selectFrom('journal_events').select('timestamp').where('safe', '=', safe).where('sequence', '=', head.last_sequence).executeTakeFirst()
      position = { safe, sequence: head.last_sequence + 1, previousHash: head.last_hash, previousTimestamp: last ? new Date(last.timestamp) : null }
    }
    const event = build(position, this.#clock.now())
    await trx.insertInto('journal_events').values(eventToRow(event)).execute()
    await trx.updateTable('journal_heads').set({ last_sequence: event.sequence, last_hash: event.hash }).where('safe', '=', safe).execute()
    return event
  }
}

/** Who acts, as the journal records it (see {@link JournalWriter}). */
export function journalActor(actor: Actor): JournalActor {
  return { accountId: actor.login, accountName: displayName(actor), orgUnitRegNumber: primaryEntityOf(actor)?.entityId ?? '' }
}
