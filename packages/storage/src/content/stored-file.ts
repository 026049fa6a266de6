import { open } from 'node:fs/promises'
import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream'
import { type DomainError, domainError } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DocumentStore } from '../docserver/document-store.js'
import { digestStream, type FileDigest, fingerprintAlgorithm, Hashes } from '../docserver/file-digest.js'
import { fileError } from '../docserver/folder-document-store.js'
import { type StorageAreaCache, storageAreaById } from '../docserver/storage-areas.js'

// Digests were computed here before the document store's own checks needed them; what reads files still names them here.
export { digestOf, digestStream, type FileDigest, fingerprintAlgorithm } from '../docserver/file-digest.js'

/** The columns that place a file in the document storage (res_letterbox or adr_letterbox). */
export interface StoredFileRef {
  readonly docserver_id: string | null
  readonly path: string | null
  readonly filename: string | null
  readonly fingerprint: string | null
  readonly filesize: number | null
}

/** A stored file found in its store, with what its row says it should be. */
export interface LocatedFile {
  /** Its key in the document store. */
  readonly key: string
  /** Its path on this machine's disk when the store has one (the reading threads read it); null in a bucket. */
  readonly localPath: string | null
  /** node:crypto name of the storage area's fingerprint algorithm. */
  readonly algorithm: string
  /** Stored fingerprint, lower-case hex; null when the row has none (to be back-filled). */
  readonly expected: string | null
  readonly expectedSize: number | null
  /** Size in the store now. */
  readonly size: number
}

/**
 * Finds a stored file: its storage area row (missing → 404 `Docserver does not exist`, also when the
 * area's folder is gone), then the file (missing → 404 `Document not found in docserver`; a folder or an
 * unreadable entry → 400 `could not decode encoded data, or open target file`; a store that cannot be
 * reached → 503).
 */
export async function locateFile(
  db: Kysely<Database>,
  store: DocumentStore,
  ref: StoredFileRef,
  areas?: StorageAreaCache,
): Promise<LocatedFile> {
  const area = ref.docserver_id
    ? await (areas ? areas.byId(db, ref.docserver_id) : storageAreaById(db, ref.docserver_id))
    : undefined
  if (!area) throw domainError('DOCSERVER_NOT_FOUND')
  if (store.keyOf(area.pathTemplate, '', '') === null) throw domainError('DOCSERVER_NOT_FOUND')
  const key = store.keyOf(area.pathTemplate, ref.path ?? '', ref.filename ?? '')
  // The area is only looked at when the file cannot be found: a file found is inside an existing area.
  const missing = async (): Promise<never> => {
    throw domainError((await store.hasArea(area.pathTemplate)) ? 'DOCUMENT_NOT_IN_DOCSERVER' : 'DOCSERVER_NOT_FOUND')
  }
  // A row pointing outside its area is treated as a missing file, never followed.
  if (key === null || !ref.filename) return missing()
  // In object storage a HEAD costs a round trip as long as the read itself: the row's size is taken as
  // the object's, and a missing or different object shows when it is read (404, or a digest that differs).
  const known = !store.local && ref.filesize !== null && ref.filesize > 0 && ref.fingerprint ? ref.filesize : null
  const size = known ?? (await store.size(key))
  if (size === null) return missing()
  const expected = ref.fingerprint?.trim().toLowerCase() || null
  return {
    key,
    localPath: store.localPath(key),
    algorithm: fingerprintAlgorithm(area.fingerprintMode),
    expected,
    expectedSize: ref.filesize ?? null,
    size,
  }
}

/** The domain error of a failed file access: missing → 404, not readable → 400, anything else → 500. */
export function readError(error: unknown): DomainError {
  return fileError(error) as DomainError
}

/**
 * Reads a whole stored file (the size found when it was located) and hashes it in the same pass: each
 * 256 KiB slice is hashed on the event loop while the thread pool reads the next one. That costs less CPU
 * than hashing the whole buffer on the thread pool afterwards (Web Crypto copies its input first), and never
 * holds the loop for more than one slice's hash. A file that changed size meanwhile yields bytes whose
 * digest no longer matches the row.
 */
export async function readDigested(file: LocatedFile): Promise<DigestedFile> {
  if (file.localPath === null) throw new Error('readDigested reads local files only; use readDigestedFrom')
  try {
    const handle = await open(file.localPath, 'r')
    try {
      const buffer = Buffer.allocUnsafe(file.size)
      const hashes = new Hashes(file.algorithm)
      const readAt = (offset: number) =>
        offset < buffer.length
          ? handle.read(buffer, offset, Math.min(STREAM_CHUNK, buffer.length - offset), offset)
          : undefined
      let filled = 0
      let pending = readAt(0)
      while (pending) {
        const { bytesRead } = await pending
        if (bytesRead === 0) break
        const chunk = buffer.subarray(filled, filled + bytesRead)
        filled += bytesRead
        pending = readAt(filled)
        hashes.update(chunk)
      }
      return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, filled), digest: hashes.digest() }
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw readError(error)
  }
}

/**
 * A whole stored file read as a stream from its store (object storage), hashed chunk by chunk as it
 * arrives. The bytes go into one buffer of the located size; a file that changed size meanwhile yields bytes
 * whose digest no longer matches the row.
 */
export async function readDigestedFrom(store: DocumentStore, file: LocatedFile): Promise<DigestedFile> {
  const buffer = Buffer.allocUnsafe(file.size)
  const hashes = new Hashes(file.algorithm)
  let filled = 0
  for await (const chunk of (await store.read(file.key)) as AsyncIterable<Buffer>) {
    const room = Math.min(chunk.length, buffer.length - filled)
    chunk.copy(buffer, filled, 0, room)
    hashes.update(chunk)
    filled += room
  }
  return { bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, filled), digest: hashes.digest() }
}

/** The first `length` bytes of a stored file (for MIME sniffing of files too large to hold). */
export async function readHead(store: DocumentStore, file: LocatedFile, length: number): Promise<Uint8Array> {
  const wanted = Math.min(length, file.size)
  if (wanted === 0) return new Uint8Array(0)
  const chunks: Buffer[] = []
  for await (const chunk of (await store.read(file.key, { start: 0, end: wanted - 1 })) as AsyncIterable<Buffer>)
    chunks.push(chunk)
  const bytes = Buffer.concat(chunks).subarray(0, wanted)
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)
}

/** A whole stored file's bytes and their digest, computed in the same pass. */
export interface DigestedFile {
  readonly bytes: Uint8Array
  readonly digest: FileDigest
}

/** Digest of a stored file read as a stream (constant memory). */
export async function digestFile(store: DocumentStore, file: LocatedFile): Promise<FileDigest> {
  return digestStream(await store.read(file.key), file.algorithm)
}

/** True when a digest is the one the row stores (fingerprint and, when known, size). */
export function digestMatches(file: LocatedFile, digest: FileDigest): boolean {
  return (
    file.expected !== null &&
    digest.fingerprint === file.expected &&
    (file.expectedSize === null || file.expectedSize === digest.size)
  )
}

const STREAM_CHUNK = 256 * 1024

/**
 * The file as a stream (`source`, opened by the caller from the store, bounded to the size announced in
 * Content-Length) that hashes while it is read and holds back its last chunk until the digest is
 * known: a digest that does not match the row makes the stream fail instead of delivering that chunk, so a
 * response with Content-Length is visibly cut short rather than complete with wrong bytes. Memory stays at
 * about two chunks whatever the file size. `onMismatch` runs once, before the failure.
 */
export function verifyingStream(
  source: Readable,
  file: LocatedFile,
  onMismatch: (digest: FileDigest) => void,
): Readable {
  const hashes = new Hashes(file.algorithm)
  let held: Buffer | undefined
  const verifier = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      hashes.update(chunk)
      const previous = held
      held = chunk
      callback(null, previous)
    },
    flush(callback: TransformCallback) {
      const digest = hashes.digest()
      if (!digestMatches(file, digest)) {
        onMismatch(digest)
        callback(domainError('FINGERPRINT_MISMATCH'))
        return
      }
      if (held) this.push(held)
      callback()
    },
  })
  return pipeline(source, verifier, () => {})
}
