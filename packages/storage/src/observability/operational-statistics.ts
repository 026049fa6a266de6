import type { OperationalStatistics } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { MailroomDatabase } from '../database/open-database.js'
import type { Database } from '../database/schema.js'

interface Counts {
  pending_events: number
  oldest_pending_seconds: number | null
  documents: number
  document_bytes: number | null
  fulltext_pending: number
  fulltext_running: number
  fulltext_failed: number
  fulltext_oldest_seconds: number | null
}

/**
 * Readings for a metrics scrape, in one round trip: the journal's backlog (events committed but not yet
 * sealed; `created_at` is the database clock, so the age is not skewed by a server's clock) and the files
 * the database references (records' current files plus their earlier versions and renditions). The counts
 * scan res_letterbox, adr_letterbox and res_attachments: with millions of records, scrape every 30 s or more.
 */
export async function readOperationalStatistics(
  database: Pick<MailroomDatabase, 'db' | 'poolStatistics'>,
): Promise<OperationalStatistics> {
  const db = database.db as Kysely<Database>
  const { rows } = await sql<Counts>`
    select
      (select count(*) from journal_pending)::int as pending_events,
      (select extract(epoch from now() - min(created_at)) from journal_pending)::float8 as oldest_pending_seconds,
      ((select count(*) from res_letterbox where filename is not null)
        + (select count(*) from adr_letterbox)
        + (select count(*) from res_attachments))::bigint as documents,
      (coalesce((select sum(filesize) from res_letterbox where filename is not null), 0)
        + coalesce((select sum(filesize) from adr_letterbox), 0)
        + coalesce((select sum(filesize) from res_attachments), 0))::bigint as document_bytes,
      (select count(*) from fulltext_jobs where state = 'pending')::int as fulltext_pending,
      (select count(*) from fulltext_jobs where state = 'running')::int as fulltext_running,
      (select count(*) from fulltext_jobs where state = 'failed')::int as fulltext_failed,
      (select extract(epoch from now() - min(enqueued_at)) from fulltext_jobs where state = 'pending')::float8
        as fulltext_oldest_seconds`.execute(db)
  const counts = rows[0]!
  return {
    databasePool: database.poolStatistics?.() ?? null,
    journal: {
      pendingEvents: Number(counts.pending_events),
      oldestPendingSeconds: Math.max(0, Number(counts.oldest_pending_seconds ?? 0)),
    },
    documents: { count: Number(counts.documents), bytes: Number(counts.document_bytes ?? 0) },
    fulltext: {
      pending: Number(counts.fulltext_pending),
      running: Number(counts.fulltext_running),
      failed: Number(counts.fulltext_failed),
      oldestPendingSeconds: Math.max(0, Number(counts.fulltext_oldest_seconds ?? 0)),
    },
  }
}
