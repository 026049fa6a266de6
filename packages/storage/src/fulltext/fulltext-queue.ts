import type { ExtractedText } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database, FulltextFileKind } from '../database/schema.js'
import { type FullTextConfig, fullTextConfigOf } from '../search/compile-clause.js'
import type { FullTextSettings } from './fulltext-settings.js'

/** A job a server holds: its file, the tries so far (this one included) and the token of its lease. */
export interface ClaimedJob {
  readonly id: number
  readonly file_kind: FulltextFileKind
  readonly file_id: number
  readonly res_id: number
  readonly attempts: number
  readonly lease_token: string
}

/** What an operator sees of the queue (`mailroom fulltext status`, /readyz, metrics). */
export interface FullTextQueueStatus {
  readonly pending: number
  readonly running: number
  readonly failed: number
  readonly indexed: number
  /** Age of the oldest file waiting, in seconds (0 when none waits). */
  readonly oldestPendingSeconds: number
  /** The latest failures: which file, after how many tries, why. */
  readonly recentFailures: readonly {
    fileKind: string
    fileId: number
    resId: number
    attempts: number
    error: string
  }[]
}

/**
 * Texts larger than this are cut: PostgreSQL's tsvector holds at most 1 MB, and a letter's words fit in far
 * less. Kept beyond what the index reads, the rest would find nothing anyway.
 */
export const MAX_INDEXED_CHARACTERS = 400_000

/**
 * The durable extraction queue in `fulltext_jobs` (migration 0016). Every server on the database claims from
 * it: `for update skip locked` gives each waiting row to one claimer, and the lease (`lease_until`) lets
 * another server take over a row whose server died. Every claim draws a new `lease_token`, and every write
 * of a claimed job (renew, complete, fail, release) is fenced by it: a server whose lease ran out and was
 * taken over (or whose file was enqueued again, which clears the token) changes nothing, whatever it
 * finishes later. A result is written in one statement with the job's completion: a file is indexed whole
 * or not at all, by one owner.
 */
export class FullTextQueue {
  readonly #db: Kysely<Database>
  readonly #settings: FullTextSettings
  readonly #config: FullTextConfig

  constructor(db: Kysely<Database>, settings: FullTextSettings) {
    this.#db = db
    this.#settings = settings
    this.#config = fullTextConfigOf(settings.language)
  }

  /** Takes the oldest waiting job (or one whose lease expired) for `server`; null when there is none. */
  async claim(server: string): Promise<ClaimedJob | null> {
    const { rows } = await sql<ClaimedJob>`
      update fulltext_jobs as j
        set state = 'running', attempts = j.attempts + 1, lease_token = gen_random_uuid(), leased_by = ${server},
          lease_until = now() + ${this.#settings.leaseMs} * interval '1 millisecond'
      where j.id = (
        select id from fulltext_jobs
        where (state = 'pending' and not_before <= now()) or (state = 'running' and lease_until < now())
        order by id limit 1
        for update skip locked)
      returning j.id, j.file_kind, j.file_id, j.res_id, j.attempts, j.lease_token::text as lease_token`.execute(
      this.#db,
    )
    return rows[0] ?? null
  }

  /** Holds the job longer (a long OCR); false when the lease was lost (taken over, or the file re-enqueued). */
  async renew(job: ClaimedJob): Promise<boolean> {
    const result = await sql`update fulltext_jobs
      set lease_until = now() + ${this.#settings.leaseMs} * interval '1 millisecond'
      where id = ${job.id} and lease_token = ${job.lease_token}::uuid and state = 'running'`.execute(this.#db)
    return Number(result.numAffectedRows ?? 0) === 1
  }

  /** Gives a job back untried (this server stops): it waits again at once, the try not counted. */
  async release(job: ClaimedJob): Promise<void> {
    await sql`update fulltext_jobs set state = 'pending', attempts = greatest(attempts - 1, 0), lease_token = null,
        leased_by = null, lease_until = null
      where id = ${job.id} and lease_token = ${job.lease_token}::uuid and state = 'running'`.execute(this.#db)
  }

  /** The text kept for this file when it was extracted from the same bytes (no OCR again); null otherwise. */
  async keptText(job: ClaimedJob, fingerprint: string | null): Promise<ExtractedText | null> {
    if (!fingerprint) return null
    const row = await this.#db
      .selectFrom('fulltext_texts')
      .select(['content', 'method', 'ocr_pages'])
      .where('file_kind', '=', job.file_kind)
      .where('file_id', '=', job.file_id)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst()
    return row ? { text: row.content, method: row.method as ExtractedText['method'], ocrPages: row.ocr_pages } : null
  }

  /**
   * Writes the text and marks the job done, in one statement; false when the lease was lost meanwhile. The
   * record's row is locked first, as a new version of the record locks it (then its job, by the queue's
   * trigger): the text's trigger, which sets the record's words, waits for the record without holding the job.
   */
  async complete(job: ClaimedJob, fingerprint: string | null, extracted: ExtractedText): Promise<boolean> {
    const content = indexableText(extracted.text)
    const { rows } = await sql<{ file_id: number }>`
      with record as (select from res_letterbox where res_id = ${job.res_id} for no key update),
      done as (
        update fulltext_jobs set state = 'done', finished_at = now(), lease_token = null, lease_until = null,
          last_error = null
        where id = ${job.id} and lease_token = ${job.lease_token}::uuid and state = 'running'
          and exists (select from record)
        returning file_kind, file_id, res_id)
      insert into fulltext_texts (file_kind, file_id, res_id, fingerprint, method, ocr_pages, language, content, document)
      select file_kind, file_id, res_id, ${fingerprint}, ${extracted.method}, ${extracted.ocrPages},
        ${this.#settings.language}, ${content}::text, to_tsvector(${this.#config}::regconfig, ${content}::text)
      from done
      on conflict (file_kind, file_id) do update set res_id = excluded.res_id, fingerprint = excluded.fingerprint,
        method = excluded.method, ocr_pages = excluded.ocr_pages, language = excluded.language,
        content = excluded.content, document = excluded.document, extracted_at = now()
      returning file_id`.execute(this.#db)
    return rows.length === 1
  }

  /**
   * Records a failure: the job waits and is tried again (the delay doubling each time) until its tries are
   * spent, then stays `failed` with its error for operators.
   */
  async fail(job: ClaimedJob, error: string): Promise<void> {
    const final = job.attempts >= this.#settings.maxAttempts
    const delayMs = this.#settings.retryDelayMs * 2 ** (job.attempts - 1)
    await sql`update fulltext_jobs
      set state = ${final ? 'failed' : 'pending'}, last_error = ${error.slice(0, 2000)}, lease_token = null,
        lease_until = null, finished_at = ${final ? sql`now()` : null},
        not_before = now() + ${delayMs} * interval '1 millisecond'
      where id = ${job.id} and lease_token = ${job.lease_token}::uuid and state = 'running'`.execute(this.#db)
  }

  async status(recent = 10): Promise<FullTextQueueStatus> {
    const { rows } = await sql<{
      pending: number
      running: number
      failed: number
      indexed: number
      oldest: number | null
    }>`select
        (select count(*) from fulltext_jobs where state = 'pending')::int as pending,
        (select count(*) from fulltext_jobs where state = 'running')::int as running,
        (select count(*) from fulltext_jobs where state = 'failed')::int as failed,
        (select count(*) from fulltext_texts)::int as indexed,
        (select extract(epoch from now() - min(enqueued_at)) from fulltext_jobs where state = 'pending')::float8 as oldest`.execute(
      this.#db,
    )
    const failures = await this.#db
      .selectFrom('fulltext_jobs')
      .select(['file_kind', 'file_id', 'res_id', 'attempts', 'last_error'])
      .where('state', '=', 'failed')
      .orderBy('id', 'desc')
      .limit(recent)
      .execute()
    const counts = rows[0]!
    return {
      pending: Number(counts.pending),
      running: Number(counts.running),
      failed: Number(counts.failed),
      indexed: Number(counts.indexed),
      oldestPendingSeconds: Math.max(0, Number(counts.oldest ?? 0)),
      recentFailures: failures.map((row) => ({
        fileKind: row.file_kind,
        fileId: Number(row.file_id),
        resId: Number(row.res_id),
        attempts: row.attempts,
        error: row.last_error ?? '',
      })),
    }
  }

  /**
   * Brings every record into the index: records with a file and no job (imported, or there before the
   * queue) get one, failed jobs are tried again, and texts indexed in another language are indexed again
   * from the kept text (no extraction). Returns how many files were queued and how many texts re-indexed.
   */
  async reindex(): Promise<{ enqueued: number; retried: number; reindexed: number }> {
    return this.#db.transaction().execute(async (trx) => {
      // Texts first: their trigger locks their records (migration 0019), and records are locked before jobs
      // everywhere (a job's completion, a new version), so a reindex never waits on a lock held the other way.
      const reindexed = await sql`update fulltext_texts
        set document = to_tsvector(${this.#config}::regconfig, content), language = ${this.#settings.language}
        where language <> ${this.#settings.language}`.execute(trx)
      const enqueued = await sql`insert into fulltext_jobs (file_kind, file_id, res_id)
        select 'resource', r.res_id, r.res_id from res_letterbox r
        where r.filename is not null
          and not exists (select from fulltext_jobs j where j.file_kind = 'resource' and j.file_id = r.res_id)
        union all
        select 'attachment', a.res_id, a.res_id_master from res_attachments a
        where a.filename is not null and a.status not in ('OBS', 'DEL')
          and not exists (select from fulltext_jobs j where j.file_kind = 'attachment' and j.file_id = a.res_id)
        on conflict (file_kind, file_id) do nothing`.execute(trx)
      const retried = await sql`update fulltext_jobs set state = 'pending', attempts = 0, not_before = now(),
        last_error = null, finished_at = null where state = 'failed'`.execute(trx)
      return {
        enqueued: Number(enqueued.numAffectedRows ?? 0),
        retried: Number(retried.numAffectedRows ?? 0),
        reindexed: Number(reindexed.numAffectedRows ?? 0),
      }
    })
  }
}

/** Text PostgreSQL can store and index: no NUL characters, at most MAX_INDEXED_CHARACTERS. */
export function indexableText(text: string): string {
  const clean = text.replaceAll('\0', ' ')
  return clean.length > MAX_INDEXED_CHARACTERS ? clean.slice(0, MAX_INDEXED_CHARACTERS) : clean
}
