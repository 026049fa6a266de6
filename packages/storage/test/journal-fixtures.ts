/**
 * Test fixtures of the journal (used by this folder's tests only; not exported): a storage context over a
 * test Mailroom, demo actors, and records with a real stored file deposited through the JournalWriter.
 */
import { createHash } from 'node:crypto'
import type { Actor, Clock, JournalEvent } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import { createTestMailroom, type TestMailroom } from '../../testing/src/databases/test-database.js'
import { putStoredFile, storedKey } from '../../testing/src/fixtures/insert-test-record.js'
import { DOCUMENT_PORTS } from '../../testing/src/storage-test-kit.js'
import {
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  chainPositionAfter,
} from '../../testing/src/test-core-internals.js'
import type { Database } from '../src/database/schema.js'
import { eventToRow, rowToEvent, sha256Hex } from '../src/journal/journal-rows.js'
import { JournalWriter } from '../src/journal/journal-writer.js'
import { SILENT_LOGGER } from '../src/logger.js'
import type { PerimeterGuard } from '../src/perimeter/perimeter-guard.js'
import type { StorageContext } from '../src/storage-context.js'
import { KyselyUserRepository } from '../src/users/kysely-user-repository.js'

/** The demo safe (VILLE's business_id). */
export const DEMO_SAFE = '21750001600019'

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  #now: number

  constructor(start = Date.UTC(2024, 2, 1, 9, 0, 0)) {
    this.#now = start
  }

  now(): Date {
    return new Date(this.#now)
  }

  set(date: Date | string): void {
    this.#now = new Date(date).getTime()
  }

  advance(ms: number): void {
    this.#now += ms
  }
}

/** A test Mailroom plus a StorageContext over its database for the journal code. */
export interface JournalTestBed {
  readonly t: TestMailroom
  readonly db: Kysely<Database>
  readonly clock: ManualClock
  readonly context: StorageContext
  actor(login: string): Promise<Actor>
  /** Inserts a record and stores its file in the FASTHD_MAN storage area; returns its resId and fingerprint. */
  storeRecord(options?: { destination?: string | null; bytes?: Uint8Array | string }): Promise<StoredRecord>
  /** Seals every committed pending event (JournalWriter.flush). */
  flush(): Promise<void>
  /** storeRecord + JournalWriter.deposit in one transaction, then a flush. */
  depositRecord(
    actor: Actor,
    options?: { destination?: string | null; bytes?: Uint8Array | string },
  ): Promise<StoredRecord>
  /** Lets the tests rewrite history (and the heads), as an attacker with the owner's rights could. */
  withTriggersDisabled<T>(action: (db: Kysely<Database>) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/** A stored record. */
export interface StoredRecord {
  readonly resId: number
  readonly sha256: string
  readonly size: number
  /** Store key of its file (tests alter it through `t.documents`). */
  readonly key: string
  readonly bytes: Uint8Array
}

let fileCounter = 0

/** Opens a journal test bed on the current test database (demo dataset loaded). */
export async function openJournalTestBed(): Promise<JournalTestBed> {
  const clock = new ManualClock()
  // No sweeps: tests decide when pending events are sealed.
  const t = await createTestMailroom({ clock, journal: { sweepIntervalMs: 0 } })
  const db = t.mailroom.db
  const context: StorageContext = {
    db,
    kind: t.mailroom.database.kind,
    docservers: t.documents,
    clock,
    ids: { newId: () => `id-${++fileCounter}` },
    logger: SILENT_LOGGER,
    converter: null,
    ...DOCUMENT_PORTS,
    // The journal never looks at the perimeter.
    perimeter: {} as PerimeterGuard,
    journal: new JournalWriter({ clock, db, sweepIntervalMs: 0 }),
  }
  const users = new KyselyUserRepository(db)

  const storeRecord: JournalTestBed['storeRecord'] = async (options = {}) => {
    const n = ++fileCounter
    const bytes =
      typeof options.bytes === 'string'
        ? new TextEncoder().encode(options.bytes)
        : (options.bytes ?? new TextEncoder().encode(`record ${n} ${Math.random()}`))
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    const path = '2024/03/0001/'
    const filename = `${String(n).padStart(4, '0')}_journal.txt`
    const key = storedKey(t.documents, 'resources', path, filename)
    await putStoredFile(t.documents, key, bytes)
    const row = await db
      .insertInto('res_letterbox')
      .values({
        subject: `journal test ${n}`,
        type_id: 101,
        typist: 1,
        category_id: 'incoming',
        model_id: 1,
        status: 'NEW',
        destination: options.destination === undefined ? 'PJS' : options.destination,
        docserver_id: 'FASTHD_MAN',
        path,
        filename,
        fingerprint: sha256,
        filesize: bytes.length,
        format: 'txt',
      })
      .returning('res_id')
      .executeTakeFirstOrThrow()
    return { resId: row.res_id, sha256, size: bytes.length, key, bytes }
  }

  return {
    t,
    db,
    clock,
    context,
    async actor(login) {
      const credentials = await users.findCredentialsByLogin(login)
      const actor = credentials ? await users.loadActor(credentials.id) : null
      if (!actor) throw new Error(`no demo user ${login}`)
      return actor
    },
    storeRecord,
    flush: () => context.journal.flush(),
    async depositRecord(actor, options = {}) {
      const record = await storeRecord(options)
      const destination = options.destination === undefined ? 'PJS' : options.destination
      await db.transaction().execute((trx) =>
        context.journal.deposit(trx, {
          resId: record.resId,
          destination,
          sha256: record.sha256,
          size: record.size,
          actor,
          kind: 'deposit',
        }),
      )
      await context.journal.flush()
      return record
    },
    async withTriggersDisabled(action) {
      await sql`alter table journal_events disable trigger journal_events_append_only`.execute(db)
      await sql`alter table journal_heads disable trigger journal_heads_forward`.execute(db)
      try {
        return await action(db)
      } finally {
        await sql`alter table journal_events enable trigger journal_events_append_only`.execute(db)
        await sql`alter table journal_heads enable trigger journal_heads_forward`.execute(db)
      }
    },
    async close() {
      await context.journal.close()
      await t.cleanup()
    },
  }
}

/** The events of a safe in sequence order (raw rows). */
export async function safeRows(db: Kysely<Database>, safe = DEMO_SAFE) {
  return db.selectFrom('journal_events').selectAll().where('safe', '=', safe).orderBy('sequence').execute()
}

/** One archive event to append with {@link appendBuiltEvents}. */
export interface EventSpec {
  readonly kind: 'deposit' | 'consultation' | 'integrityCheck'
  readonly archiveId: string
  readonly originatorArchiveId: string
  readonly timestamp: Date
  readonly orgUnit: string
  readonly account: string
}

let builtCounter = 0

/**
 * Appends well-formed, chained archive events to a safe straight from core's builders (arbitrary
 * timestamps, archive ids and originatorArchiveIds, which the writer itself never chooses), moving its head.
 * Timestamps earlier than the previous event are raised to it, as the builders do.
 */
export async function appendBuiltEvents(
  db: Kysely<Database>,
  safe: string,
  specs: readonly EventSpec[],
  batchSize = 1000,
): Promise<JournalEvent[]> {
  const headRow = await db.selectFrom('journal_heads').selectAll().where('safe', '=', safe).executeTakeFirst()
  let last: JournalEvent | null = null
  if (headRow && headRow.last_sequence > 0) {
    const row = await db
      .selectFrom('journal_events')
      .selectAll()
      .where('safe', '=', safe)
      .where('sequence', '=', headRow.last_sequence)
      .executeTakeFirstOrThrow()
    last = rowToEvent(row)
  }
  const deps = {
    sha256Hex,
    newEventId: () => `mailroom_test${(++builtCounter).toString(36)}-${Math.random().toString(16).slice(2, 10)}`,
  }
  const built: JournalEvent[] = []
  for (const spec of specs) {
    const context = {
      position: chainPositionAfter(safe, last),
      actor: { accountId: spec.account, accountName: `${spec.account} name`, orgUnitRegNumber: spec.orgUnit },
      timestamp: spec.timestamp,
      archiveId: spec.archiveId,
      originatorArchiveId: spec.originatorArchiveId,
      resource: {
        resId: spec.originatorArchiveId,
        hash: sha256Hex(spec.archiveId),
        size: spec.originatorArchiveId.length,
      },
    }
    const event: JournalEvent =
      spec.kind === 'deposit'
        ? buildDepositEvent(deps, {
            ...context,
            originatorOrgRegNumber: spec.orgUnit,
            depositorOrgRegNumber: spec.orgUnit,
            archiverOrgRegNumber: 'VILLE',
          })
        : spec.kind === 'consultation'
          ? buildConsultationEvent(deps, context)
          : buildIntegrityCheckEvent(deps, { ...context, requesterOrgRegNumber: spec.orgUnit, result: { ok: true } })
    built.push(event)
    last = event
  }
  for (let start = 0; start < built.length; start += batchSize) {
    await db
      .insertInto('journal_events')
      .values(built.slice(start, start + batchSize).map(eventToRow))
      .execute()
  }
  if (last !== null) {
    if (headRow)
      await db
        .updateTable('journal_heads')
        .set({ last_sequence: last.sequence, last_hash: last.hash })
        .where('safe', '=', safe)
        .execute()
    else
      await db
        .insertInto('journal_heads')
        .values({ safe, last_sequence: last.sequence, last_hash: last.hash })
        .execute()
  }
  return built
}

/** Adds a top-level entity (its own safe) with one child, and returns the safe identifier. */
export async function addOrganisation(
  db: Kysely<Database>,
  entityId: string,
  businessId: string | null,
): Promise<string> {
  await db
    .insertInto('entities')
    .values([
      {
        entity_id: entityId,
        entity_label: `Organisation ${entityId}`,
        short_label: entityId,
        entity_type: 'Direction',
        parent_entity_id: null,
        business_id: businessId,
      },
      {
        entity_id: `${entityId}_S`,
        entity_label: `Service of ${entityId}`,
        short_label: `${entityId}_S`,
        entity_type: 'Service',
        parent_entity_id: entityId,
        business_id: null,
      },
    ])
    .execute()
  return businessId || entityId
}
