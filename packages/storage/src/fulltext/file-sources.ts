import { sql } from 'kysely'
import type { FulltextFileKind } from '../database/schema.js'
import type { StorageContext } from '../storage-context.js'

/** A stored file as the extraction reads it: the row's file columns and its declared format. */
export interface SourceFile {
  readonly docserver_id: string | null
  readonly path: string | null
  readonly filename: string | null
  readonly fingerprint: string | null
  readonly filesize: number | null
  readonly format: string | null
}

/**
 * Where the file of each kind of job is described. A new kind of stored file (attachments) adds its
 * trigger enqueuing `fulltext_jobs` rows (see migration 0016) and its entry here; the queue is the same.
 */
export const FILE_SOURCES: Readonly<
  Record<FulltextFileKind, (context: StorageContext, fileId: number) => Promise<SourceFile | null>>
> = {
  resource: async (context, resId) =>
    (await context.db
      .selectFrom('res_letterbox')
      .select(['docserver_id', 'path', 'filename', 'fingerprint', 'filesize', 'format'])
      .where('res_id', '=', resId)
      .executeTakeFirst()) ?? null,
  // Attachments are being built on another branch: until their table exists, such a job fails visibly.
  attachment: async (context, attachmentId) => {
    const table = await sql<{ found: string | null }>`select to_regclass('res_attachments')::text as found`.execute(
      context.db,
    )
    if (!table.rows[0]?.found) throw new Error(`no attachments table for attachment ${attachmentId}`)
    const { rows } = await sql<SourceFile>`select docserver_id, path, filename, fingerprint, filesize, format
      from res_attachments where res_id = ${attachmentId}`.execute(context.db)
    return rows[0] ?? null
  },
}
