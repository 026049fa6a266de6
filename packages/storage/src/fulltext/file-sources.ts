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
 * Where the file of each kind of job is described: records' files (trigger of migration 0016) and
 * attachments' (migration 0017). A new kind of stored file adds its trigger and its entry here.
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
  attachment: async (context, attachmentId) =>
    (await context.db
      .selectFrom('res_attachments')
      .select(['docserver_id', 'path', 'filename', 'fingerprint', 'filesize', 'format'])
      .where('res_id', '=', attachmentId)
      .where('status', 'not in', ['OBS', 'DEL'])
      .executeTakeFirst()) ?? null,
}
