import { type Actor, CONTENT_VIEW_HISTORY, type Clock, viewHistoryInfo } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { Logger } from '../logger.js'

/** What one served read leaves behind: a VIEW history row (content, originalContent) and a journal consultation. */
export interface ReadAuditEntry {
  readonly actor: Actor
  readonly resId: number
  /** SHA-256 and size of the bytes served, for the journal. */
  readonly sha256: string
  readonly size: number
  /** Whether the read writes a VIEW history row (content/{version} does not). */
  readonly view: boolean
  readonly remoteIp?: string | undefined
}

/** The journal calls the audit makes; a batch call is used when the journal has one. */
export interface ReadAuditJournal {
  consultation(trx: Kysely<Database>, request: { resId: number; sha256: string; size: number; actor: Actor }): Promise<void>
  consultations?(trx: Kysely<Database>, requests: readonly { resId: number; sha256: string; size: number; actor: Actor }[]): Promise<void>
}

interface Waiting {
  readonly entry: ReadAuditEntry
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

const REMOTE_IP_MAX = 64
/** Entries per transaction: bounds statement size; a longer queue simply takes several commits. */
const MAX_BATCH = 256

/**
 * Group commit of the traces content reads leave. A read is answered only once its trace is committed (an
 * acknowledged read is always in the history and the journal), but the reads that finish while a commit is
 * in flight share the next one: one transaction and three statements for the whole group instead of one
 * transaction and four statements per read. Nothing waits on a timer: with no commit in flight an entry is
 * written at once, so a lone read pays no extra latency. A batch that fails is retried one entry per
 * transaction, so one bad entry fails only its own read.
 */
export class ReadAudit {
  readonly #db: Kysely<Database>
  readonly #journal: ReadAuditJournal | undefined
  readonly #clock: Clock
  readonly #logger: Logger
  #queue: Waiting[] = []
  #flushing = false

  constructor(options: { db: Kysely<Database>; journal?: ReadAuditJournal | undefined; clock: Clock; logger: Logger }) {
    this.#db = options.db
    this.#journal = options.journal
    this.#clock = options.clock
    this.#logger = options.logger
  }

  /** Resolves once the entry is committed; rejects when it could not be written. */
  record(entry: ReadAuditEntry): Promise<void> {
    if (!entry.view && !this.#journal) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      this.#queue.push({ entry, resolve, reject })
      if (!this.#flushing) void this.#drain()
    })
  }

  async #drain(): Promise<void> {
    this.#flushing = true
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue.splice(0, MAX_BATCH)
        try {
          await this.#write(batch.map((w) => w.entry))
          for (const w of batch) w.resolve()
        } catch (error) {
          if (batch.length === 1) {
            batch[0]?.reject(error)
            continue
          }
          this.#logger.warn({ err: error, entries: batch.length }, 'read audit batch failed; writing its entries one by one')
          for (const w of batch) {
            try {
              await this.#write([w.entry])
              w.resolve()
            } catch (single) {
              w.reject(single)
            }
          }
        }
      }
    } finally {
      this.#flushing = false
    }
  }

  async #write(entries: readonly ReadAuditEntry[]): Promise<void> {
    const journal = this.#journal
    const now = this.#clock.now()
    const views = entries
      .filter((e) => e.view)
      .map((e) => ({
        table_name: CONTENT_VIEW_HISTORY.tableName,
        record_id: String(e.resId),
        event_type: CONTENT_VIEW_HISTORY.eventType,
        user_id: e.actor.id,
        event_date: now,
        info: viewHistoryInfo(e.resId),
        id_module: CONTENT_VIEW_HISTORY.module,
        remote_ip: e.remoteIp ? e.remoteIp.slice(0, REMOTE_IP_MAX) : null,
        event_id: CONTENT_VIEW_HISTORY.eventId,
      }))
    const consultations = entries.map((e) => ({ resId: e.resId, sha256: e.sha256, size: e.size, actor: e.actor }))
    await this.#db.transaction().execute(async (trx) => {
      if (views.length > 0) await trx.insertInto('history').values(views).execute()
      if (!journal) return
      if (journal.consultations) await journal.consultations(trx, consultations)
      else for (const c of consultations) await journal.consultation(trx, c)
    })
  }
}
