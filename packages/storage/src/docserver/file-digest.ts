import { createHash, type Hash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { fileError } from './folder-document-store.js'

/** docserver_types.fingerprint_mode values and the node:crypto algorithm each names. */
const KNOWN_ALGORITHMS: Readonly<Record<string, string>> = {
  SHA256: 'sha256',
  SHA384: 'sha384',
  SHA512: 'sha512',
  SHA1: 'sha1',
  MD5: 'md5',
}

/** docserver_types.fingerprint_mode → node:crypto algorithm; `NONE` or empty means SHA-512 (reference §2.3). */
export function fingerprintAlgorithm(mode: string | null | undefined): string {
  const key = (mode ?? '').trim().toUpperCase().replace('-', '')
  return KNOWN_ALGORITHMS[key] ?? 'sha512'
}

/** What hashing a file gave: the storage area's fingerprint, the SHA-256 the journal speaks, the size. */
export interface FileDigest {
  readonly fingerprint: string
  readonly sha256: string
  readonly size: number
}

/** The area's fingerprint and SHA-256 (the same hash when the area fingerprints with SHA-256), fed chunk by chunk. */
export class Hashes {
  readonly #fingerprint: Hash
  readonly #sha256: Hash | undefined
  #size = 0

  constructor(algorithm: string) {
    this.#fingerprint = createHash(algorithm)
    this.#sha256 = algorithm === 'sha256' ? undefined : createHash('sha256')
  }

  update(chunk: Uint8Array): void {
    this.#fingerprint.update(chunk)
    this.#sha256?.update(chunk)
    this.#size += chunk.length
  }

  digest(): FileDigest {
    const fingerprint = this.#fingerprint.digest('hex')
    return { fingerprint, sha256: this.#sha256?.digest('hex') ?? fingerprint, size: this.#size }
  }
}

/** Digest of bytes held in memory. */
export function digestOf(bytes: Uint8Array, algorithm: string): FileDigest {
  const hashes = new Hashes(algorithm)
  hashes.update(bytes)
  return hashes.digest()
}

/** Digest of a stream of bytes (constant memory). */
export async function digestStream(source: Readable, algorithm: string): Promise<FileDigest> {
  const hashes = new Hashes(algorithm)
  try {
    for await (const chunk of source as AsyncIterable<Buffer>) hashes.update(chunk)
  } catch (error) {
    throw fileError(error)
  }
  return hashes.digest()
}
