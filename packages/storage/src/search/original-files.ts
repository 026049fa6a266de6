import { open, stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve } from 'node:path'
import type { SearchFile } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocumentStore } from '../docserver/document-store.js'

/**
 * Bytes read and encoded at a time: a multiple of 3, so every chunk but the last encodes to base64 without
 * padding and the chunks concatenate to the encoding of the whole file. One buffer per file being read.
 */
export const BASE64_CHUNK_BYTES = 3 * 64 * 1024

/** Where a record's original file lives, as res_letterbox and docservers describe it. */
export interface OriginalFileLocation {
  readonly docserverId: string | null
  readonly path: string | null
  readonly filename: string | null
}

/** The base64 text of a file in chunks of BASE64_CHUNK_BYTES input bytes; the file is opened on first read. */
export async function* base64Chunks(
  filePath: string,
  chunkBytes: number = BASE64_CHUNK_BYTES,
): AsyncGenerator<string, void, undefined> {
  if (chunkBytes <= 0 || chunkBytes % 3 !== 0) throw new RangeError('chunkBytes must be a positive multiple of 3')
  const handle = await open(filePath, 'r')
  try {
    const buffer = Buffer.allocUnsafe(chunkBytes)
    let filled = 0
    for (;;) {
      const { bytesRead } = await handle.read(buffer, filled, chunkBytes - filled, null)
      if (bytesRead === 0) break
      filled += bytesRead
      if (filled === chunkBytes) {
        yield buffer.toString('base64')
        filled = 0
      }
    }
    if (filled > 0) yield buffer.toString('base64', 0, filled)
  } finally {
    await handle.close()
  }
}

/**
 * The base64 text of a stream (a file in object storage) in chunks of `chunkBytes` input bytes, like
 * base64Chunks: the stream's pieces are regrouped so every chunk but the last is a multiple of 3 bytes.
 */
export async function* base64ChunksOf(
  source: AsyncIterable<Uint8Array>,
  chunkBytes: number = BASE64_CHUNK_BYTES,
): AsyncGenerator<string, void, undefined> {
  if (chunkBytes <= 0 || chunkBytes % 3 !== 0) throw new RangeError('chunkBytes must be a positive multiple of 3')
  const buffer = Buffer.allocUnsafe(chunkBytes)
  let filled = 0
  for await (const piece of source) {
    for (let offset = 0; offset < piece.length; ) {
      const taken = Math.min(chunkBytes - filled, piece.length - offset)
      buffer.set(piece.subarray(offset, offset + taken), filled)
      filled += taken
      offset += taken
      if (filled === chunkBytes) {
        yield buffer.toString('base64')
        filled = 0
      }
    }
  }
  if (filled > 0) yield buffer.toString('base64', 0, filled)
}

/** A SearchFile over a key of a store without local files: null when the key is null or no file is there. */
export function storeSearchFile(store: DocumentStore, key: string | null): SearchFile {
  return {
    async open() {
      if (key === null || (await store.size(key).catch(() => null)) === null) return null
      return base64ChunksOf(await store.read(key))
    },
  }
}

/**
 * The absolute path of an original file: `<root>/<path_template><path><filename>`, the legacy `#` separator
 * of `path` read as `/` (reference §2.3). Null when a part is missing or the result would leave the root.
 */
export function originalFilePath(
  root: string,
  pathTemplate: string | undefined,
  location: OriginalFileLocation,
): string | null {
  if (pathTemplate === undefined || !location.filename) return null
  const base = resolve(root)
  const full = resolve(base, pathTemplate, (location.path ?? '').replaceAll('#', '/'), location.filename)
  const inside = relative(base, full)
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return null
  return full
}

/** A SearchFile over a path: null when there is no path or no regular file there (missing, a folder…). */
export function searchFileAt(filePath: string | null): SearchFile {
  return {
    async open() {
      if (filePath === null) return null
      try {
        if (!(await stat(filePath)).isFile()) return null
      } catch {
        return null
      }
      return base64Chunks(filePath)
    },
  }
}

/**
 * The original files of records already authorised by the search: one query for their locations and one
 * for the storage areas they name. Records without a file, or with an unknown storage area, get a file
 * that opens to null.
 */
export async function originalFilesOf(
  db: Kysely<Database>,
  store: DocumentStore,
  resIds: readonly number[],
): Promise<Map<number, SearchFile>> {
  const files = new Map<number, SearchFile>()
  const ids = [...new Set(resIds)]
  if (ids.length === 0) return files
  const rows = await db
    .selectFrom('res_letterbox')
    .select(['res_id', 'docserver_id', 'path', 'filename'])
    .where(sql<boolean>`res_id = any(${sql.val(ids)}::bigint[])`)
    .execute()
  const docserverIds = [...new Set(rows.map((r) => r.docserver_id).filter((id): id is string => id !== null))]
  const templates = new Map<string, string>()
  if (docserverIds.length > 0) {
    const docservers = await db
      .selectFrom('docservers')
      .select(['docserver_id', 'path_template'])
      .where('docserver_id', 'in', docserverIds)
      .execute()
    for (const d of docservers) templates.set(d.docserver_id, d.path_template)
  }
  for (const row of rows) {
    const template = row.docserver_id === null ? undefined : templates.get(row.docserver_id)
    const location = { docserverId: row.docserver_id, path: row.path, filename: row.filename }
    if (store.local) {
      files.set(Number(row.res_id), searchFileAt(originalFilePath(store.description, template, location)))
      continue
    }
    const key =
      template === undefined || !location.filename
        ? null
        : store.keyOf(template, location.path ?? '', location.filename)
    files.set(Number(row.res_id), storeSearchFile(store, key))
  }
  return files
}
