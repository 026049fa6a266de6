import { type JournalBreak, type JournalEvent, type SafeVerification, verifyChain } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocumentStore } from '../docserver/document-store.js'
import { sha256OfStoredFile } from '../docserver/hash-stored-file.js'
import { loadSafeDirectory, rowToEvent, sha256Hex } from './journal-rows.js'
import { sealJournal } from './journal-sealer.js'

export type { JournalBreak, JournalBreakReason, SafeVerification } from '@mailroom/core'

/** What verifying the journal reads: its rows and the files they name. */
export interface JournalFiles {
  readonly db: Kysely<Database>
  readonly docservers: DocumentStore
}

/** Outcome of {@link verifyJournal}. */
export interface JournalVerification {
  readonly ok: boolean
  readonly safes: readonly SafeVerification[]
}

/** Options of {@link verifyJournal}. */
export interface VerifyJournalOptions {
  /** Events read per query (default 1000): memory is bounded by a page. */
  readonly pageSize?: number
  /** Seal the committed pending events first (default true). */
  readonly seal?: boolean
  /** Pending events written longer ago than this are reported as 'unsealed' (default 60,000 ms). */
  readonly unsealedAfterMs?: number
  /** Re-hash the stored files of deposit events (default true); false walks the chain alone. */
  readonly checkFiles?: boolean
  /**
   * A point of the (one) safe's chain found intact before: that event is re-checked (its hash, its link to
   * the event before it, and that its hash is still the one given) and the walk starts after it.
   */
  readonly resumeFrom?: VerifiedPoint
}

/** An event of a safe's chain found intact by an earlier walk. */
export interface VerifiedPoint {
  readonly sequence: number
  readonly hash: string
}

/** Default of {@link VerifyJournalOptions.unsealedAfterMs}. */
export const UNSEALED_AFTER_MS = 60_000

const DEPOSIT_TYPES = new Set(['recordsManagement/deposit', 'recordsManagement/depositNewResource'])

/**
 * `mailroom journal verify [safe]`: walks each safe's chain in sequence order, a page at a time, with core's
 * verifyChain, the journal_heads row serving as checkpoint (a deleted last event, or an event added behind
 * the journal's back, no longer matches it). For every deposit and new-resource event it re-hashes the
 * record's stored files (res_letterbox, adr_letterbox for other versions, res_attachments for its attachments) and requires one of them to
 * still have the recorded SHA-256. Reports, per safe, the first break in sequence order.
 * Pending events are sealed first (unless `seal: false`); any still pending that were written more than
 * `unsealedAfterMs` ago (database clock) make the safe fail as 'unsealed' when its chain is otherwise intact.
 * Limit: anyone able to rewrite both the events and the head row can forge a consistent chain; print and keep
 * the head hashes elsewhere to anchor them. A pending event is outside the chain until sealed (normally
 * milliseconds): in that window only the database's access rights protect it.
 */
export async function verifyJournal(
  context: JournalFiles,
  safe?: string,
  options: VerifyJournalOptions = {},
): Promise<JournalVerification> {
  const db = context.db
  const pageSize = Math.max(1, Math.trunc(options.pageSize ?? 1000))
  let sealError: string | null = null
  if (options.seal !== false) {
    await sealJournal(db, safe === undefined ? {} : { safe }).catch((error: unknown) => {
      sealError = error instanceof Error ? error.message : String(error)
    })
  }
  let headsQuery = db.selectFrom('journal_heads').select(['safe', 'last_sequence', 'last_hash'])
  if (safe !== undefined) headsQuery = headsQuery.where('safe', '=', safe)
  const heads = await headsQuery.execute()
  let safes: string[]
  if (safe !== undefined) {
    safes = [safe]
  } else {
    const withEvents = await db.selectFrom('journal_events').select('safe').distinct().execute()
    const withPending = await db.selectFrom('journal_pending').select('safe').distinct().execute()
    safes = [
      ...new Set([
        ...heads.map((head) => head.safe),
        ...withEvents.map((row) => row.safe),
        ...withPending.map((row) => row.safe),
      ]),
    ].sort()
  }
  const files = options.checkFiles === false ? null : await fileChecker(context)
  const results: SafeVerification[] = []
  for (const name of safes) {
    const headRow = heads.find((head) => head.safe === name)
    const head = headRow ? { sequence: headRow.last_sequence, hash: headRow.last_hash } : null
    const walked = await verifySafe(db, name, head, files, pageSize, options.resumeFrom)
    const result = { ...walked, pending: await countPending(db, name) }
    results.push(
      result.ok ? await checkUnsealed(db, result, options.unsealedAfterMs ?? UNSEALED_AFTER_MS, sealError) : result,
    )
  }
  return { ok: results.every((result) => result.ok), safes: results }
}

/** The checker of deposited files, with the storage areas it resolves their paths in. */
async function fileChecker(context: JournalFiles): Promise<FileChecker> {
  const rows = await context.db.selectFrom('docservers').select(['docserver_id', 'path_template']).execute()
  return new FileChecker(
    context.db,
    context.docservers,
    new Map(rows.map((row) => [row.docserver_id, row.path_template])),
  )
}

/** Events of the safe written but not linked into its chain yet. */
async function countPending(db: Kysely<Database>, safe: string): Promise<number> {
  const row = await db
    .selectFrom('journal_pending')
    .select(sql<number>`count(*)`.as('count'))
    .where('safe', '=', safe)
    .executeTakeFirstOrThrow()
  return Number(row.count)
}

/** The safe's result, failed as 'unsealed' when pending events older than the threshold remain. */
async function checkUnsealed(
  db: Kysely<Database>,
  result: SafeVerification,
  thresholdMs: number,
  sealError: string | null,
): Promise<SafeVerification> {
  const seconds = Math.max(0, thresholdMs) / 1000
  const stale = await db
    .selectFrom('journal_pending')
    .select(['event_id', 'created_at'])
    .select(sql<number>`count(*) over ()`.as('total'))
    .where('safe', '=', result.safe)
    .where(sql.ref('created_at'), '<', sql<Date>`now() - make_interval(secs => ${seconds})`)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  if (stale === undefined) return result
  const why = sealError === null ? '' : ` (sealing failed: ${sealError})`
  return {
    ...result,
    ok: false,
    break: {
      reason: 'unsealed',
      sequence: null,
      eventId: stale.event_id,
      detail: `${Number(stale.total)} event(s) written more than ${seconds} s ago are not linked into the chain${why}; the oldest was written at ${new Date(stale.created_at).toISOString()}`,
    },
  }
}

async function verifySafe(
  db: Kysely<Database>,
  safe: string,
  head: SafeVerification['head'],
  files: FileChecker | null,
  pageSize: number,
  resumeFrom?: VerifiedPoint,
): Promise<Omit<SafeVerification, 'pending'>> {
  const checkpoint = head !== null && head.sequence > 0 ? head : undefined
  let after: JournalEvent | undefined
  let walked = 0
  let checkedFiles = 0
  let lastStored: number | null = null
  const done = (extra: Partial<SafeVerification>): Omit<SafeVerification, 'pending'> => ({
    safe,
    ok: extra.break === undefined,
    events: walked,
    files: checkedFiles,
    head,
    ...(resumeFrom === undefined ? {} : { resumedAfter: resumeFrom.sequence }),
    ...extra,
  })
  if (resumeFrom !== undefined) {
    // The events before the verified point count as checked (an earlier walk did it); the point is re-checked.
    walked = resumeFrom.sequence - 1
    const start = await verifiedPointEvent(db, safe, resumeFrom, head)
    if ('break' in start) return done({ break: start.break })
    walked = resumeFrom.sequence
    after = start.event
    lastStored = resumeFrom.sequence
  }

  for (;;) {
    let page = db.selectFrom('journal_events').selectAll().where('safe', '=', safe)
    if (lastStored !== null) page = page.where('sequence', '>', lastStored)
    const rows = await page.orderBy('sequence').limit(pageSize).execute()
    const events = rows.map(rowToEvent)
    const offset = after?.sequence ?? 0
    const last = rows.length < pageSize
    const withCheckpoint = checkpoint !== undefined && (last || checkpoint.sequence <= offset + events.length)
    const chain = verifyChain(events, sha256Hex, {
      safe,
      ...(after ? { after } : {}),
      ...(withCheckpoint ? { checkpoint } : {}),
    })
    const trusted = chain.ok ? events : events.slice(0, Math.min(chain.at.index, events.length))
    const fileBreak: { index: number; checked: number; break?: JournalBreak } =
      files === null ? { index: trusted.length, checked: 0 } : await files.firstAlteredFile(trusted)
    checkedFiles += fileBreak.checked
    if (fileBreak.break !== undefined) {
      walked += fileBreak.index
      return done({ break: fileBreak.break })
    }
    if (!chain.ok) {
      walked += trusted.length
      return done({
        break: { reason: chain.reason, sequence: chain.at.sequence, eventId: chain.at.eventId, detail: chain.detail },
      })
    }
    walked += events.length
    // Past the recorded head: the journal never wrote these (it moves the head in the same transaction).
    if (checkpoint !== undefined && offset + events.length > checkpoint.sequence) {
      const extra = events[checkpoint.sequence - offset]!
      return done({
        break: {
          reason: 'deleted-or-inserted',
          sequence: extra.sequence,
          eventId: extra.eventId,
          detail: `Event ${extra.sequence} follows the recorded head (sequence ${checkpoint.sequence}): it was not appended by the journal`,
        },
      })
    }
    if (last || events.length === 0) break
    after = events[events.length - 1]!
    lastStored = rows[rows.length - 1]!.sequence
  }
  if (head === null && walked > 0) {
    return done({
      break: {
        reason: 'checkpoint-mismatch',
        sequence: null,
        eventId: null,
        detail: `Safe ${safe} has events but no recorded head`,
      },
    })
  }
  if (head === null && walked === 0) {
    const directory = await loadSafeDirectory(db)
    if (!directory.hasSafe(safe))
      return done({
        break: { reason: 'unknown-safe', sequence: null, eventId: null, detail: `No digital safe ${safe}` },
      })
  }
  return done({})
}

/**
 * The event at a verified point, re-checked: it must still be there, be the head or before it, match its own
 * hash and the hash recorded for the point, and follow the event before it; else the break found.
 */
async function verifiedPointEvent(
  db: Kysely<Database>,
  safe: string,
  point: VerifiedPoint,
  head: SafeVerification['head'],
): Promise<{ event: JournalEvent } | { break: JournalBreak }> {
  const rows = await db
    .selectFrom('journal_events')
    .selectAll()
    .where('safe', '=', safe)
    .where('sequence', '>=', point.sequence - 1)
    .where('sequence', '<=', point.sequence)
    .orderBy('sequence')
    .execute()
  const events = rows.map(rowToEvent)
  const event = events.find((candidate) => candidate.sequence === point.sequence)
  const before = events.find((candidate) => candidate.sequence === point.sequence - 1)
  if (event === undefined || (point.sequence > 1 && before === undefined))
    return {
      break: {
        reason: 'truncated',
        sequence: null,
        eventId: null,
        detail: `Event ${event === undefined ? point.sequence : point.sequence - 1}, verified earlier, is no longer in the chain`,
      },
    }
  const chain = verifyChain([event], sha256Hex, { safe, ...(before ? { after: before } : {}) })
  if (!chain.ok)
    return {
      break: { reason: chain.reason, sequence: chain.at.sequence, eventId: chain.at.eventId, detail: chain.detail },
    }
  if (event.hash !== point.hash)
    return {
      break: {
        reason: 'checkpoint-mismatch',
        sequence: event.sequence,
        eventId: event.eventId,
        detail: `Event ${event.sequence} no longer has the hash it had when it was verified: the chain was rewritten up to there`,
      },
    }
  if (head === null || head.sequence < point.sequence || (head.sequence === point.sequence && head.hash !== point.hash))
    return {
      break: {
        reason: 'checkpoint-mismatch',
        sequence: null,
        eventId: null,
        detail: `The recorded head (${head === null ? 'none' : `sequence ${head.sequence}`}) does not reach event ${point.sequence} as verified earlier`,
      },
    }
  return { event }
}

interface StoredFile {
  /** null when its storage area is unknown: a stored file that cannot be found. */
  readonly path: string | null
  readonly fingerprint: string | null
}

/** Re-hashes the stored files of deposited records, one page of events at a time. */
class FileChecker {
  readonly #db: Kysely<Database>
  readonly #store: DocumentStore
  readonly #docservers: Map<string, string>

  constructor(db: Kysely<Database>, store: DocumentStore, docservers: Map<string, string>) {
    this.#db = db
    this.#store = store
    this.#docservers = docservers
  }

  /** The first deposit or new-resource event whose file no stored file of its record matches any more. */
  async firstAlteredFile(
    events: readonly JournalEvent[],
  ): Promise<{ index: number; checked: number; break?: JournalBreak }> {
    const deposits = events
      .map((event, index) => ({ event, index }))
      .filter(({ event }) => DEPOSIT_TYPES.has(event.eventType))
    if (deposits.length === 0) return { index: events.length, checked: 0 }
    const resIds = [...new Set(deposits.map(({ event }) => resIdOf(event)).filter((id): id is number => id !== null))]
    const candidates = await this.#storedFiles(resIds)
    const hashes = new Map<string, Promise<string | null>>()
    const hashOf = (path: string | null) => {
      if (path === null) return Promise.resolve(null)
      let hash = hashes.get(path)
      if (hash === undefined) {
        hash = sha256OfStoredFile(this.#store, path)
        hashes.set(path, hash)
      }
      return hash
    }
    for (const { event, index } of deposits) {
      const info = event.info as unknown as Record<string, unknown>
      const expected = typeof info.hash === 'string' ? info.hash.toLowerCase() : ''
      const resId = resIdOf(event)
      const stored = resId === null ? [] : (candidates.get(resId) ?? [])
      // The file whose recorded fingerprint is the deposited hash first: usually the only one to hash.
      const ordered = [
        ...stored.filter((file) => file.fingerprint?.toLowerCase() === expected),
        ...stored.filter((file) => file.fingerprint?.toLowerCase() !== expected),
      ]
      let matched = false
      let missing = 0
      for (const file of ordered) {
        const actual = await hashOf(file.path)
        if (actual === null) missing += 1
        if (actual === expected) {
          matched = true
          break
        }
      }
      if (!matched) {
        const what =
          stored.length === 0
            ? 'the record has no stored file'
            : `none of its ${stored.length} stored file(s) has it${missing > 0 ? ` (${missing} missing)` : ''}`
        return {
          index,
          checked: hashes.size,
          break: {
            reason: 'altered-file',
            sequence: event.sequence,
            eventId: event.eventId,
            resId: String(info.resId ?? ''),
            detail: `Record ${String(info.resId ?? '')} was deposited with SHA-256 ${expected} by event ${event.sequence}, but ${what}`,
          },
        }
      }
    }
    return { index: events.length, checked: hashes.size }
  }

  async #storedFiles(resIds: readonly number[]): Promise<Map<number, StoredFile[]>> {
    const files = new Map<number, StoredFile[]>()
    if (resIds.length === 0) return files
    const [records, versions, attachments] = await Promise.all([
      this.#db
        .selectFrom('res_letterbox')
        .select(['res_id', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .where('res_id', 'in', resIds)
        .execute(),
      this.#db
        .selectFrom('adr_letterbox')
        .select(['res_id', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .where('res_id', 'in', resIds)
        .orderBy('id')
        .execute(),
      // An attachment's file is deposited in its master record's archive (depositNewResource).
      this.#db
        .selectFrom('res_attachments')
        .select(['res_id_master as res_id', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .where('res_id_master', 'in', resIds)
        .orderBy('res_id')
        .execute(),
    ])
    for (const row of [...records, ...versions, ...attachments.map((a) => ({ ...a, res_id: Number(a.res_id) }))]) {
      if (row.docserver_id === null || row.path === null || row.filename === null || row.filename === '') continue
      const path = this.#resolve(row.docserver_id, row.path, row.filename)
      const list = files.get(row.res_id)
      const file = { path, fingerprint: row.fingerprint }
      if (list) list.push(file)
      else files.set(row.res_id, [file])
    }
    return files
  }

  /** The file's key in the store (null, i.e. missing, for an unknown area or a path leaving the store). */
  #resolve(docserverId: string, path: string, filename: string): string | null {
    const template = this.#docservers.get(docserverId)
    return template === undefined ? null : this.#store.keyOf(template, path, filename)
  }
}

function resIdOf(event: JournalEvent): number | null {
  const value = (event.info as unknown as Record<string, unknown>).resId
  const id = typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : Number.NaN
  return Number.isSafeInteger(id) ? id : null
}
