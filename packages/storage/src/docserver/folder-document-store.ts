import { createReadStream, createWriteStream } from 'node:fs'
import { lstat, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { domainError } from '@mailroom/core'
import { DocserverRoot } from './docserver-root.js'
import type { ByteRange, DocumentStore, ListedDocument, StoredDocument } from './document-store.js'
import { DocumentWriter } from './document-writer.js'
import { syncDirectory } from './folder-syncs.js'

/** The domain error of a failed file access: missing → 404, not readable → 400, anything else → 500. */
export function fileError(error: unknown): Error {
  if (error instanceof Error && error.name === 'DomainError') return error
  const code = (error as { code?: string } | null)?.code
  if (code === 'ENOENT' || code === 'ENOTDIR') return domainError('DOCUMENT_NOT_IN_DOCSERVER')
  if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR' || code === 'ELOOP')
    return domainError('FILE_UNREADABLE')
  return domainError('DOCSERVER_READ_FAILED')
}

/**
 * The document store in a local (or mounted) folder: `<root>/<path_template>/YYYY/MM/NNNN/<random>.<ext>`,
 * written durably by DocumentWriter (the file under its final name, fsync, grouped folder fsync).
 */
export class FolderDocumentStore implements DocumentStore {
  readonly local = true
  readonly root: DocserverRoot
  readonly #writer: DocumentWriter

  constructor(root: string | DocserverRoot) {
    this.root = typeof root === 'string' ? new DocserverRoot(root) : root
    this.#writer = new DocumentWriter(this.root)
  }

  get description(): string {
    return this.root.path
  }

  ensure(): Promise<void> {
    return this.root.ensure()
  }

  isUsable(): Promise<boolean> {
    return this.root.isUsable()
  }

  acceptsWrites(): Promise<boolean> {
    return this.root.acceptsWrites()
  }

  keyOf(pathTemplate: string, path: string, filename: string): string | null {
    const absolute = this.root.fileOf(pathTemplate, path, filename)
    return absolute === null ? null : this.root.keyOf(absolute)
  }

  write(pathTemplate: string, extension: string, bytes: Uint8Array, now: Date): Promise<StoredDocument> {
    return this.#writer.write(pathTemplate, extension, bytes, now)
  }

  async put(key: string, body: Readable, size: number): Promise<void> {
    const target = this.#path(key)
    await mkdir(dirname(target), { recursive: true })
    const temporary = join(dirname(target), `.${key.split('/').pop()}.${process.pid}.tmp`)
    try {
      const out = createWriteStream(temporary, { flags: 'w', mode: 0o640 })
      await pipeline(body, out)
      const written = (await stat(temporary)).size
      if (written !== size) throw new Error(`copy of ${key} got ${written} bytes, expected ${size}`)
      const handle = await open(temporary, 'r+')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
      await rename(temporary, target)
      await syncDirectory(dirname(target))
    } catch (error) {
      await rm(temporary, { force: true })
      throw error
    }
  }

  async remove(key: string): Promise<void> {
    const path = this.root.pathOf(key)
    if (path !== null) await this.#writer.remove(path)
  }

  async size(key: string): Promise<number | null> {
    const path = this.#path(key)
    try {
      const info = await stat(path)
      if (!info.isFile()) throw domainError('FILE_UNREADABLE')
      return info.size
    } catch (error) {
      const failure = fileError(error) as Error & { code?: string }
      if (failure.code === 'DOCUMENT_NOT_IN_DOCSERVER') return null
      throw failure
    }
  }

  async hasArea(pathTemplate: string): Promise<boolean> {
    const dir = this.root.fileOf(pathTemplate, '', '')
    if (dir === null) return false
    try {
      return (await stat(dir)).isDirectory()
    } catch {
      return false
    }
  }

  localPath(key: string): string | null {
    return this.root.pathOf(key)
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.#path(key)
    if (range && range.end < range.start) {
      // An empty range (an empty file's whole content): nothing to read, but the file must exist.
      if ((await this.size(key)) === null) throw domainError('DOCUMENT_NOT_IN_DOCSERVER')
      return Readable.from([])
    }
    // Opened before returning, so a missing file fails here with its domain error rather than mid-stream.
    const stream = createReadStream(path, {
      ...(range ? { start: range.start, end: range.end } : {}),
      highWaterMark: 256 * 1024,
    })
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve())
      stream.once('error', (error) => reject(fileError(error)))
    })
    return stream
  }

  async *list(): AsyncIterable<ListedDocument> {
    const pending = [this.root.path]
    const out: ListedDocument[] = []
    for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
      const entries = await readdir(current, { withFileTypes: true }).catch(() => [])
      for (const entry of entries) {
        const path = join(current, entry.name)
        if (entry.isDirectory()) pending.push(path)
        else if (entry.isFile()) {
          const info = await lstat(path)
          out.push({ key: this.root.keyOf(path), size: info.size, modifiedMs: info.mtimeMs })
        }
      }
    }
    out.sort((a, b) => a.key.localeCompare(b.key))
    yield* out
  }

  async close(): Promise<void> {}

  #path(key: string): string {
    const path = this.root.pathOf(key)
    if (path === null) throw domainError('DOCUMENT_NOT_IN_DOCSERVER')
    return path
  }
}
