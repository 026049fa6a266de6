import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocumentStore } from './document-store.js'
import { sha256OfStoredFile } from './hash-stored-file.js'

/** Options of a storage check. */
export interface StorageCheckOptions {
  /** List orphan files without removing them. */
  readonly dryRun?: boolean
  /**
   * Files younger than this are never called orphans: a create in flight has its file in place a moment
   * before its row commits. Default 15 minutes.
   */
  readonly orphanGraceMs?: number
  readonly now?: Date
}

/** A database row whose file is missing or differs from its fingerprint. */
export interface StorageProblem {
  readonly table: 'res_letterbox' | 'adr_letterbox' | 'res_attachments'
  /** The record's id, or the attachment's (res_attachments). */
  readonly resId: number
  /** adr_letterbox type and version (null for res_letterbox and res_attachments). */
  readonly type: string | null
  readonly version: number | null
  /** The file's key in the store (its path relative to the storage root). */
  readonly file: string
  readonly problem: 'missing' | 'fingerprint' | 'outside-root' | 'unknown-docserver'
}

/** What a storage check found (keys: paths relative to the storage root, or to the bucket's prefix). */
export interface StorageCheckReport {
  readonly rowsChecked: number
  readonly filesSeen: number
  readonly problems: readonly StorageProblem[]
  /** Files no row references (older than the grace period). */
  readonly orphans: readonly string[]
  /** Orphans actually removed (empty on a dry run). */
  readonly removed: readonly string[]
}

interface FileRow {
  readonly table: StorageProblem['table']
  readonly res_id: number
  readonly type: string | null
  readonly version: number | null
  readonly docserver_id: string
  readonly path: string
  readonly filename: string
  readonly fingerprint: string | null
}

/**
 * `mailroom fsck`: compares the document store (folder or bucket) with the rows that reference it. Every
 * file row is checked (exists, SHA-256 equals its fingerprint); every file of the store that no row of
 * res_letterbox, adr_letterbox or res_attachments references is an orphan (left by a crash between a file's write and its
 * row's commit) and is removed unless `dryRun`. Rows are never changed: a missing or altered file needs a
 * human. A store that cannot be reached stops the check with its error rather than report every file missing.
 */
export async function checkDocumentStorage(
  db: Kysely<Database>,
  store: DocumentStore,
  options: StorageCheckOptions = {},
): Promise<StorageCheckReport> {
  const now = (options.now ?? new Date()).getTime()
  const grace = options.orphanGraceMs ?? 15 * 60_000
  const areas = new Map(
    (await db.selectFrom('docservers').select(['docserver_id', 'path_template']).execute()).map((d) => [
      d.docserver_id,
      d.path_template,
    ]),
  )
  const rows: FileRow[] = [
    ...(
      await db
        .selectFrom('res_letterbox')
        .select(['res_id', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .where('filename', 'is not', null)
        .orderBy('res_id')
        .execute()
    ).map((r) => ({
      table: 'res_letterbox' as const,
      type: null,
      version: null,
      ...r,
      docserver_id: r.docserver_id ?? '',
      path: r.path ?? '',
      filename: r.filename ?? '',
    })),
    ...(
      await db
        .selectFrom('adr_letterbox')
        .select(['res_id', 'type', 'version', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .orderBy('res_id')
        .orderBy('id')
        .execute()
    ).map((r) => ({ table: 'adr_letterbox' as const, ...r })),
    ...(
      await db
        .selectFrom('res_attachments')
        .select(['res_id', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .where('filename', 'is not', null)
        .orderBy('res_id')
        .execute()
    ).map((r) => ({
      table: 'res_attachments' as const,
      type: null,
      version: null,
      ...r,
      res_id: Number(r.res_id),
      path: r.path ?? '',
      filename: r.filename ?? '',
    })),
  ]

  const referenced = new Set<string>()
  const problems: StorageProblem[] = []
  for (const row of rows) {
    const template = areas.get(row.docserver_id)
    const key = template === undefined ? null : store.keyOf(template, row.path, row.filename)
    const shown = key ?? `${row.docserver_id}:${row.path}${row.filename}`
    const problem = (kind: StorageProblem['problem']) =>
      problems.push({
        table: row.table,
        resId: row.res_id,
        type: row.type,
        version: row.version,
        file: shown,
        problem: kind,
      })
    if (template === undefined) {
      problem('unknown-docserver')
      continue
    }
    if (key === null) {
      problem('outside-root')
      continue
    }
    referenced.add(key)
    const digest = await sha256OfStoredFile(store, key)
    if (digest === null) problem('missing')
    else if (row.fingerprint && digest !== row.fingerprint.toLowerCase()) problem('fingerprint')
  }

  let filesSeen = 0
  const orphans: string[] = []
  for await (const file of store.list()) {
    filesSeen++
    if (referenced.has(file.key) || now - file.modifiedMs < grace) continue
    orphans.push(file.key)
  }
  orphans.sort()
  const removed: string[] = []
  if (!options.dryRun) {
    for (const orphan of orphans) {
      await store.remove(orphan)
      removed.push(orphan)
    }
  }
  return { rowsChecked: rows.length, filesSeen, problems, orphans, removed }
}
