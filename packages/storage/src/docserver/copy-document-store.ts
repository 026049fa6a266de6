import { createHash } from 'node:crypto'
import { pipeline, Transform } from 'node:stream'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocumentStore } from './document-store.js'
import { fingerprintAlgorithm } from './file-digest.js'

/** Where a copy stands, after each file. */
export interface CopyProgress {
  readonly files: number
  readonly done: number
  /** Files already in the target with the right bytes (an earlier, interrupted copy): not sent again. */
  readonly skipped: number
  readonly bytes: number
  readonly problems: number
}

/** A file that could not be copied: missing in the source, or whose bytes do not match its row. */
export interface CopyProblem {
  readonly key: string
  readonly problem: 'missing' | 'fingerprint' | 'outside-store'
}

/** What a copy did: its final progress and the files it could not copy. */
export interface CopyReport extends CopyProgress {
  readonly problemFiles: readonly CopyProblem[]
}

interface FileToCopy {
  readonly key: string
  readonly algorithm: string
  readonly fingerprint: string | null
  readonly size: number | null
}

/**
 * Copies every file the rows reference (res_letterbox, adr_letterbox and res_attachments) from one document store to another,
 * under the same keys, so the rows stay valid as they are. Each file is hashed while it streams through and
 * compared with its row's fingerprint: a file that does not match is removed from the target and reported,
 * never copied silently. Resumable: a file already in the target is hashed there and skipped when it
 * matches, so an interrupted copy run again sends only what is left. Rows are never changed; switch the
 * server to the target store once the report has no problem.
 */
export async function copyDocumentStore(
  db: Kysely<Database>,
  from: DocumentStore,
  to: DocumentStore,
  onProgress: (progress: CopyProgress) => void = () => {},
): Promise<CopyReport> {
  const files = await filesToCopy(db, from)
  const problemFiles: CopyProblem[] = []
  let done = 0
  let skipped = 0
  let bytes = 0
  const progress = () => ({ files: files.length, done, skipped, bytes, problems: problemFiles.length })
  for (const file of files) {
    if (file.key.startsWith('\0')) {
      problemFiles.push({ key: file.key.slice(1), problem: 'outside-store' })
    } else if (await alreadyThere(to, file)) {
      skipped++
    } else {
      const size = await from.size(file.key)
      if (size === null) problemFiles.push({ key: file.key, problem: 'missing' })
      else {
        const digest = await copyOne(from, to, file.key, size, file.algorithm)
        if (file.fingerprint !== null && digest !== file.fingerprint) {
          await to.remove(file.key)
          problemFiles.push({ key: file.key, problem: 'fingerprint' })
        } else bytes += size
      }
    }
    done++
    onProgress(progress())
  }
  return { ...progress(), problemFiles }
}

/** True when the target holds the file with the bytes its row expects. */
async function alreadyThere(to: DocumentStore, file: FileToCopy): Promise<boolean> {
  const size = await to.size(file.key)
  if (size === null || (file.size !== null && size !== file.size) || file.fingerprint === null) return false
  const hash = createHash(file.algorithm)
  for await (const chunk of await to.read(file.key)) hash.update(chunk as Buffer)
  return hash.digest('hex') === file.fingerprint
}

/** Streams one file from source to target, hashing it on the way; the hex digest of what was sent. */
async function copyOne(
  from: DocumentStore,
  to: DocumentStore,
  key: string,
  size: number,
  algorithm: string,
): Promise<string> {
  const hash = createHash(algorithm)
  // Hashed as the target reads: a 'data' listener would start the flow before the target listens, losing bytes.
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      done(null, chunk)
    },
  })
  const source = await from.read(key)
  const flowing = new Promise<void>((resolve, reject) =>
    pipeline(source, through, (error) => (error ? reject(error) : resolve())),
  )
  await Promise.all([to.put(key, through, size), flowing])
  return hash.digest('hex')
}

/** Every distinct file the rows reference, with its area's algorithm and its fingerprint (lower case). */
async function filesToCopy(db: Kysely<Database>, store: DocumentStore): Promise<FileToCopy[]> {
  const areas = new Map(
    (
      await db
        .selectFrom('docservers as d')
        .leftJoin('docserver_types as t', 't.docserver_type_id', 'd.docserver_type_id')
        .select(['d.docserver_id', 'd.path_template', 't.fingerprint_mode'])
        .execute()
    ).map((a) => [a.docserver_id, a]),
  )
  const rows = [
    ...(await db
      .selectFrom('res_letterbox')
      .select(['docserver_id', 'path', 'filename', 'fingerprint', 'filesize'])
      .where('filename', 'is not', null)
      .execute()),
    ...(await db
      .selectFrom('adr_letterbox')
      .select(['docserver_id', 'path', 'filename', 'fingerprint', 'filesize'])
      .execute()),
    ...(await db
      .selectFrom('res_attachments')
      .select(['docserver_id', 'path', 'filename', 'fingerprint', 'filesize'])
      .where('filename', 'is not', null)
      .execute()),
  ]
  const files = new Map<string, FileToCopy>()
  for (const row of rows) {
    const area = row.docserver_id === null ? undefined : areas.get(row.docserver_id)
    if (!area || !row.filename) continue
    const key = store.keyOf(area.path_template, row.path ?? '', row.filename)
    const shown = key ?? `\0${row.docserver_id}:${row.path ?? ''}${row.filename}`
    files.set(shown, {
      key: shown,
      algorithm: fingerprintAlgorithm(area.fingerprint_mode),
      fingerprint: row.fingerprint?.trim().toLowerCase() || null,
      size: row.filesize,
    })
  }
  return [...files.values()].sort((a, b) => a.key.localeCompare(b.key))
}
