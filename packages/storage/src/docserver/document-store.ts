import type { Readable } from 'node:stream'

/** A file written to a document store, as the record columns describe it. */
export interface StoredDocument {
  /** Dated sub-path inside the area, with a trailing slash: `2026/03/0001/`. */
  readonly path: string
  /** Generated name: 128 random bits in hex plus the extension. */
  readonly filename: string
  readonly size: number
  /** Hex SHA-256 of the bytes. */
  readonly sha256: string
  /** Where it lies in its store: `<path_template>/<path><filename>` (see DocumentStore.keyOf). */
  readonly key: string
}

/** One file found by listing a store. */
export interface ListedDocument {
  readonly key: string
  readonly size: number
  /** Last modification, milliseconds since the epoch (orphans younger than fsck's grace are kept). */
  readonly modifiedMs: number
}

/** A byte range of a stored file, both ends included (as HTTP ranges are). */
export interface ByteRange {
  readonly start: number
  readonly end: number
}

/**
 * Where documents are kept: the local folder (FolderDocumentStore) or an object store (the
 * `@mailroom/object-store` package). Every file is addressed by its key, `<path_template>/<path><filename>`
 * with `/` separators, which is the same in every store, so a copy between stores keeps every row as it is.
 *
 * Errors are DomainErrors of core's catalogue: a missing file `DOCUMENT_NOT_IN_DOCSERVER`, an unreadable
 * one `FILE_UNREADABLE`, a store that cannot be reached `DOCUMENT_STORE_UNREACHABLE` (503), one that refuses
 * (access denied, bucket missing) `DOCUMENT_STORE_REFUSED`.
 */
export interface DocumentStore {
  /** How the store is named to people: the folder's path, `s3://bucket/prefix`. */
  readonly description: string
  /** Files of this store are on this machine's disk (reads may then use the reading threads, see localPath). */
  readonly local: boolean
  /** Creates what the store needs (the root folder, the bucket when missing). */
  ensure(): Promise<void>
  /** True when the store answers and may be written (health checks). */
  isUsable(): Promise<boolean>
  /** True when a write succeeds now (readiness): a probe a read-only mount, a full disk or a refused bucket fails. */
  acceptsWrites(): Promise<boolean>
  /** The key of a file from its row's columns; null when it would leave its store (a tampered row). */
  keyOf(pathTemplate: string, path: string, filename: string): string | null
  /**
   * Stores new bytes under the area `pathTemplate` with extension `extension` (validated, lower case), under
   * a name that never comes from callers. Resolves once the file is complete and durable; a failure leaves
   * nothing behind.
   */
  write(pathTemplate: string, extension: string, bytes: Uint8Array, now: Date): Promise<StoredDocument>
  /** Stores a stream of `size` bytes under an exact key (copies between stores), durably; resolves once complete. */
  put(key: string, body: Readable, size: number): Promise<void>
  /** Removes a file; a missing one is not an error. */
  remove(key: string): Promise<void>
  /** The size of a stored file, null when there is none. */
  size(key: string): Promise<number | null>
  /** True when the storage area exists (a bucket has no folders: always true there). */
  hasArea(pathTemplate: string): Promise<boolean>
  /** The file's path on this machine's disk, for stores that have one (null otherwise). */
  localPath(key: string): string | null
  /** The file's bytes as a stream, all of them or a range. */
  read(key: string, range?: ByteRange): Promise<Readable>
  /** Every file of the store, by key. */
  list(): AsyncIterable<ListedDocument>
  /** Releases connections and timers. */
  close(): Promise<void>
}
