import {
  type Actor,
  fail,
  type JournalEvent,
  type JournalQuery,
  type JournalServices,
  type LifeCycleEvent,
} from '@mailroom/core'
import {
  ARCHIVE_OBJECT_CLASS,
  assertJournalAccess,
  displayName,
  parseJournalQuery,
  toLifeCycleEvent,
  verifySafeChain,
} from '@mailroom/core/internal'
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { StorageContext } from '../storage-context.js'
import { createChainVerifier } from './chain-verifier.js'
import { type JournalEventRow, loadSafeDirectory, rowToEvent } from './journal-rows.js'

/** Events fetched per query while streaming `/events`. */
export const JOURNAL_PAGE_SIZE = 500

/** Tuning of the journal use cases (tests use small pages). */
export interface JournalServicesOptions {
  readonly pageSize?: number
}

/** A position in journal order; the timestamp stays in PostgreSQL's text form so microseconds survive. */
interface OrderKey {
  readonly timestampText: string
  readonly eventId: string
}

const DIGITS = /^[0-9]+$/

/**
 * Wires the journal use cases over kysely.
 *
 * Reading `/events`: 404 when no top-level entity owns the safe; 403 unless the actor has an entity under it
 * (root users read every safe, as their record perimeter is everything); then the query's own errors. The read
 * is journalled first, in its own transaction, as `organization/journal`; the answer is the safe's archive
 * events appended before it (a stable snapshot, since events are append-only and chained by sequence).
 * They stream in pages of {@link JOURNAL_PAGE_SIZE} fetched by keyset on (timestamp, eventId COLLATE "C"),
 * each page with one more query for the histories (eventInfo) of the archives it names: memory is bounded by
 * a page, whatever the size of the journal. PGlite has no server cursors; keyset pages work on both drivers.
 */
export function createJournalServices(context: StorageContext, options: JournalServicesOptions = {}): JournalServices {
  const pageSize = Math.max(1, Math.trunc(options.pageSize ?? JOURNAL_PAGE_SIZE))
  const db = context.db
  const chainVerifier = createChainVerifier(context)

  return {
    async readEvents(actor: Actor, owner: string, rawQuery) {
      const timestamp = context.clock.now()
      const accountName = displayName(actor)
      assertJournalAccess(actor, await loadSafeDirectory(db), owner)
      const query = parseJournalQuery(rawQuery)

      let cursor: OrderKey | null = null
      if (query.after !== undefined) {
        const row = await db
          .selectFrom('journal_events')
          .select([sql<string>`${sql.ref('timestamp')}::text`.as('timestamp_text'), 'event_id'])
          .where('safe', '=', owner)
          .where('object_class', '=', ARCHIVE_OBJECT_CLASS)
          .where('event_id', '=', query.after)
          .executeTakeFirst()
        if (!row) fail('JOURNAL_INVALID_CURSOR')
        cursor = { timestampText: row.timestamp_text, eventId: row.event_id }
      }

      const readEvent = await db.transaction().execute((trx) =>
        context.journal.journalRead(trx, {
          safe: owner,
          organizationRegNumber: query.originatorOrgRegNumber ?? owner,
          actor,
        }),
      )
      const snapshot = readEvent.sequence - 1
      return {
        head: { owner, timestamp, accountName },
        events: pagedEvents(db, { owner, query, snapshot, cursor, pageSize, accountName }),
      }
    },

    verifyChain(actor: Actor, owner: string, rawQuery = {}) {
      return verifySafeChain(
        { loadSafeDirectory: () => loadSafeDirectory(db), verifySafeChain: chainVerifier.verify },
        actor,
        owner,
        rawQuery,
      )
    },
  }
}

interface PagingPlan {
  readonly owner: string
  readonly query: JournalQuery
  /** Highest sequence included. */
  readonly snapshot: number
  readonly cursor: OrderKey | null
  readonly pageSize: number
  readonly accountName: string
}

async function* pagedEvents(db: Kysely<Database>, plan: PagingPlan): AsyncGenerator<LifeCycleEvent, void, undefined> {
  let last = plan.cursor
  let remaining = plan.query.limit ?? Number.POSITIVE_INFINITY
  while (remaining > 0) {
    const size = Math.min(plan.pageSize, remaining)
    const rows = await selectPage(db, plan, last, size)
    if (rows.length === 0) return
    const histories = await loadHistories(
      db,
      plan,
      rows.map((row) => row.object_id),
    )
    for (const row of rows) {
      const event = rowToEvent(row)
      yield toLifeCycleEvent(event, histories.get(row.object_id) ?? [event], plan.accountName)
    }
    remaining -= rows.length
    if (rows.length < size) return
    const tail = rows[rows.length - 1]!
    last = { timestampText: tail.timestamp_text, eventId: tail.event_id }
  }
}

function selectPage(
  db: Kysely<Database>,
  plan: PagingPlan,
  after: OrderKey | null,
  size: number,
): Promise<(JournalEventRow & { timestamp_text: string })[]> {
  const conditions = [...archiveEventConditions(plan), ...filterConditions(plan.query)]
  if (after !== null) {
    conditions.push(
      sql<SqlBool>`(${sql.ref('timestamp')}, event_id collate "C") > (${after.timestampText}::timestamptz, ${after.eventId})`,
    )
  }
  return db
    .selectFrom('journal_events')
    .selectAll()
    .select(sql<string>`${sql.ref('timestamp')}::text`.as('timestamp_text'))
    .where(sql<SqlBool>`${sql.join(conditions, sql` and `)}`)
    .orderBy(sql.ref('timestamp'))
    .orderBy(sql`event_id collate "C"`)
    .limit(size)
    .execute()
}

/** Every archive event of the safe up to the snapshot: the scope of both pages and eventInfo. */
function archiveEventConditions(plan: Pick<PagingPlan, 'owner' | 'snapshot'>): RawBuilder<SqlBool>[] {
  return [
    sql<SqlBool>`safe = ${plan.owner}`,
    sql<SqlBool>`object_class = ${ARCHIVE_OBJECT_CLASS}`,
    sql<SqlBool>`sequence <= ${plan.snapshot}`,
  ]
}

/**
 * The query's filters in SQL, with the semantics of core's matchesJournalQuery: archiveId on objectId,
 * originatorOrgRegNumber on orgUnitRegNumber, inclusive date bounds, and the originator archive identifier
 * range of ORIGINATOR_ARCHIVE_ID_RANGE_RULE (numeric when the value and every bound are digits, else
 * COLLATE "C", i.e. code point order).
 */
export function filterConditions(query: JournalQuery): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = []
  if (query.archiveId !== undefined) conditions.push(sql<SqlBool>`object_id = ${query.archiveId}`)
  if (query.originatorOrgRegNumber !== undefined)
    conditions.push(sql<SqlBool>`org_unit_reg_number = ${query.originatorOrgRegNumber}`)
  if (query.fromDate !== undefined)
    conditions.push(sql<SqlBool>`${sql.ref('timestamp')} >= ${query.fromDate.toISOString()}::timestamptz`)
  if (query.toDate !== undefined)
    conditions.push(sql<SqlBool>`${sql.ref('timestamp')} <= ${query.toDate.toISOString()}::timestamptz`)
  const from = query.fromOriginatorArchiveId
  const to = query.toOriginatorArchiveId
  if (from !== undefined || to !== undefined) {
    const value = sql`(info ->> 'originatorArchiveId')`
    const lexical: RawBuilder<SqlBool>[] = []
    if (from !== undefined) lexical.push(sql<SqlBool>`${value} collate "C" >= ${from}`)
    if (to !== undefined) lexical.push(sql<SqlBool>`${value} collate "C" <= ${to}`)
    const lexicalCondition = sql<SqlBool>`(${sql.join(lexical, sql` and `)})`
    conditions.push(sql<SqlBool>`${value} is not null`)
    if ([from, to].every((bound) => bound === undefined || DIGITS.test(bound))) {
      const numeric: RawBuilder<SqlBool>[] = []
      if (from !== undefined) numeric.push(sql<SqlBool>`${value}::numeric >= ${from}::numeric`)
      if (to !== undefined) numeric.push(sql<SqlBool>`${value}::numeric <= ${to}::numeric`)
      // CASE, not AND: PostgreSQL may evaluate AND operands in any order, and a non-digit value must never be cast.
      conditions.push(
        sql<SqlBool>`(case when ${value} ~ '^[0-9]+$' then (${sql.join(numeric, sql` and `)}) else ${lexicalCondition} end)`,
      )
    } else {
      conditions.push(lexicalCondition)
    }
  }
  return conditions
}

/** The histories (every archive event up to the snapshot) of a page's archives, in one query. */
async function loadHistories(
  db: Kysely<Database>,
  plan: PagingPlan,
  objectIds: readonly string[],
): Promise<Map<string, JournalEvent[]>> {
  const unique = [...new Set(objectIds)]
  const rows = await db
    .selectFrom('journal_events')
    .selectAll()
    .where(sql<SqlBool>`${sql.join(archiveEventConditions(plan), sql` and `)}`)
    .where('object_id', 'in', unique)
    .orderBy('object_id')
    .orderBy(sql.ref('timestamp'))
    .orderBy('sequence')
    .execute()
  const histories = new Map<string, JournalEvent[]>()
  for (const row of rows) {
    const list = histories.get(row.object_id)
    if (list) list.push(rowToEvent(row))
    else histories.set(row.object_id, [rowToEvent(row)])
  }
  return histories
}
