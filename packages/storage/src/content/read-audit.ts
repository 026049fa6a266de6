import type { Actor, Clock, HistoryRow } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import { historyRowValues } from '../history/history-rows.js'
import type { PendingJournalRow } from '../journal/journal-writer.js'
import type { Logger } from '../logger.js'

/** What one served read leaves behind: a VIEW history row (content, originalContent) and a journal consultation. */
export interface ReadAuditEntry {
  readonly actor: Actor
  readonly resId: number
  /** SHA-256 and size of the bytes served, for the journal. */
  readonly sha256: string
  readonly size: number
  /** The read's history row, as core words it (content/{version} writes none). */
  readonly history: HistoryRow | null
  readonly remoteIp?: string | undefined
}

/** The journal calls the audit makes (JournalWriter's). */
export interface ReadAuditJournal {
  /**
   * Runs `commit`, the statement inserting the consultations' rows, and has them sealed once it has committed
   * (see JournalWriter.committing).
   */
  committing<T>(commit: (rows: ReadAuditJournalRows) => Promise<T>): Promise<T>
}

/** The rows of a read audit's commit (JournalWriter's JournalRowsOfCommit). */
export interface ReadAuditJournalRows {
  /** The pending rows of these consultations (records never deposited are skipped), after one archive lookup. */
  consultationRows(
    db: Kysely<Database>,
    requests: readonly { resId: number; sha256: string; size: number; actor: Actor }[],
  ): Promise<readonly PendingJournalRow[]>
}

interface Waiting {
  readonly entry: ReadAuditEntry
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/** Entries per transaction: bounds statement size; a longer queue simply takes several commits. */
const MAX_BATCH = 256

/**
 * Group commit of the traces content reads leave. A read is answered only once its trace is committed (an
 * acknowledged read is always in the history and the journal), but the reads that finish while a commit is
 * in flight share the next one: an archive lookup and one statement (history rows and journal events
 * together, atomic without a transaction) for the whole group instead of a transaction per read. Nothing
 * waits on a timer: with no commit in flight an entry is written at once, so a lone read pays no extra
 * latency. A batch that fails is retried one entry at a time, so one bad entry fails only its own read.
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
    if (!entry.history && !this.#journal) return Promise.resolve()
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
          this.#logger.warn(
            { err: error, entries: batch.length },
            'read audit batch failed; writing its entries one by one',
          )
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
    if (this.#journal) await this.#journal.committing((journal) => this.#insert(entries, journal))
    else await this.#insert(entries, null)
  }

  /** The group's history rows and journal events in one statement, atomic on its own: no BEGIN/COMMIT. */
  async #insert(entries: readonly ReadAuditEntry[], journal: ReadAuditJournalRows | null): Promise<void> {
    const now = this.#clock.now()
    const views = entries.flatMap(({ history, actor, remoteIp }) =>
      history ? [historyRowValues(history, actor.id, remoteIp, now)] : [],
    )
    const consultations = entries.map((e) => ({ resId: e.resId, sha256: e.sha256, size: e.size, actor: e.actor }))
    const pending = journal ? await journal.consultationRows(this.#db, consultations) : []
    if (views.length > 0 && pending.length > 0) {
      await this.#db
        .with('views', (qb) => qb.insertInto('history').values(views))
        .insertInto('journal_pending')
        .values(pending)
        .execute()
    } else if (views.length > 0) {
      await this.#db.insertInto('history').values(views).execute()
    } else if (pending.length > 0) {
      await this.#db.insertInto('journal_pending').values(pending).execute()
    }
  }
}
