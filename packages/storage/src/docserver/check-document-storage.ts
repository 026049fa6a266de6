import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { lstat, readdir, rm } from 'node:fs/promises'
import { join, relative } from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocserverRoot } from './docserver-root.js'

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
  readonly table: 'res_letterbox' | 'adr_letterbox'
  readonly resId: number
  /** adr_letterbox type and version (null for res_letterbox). */
  readonly type: string | null
  readonly version: number | null
  /** File path relative to the storage root. */
  readonly file: string
  readonly problem: 'missing' | 'fingerprint' | 'outside-root' | 'unknown-docserver'
}

/** What a storage check found (paths relative to the storage root). */
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
 * `mailroom fsck`: compares the document storage with the rows that reference it. Every file row is checked
 * (exists, SHA-256 equals its fingerprint); every file under the root that no row of res_letterbox or
 * adr_letterbox references is an orphan (left by a crash between a file's rename and its row's commit) and
 * is removed unless `dryRun`. Rows are never changed: a missing or altered file needs a human.
 */
export async function checkDocumentStorage(db: Kysely<Database>, root: DocserverRoot, options: StorageCheckOptions = {}): Promise<StorageCheckReport> {
  const now = (options.now ?? new Date()).getTime()
  const grace = options.orphanGraceMs ?? 15 * 60_000
  const areas = new Map((await db.selectFrom('docservers').select(['docserver_id', 'path_template']).execute()).map((d) => [d.docserver_id, d.path_template]))
  const rows: FileRow[] = [
    ...(
      await db
        .selectFrom('res_letterbox')
        .select(['res_id', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .where('filename', 'is not', null)
        .orderBy('res_id')
        .execute()
    ).map((r) => ({ table: 'res_letterbox' as const, type: null, version: null, ...r, docserver_id: r.docserver_id ?? '', path: r.path ?? '', filename: r.filename ?? '' })),
    ...(
      await db
        .selectFrom('adr_letterbox')
        .select(['res_id', 'type', 'version', 'docserver_id', 'path', 'filename', 'fingerprint'])
        .orderBy('res_id')
        .orderBy('id')
        .execute()
    ).map((r) => ({ table: 'adr_letterbox' as const, ...r })),
  ]

  const referenced = new Set<string>()
  const problems: StorageProblem[] = []
  for (const row of rows) {
    const template = areas.get(row.docserver_id)
    const absolute = template === undefined ? null : root.fileOf(template, row.path, row.filename)
    const shown = absolute ? relative(root.path, absolute) : `${row.docserver_id}:${row.path}${row.filename}`
    const problem = (kind: StorageProblem['problem']) =>
      problems.push({ table: row.table, resId: row.res_id, type: row.type, version: row.version, file: shown, problem: kind })
    if (template === undefined) {
      problem('unknown-docserver')
      continue
    }
    if (absolute === null) {
      problem('outside-root')
      continue
    }
    referenced.add(absolute)
    const digest = await sha256OfFile(absolute)
    if (digest === null) problem('missing')
    else if (row.fingerprint && digest !== row.fingerprint.toLowerCase()) problem('fingerprint')
  }

  const files = await listFiles(root.path)
  const orphans: string[] = []
  for (const file of files) {
    if (referenced.has(file.path) || now - file.mtimeMs < grace) continue
    orphans.push(file.path)
  }
  const removed: string[] = []
  if (!options.dryRun) {
    for (const orphan of orphans) {
      await rm(orphan, { force: true })
      removed.push(orphan)
    }
  }
  const toRelative = (p: string) => relative(root.path, p)
  return { rowsChecked: rows.length, filesSeen: files.length, problems, orphans: orphans.map(toRelative), removed: removed.map(toRelative) }
}

/** Hex SHA-256 of a file, streamed; null when it does not exist or is not a regular file. */
async function sha256OfFile(path: string): Promise<string | null> {
  try {
    if (!(await lstat(path)).isFile()) return null
  } catch {
    return null
  }
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Every regular file under a folder (symbolic links are not followed), with its modification time. */
async function listFiles(directory: string): Promise<{ path: string; mtimeMs: number }[]> {
  const out: { path: string; mtimeMs: number }[] = []
  const pending = [directory]
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    const entries = await readdir(current, { withFileTypes: true }).catch(() => [])
    for (const entry of entries) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) pending.push(path)
      else if (entry.isFile()) out.push({ path, mtimeMs: (await lstat(path)).mtimeMs })
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path))
}
