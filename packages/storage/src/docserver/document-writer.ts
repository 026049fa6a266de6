import { createHash, randomBytes } from 'node:crypto'
import { closeSync, fsync, open as openFile, writeSync } from 'node:fs'
import { mkdir, open, readdir, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import type { DocserverRoot } from './docserver-root.js'
import type { StoredDocument } from './document-store.js'
import { FolderSyncs, syncDirectory } from './folder-syncs.js'

/** Files per `NNNN` sub-folder before the next one starts (the reference's limit). */
export const FILES_PER_FOLDER = 1000

/**
 * Files up to this size are written and closed by direct calls on the event loop (tens of microseconds into
 * the page cache); their creation and fsync go to libuv's thread pool. Each of the direct calls made
 * asynchronously would otherwise queue behind other creates' fsyncs in the pool's four threads (measured at
 * 16 concurrent creates, the file's part of a create went from 25 ms to 17 ms with the shared folder fsyncs,
 * FolderSyncs). Creating a file may cost far more than writing it: ext4 looks for a free inode while holding
 * the folder's lock, and without a journal it skips, one by one, the inodes freed in the last minute (five
 * while their table is not yet written back), so after a mass deletion a creation took 0.1-0.5 ms of kernel
 * CPU (measured on the 2-core development VM). It never runs on the event loop. Larger files keep every call
 * asynchronous, so a big write never holds the loop.
 */
export const DIRECT_WRITE_MAX_BYTES = 256 * 1024

const fsyncDescriptor = promisify(fsync)
const createDescriptor = promisify(openFile)

/**
 * Writes documents durably into `<root>/<path_template>/YYYY/MM/NNNN/<random>.<ext>`: the file created under
 * its final name (exclusively: the name is 128 random bits), fsync, fsync of the folder (shared by concurrent
 * writes, see FolderSyncs). After `write` resolves the file survives a crash; a write that fails removes its
 * file, and a crash before a record commits leaves an orphan for `mailroom fsck`, as a record that never commits
 * does. No temporary name and rename: no one knows a name before `write` returns it, so no reader can see a
 * file being written, and on ext4 the rename tripled the kernel's time per file (docs/benchmarks.md, 16 writes at
 * once of 79 KB files: 1,350–1,590 files/s with a rename, 3,160–3,740 without). Names never come from callers.
 *
 * `NNNN` moves on after FILES_PER_FOLDER files. The count is kept in memory per month folder (seeded from
 * the disk once), so several processes sharing a root may overfill a folder a little: the limit only keeps
 * folders listable, it is not a rule.
 */
export class DocumentWriter {
  readonly #root: DocserverRoot
  readonly #folders = new Map<string, { folder: number; files: number }>()
  readonly #created = new Set<string>()
  readonly #monthDirs = new Map<string, string | null>()
  readonly #folderSyncs: FolderSyncs

  constructor(root: DocserverRoot, folderSyncs: FolderSyncs = new FolderSyncs()) {
    this.#root = root
    this.#folderSyncs = folderSyncs
  }

  /** Stores `bytes` under the area `pathTemplate` with extension `extension` (already validated, lower case). */
  async write(pathTemplate: string, extension: string, bytes: Uint8Array, now: Date): Promise<StoredDocument> {
    const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`
    const monthDir = this.#monthDir(pathTemplate, month)
    if (monthDir === null || !/^[a-z0-9]{1,10}$/.test(extension)) throw new Error('refused storage path')
    const path = `${month}/${await this.#nextFolder(monthDir)}/`
    const filename = `${randomBytes(16).toString('hex')}.${extension}`
    const directory = join(monthDir, path.slice(month.length + 1))
    if (!this.#created.has(directory)) {
      await mkdir(directory, { recursive: true })
      this.#created.add(directory)
    }
    const absolutePath = join(directory, filename)
    try {
      if (bytes.length <= DIRECT_WRITE_MAX_BYTES) await writeDirectly(absolutePath, bytes)
      else await writeThroughPool(absolutePath, bytes)
      await this.#folderSyncs.sync(directory)
    } catch (error) {
      // Not known to be whole and durable: the caller treats the write as failed, so the file goes too; unless
      // it was never created because the name was taken, when the file there is another write's.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(absolutePath, { force: true }).catch(() => {})
      throw error
    }
    return {
      path,
      filename,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      key: this.#root.keyOf(absolutePath),
    }
  }

  /** The month's folder of an area, checked inside the root once (path operations cost per write otherwise). */
  #monthDir(pathTemplate: string, month: string): string | null {
    const key = `${pathTemplate}\0${month}`
    let dir = this.#monthDirs.get(key)
    if (dir === undefined) {
      dir = this.#root.fileOf(pathTemplate, month, '')
      this.#monthDirs.set(key, dir)
    }
    return dir
  }

  /** Removes a file by its absolute path (a create that failed before its commit); a missing file is not an error. */
  async remove(absolutePath: string): Promise<void> {
    await rm(absolutePath, { force: true })
    await syncDirectory(dirname(absolutePath)).catch(() => {})
  }

  async #nextFolder(monthDir: string): Promise<string> {
    let state = this.#folders.get(monthDir)
    if (state === undefined) {
      state = await scanMonth(monthDir)
      this.#folders.set(monthDir, state)
    }
    if (state.files >= FILES_PER_FOLDER) state = { folder: state.folder + 1, files: 0 }
    state.files++
    this.#folders.set(monthDir, state)
    return String(state.folder).padStart(4, '0')
  }
}

/** The highest `NNNN` folder of a month and how many files it holds (folder 1, empty, for a new month). */
async function scanMonth(monthDir: string): Promise<{ folder: number; files: number }> {
  const entries = await readdir(monthDir).catch(() => [] as string[])
  const folder = Math.max(1, ...entries.filter((e) => /^\d{4}$/.test(e)).map(Number))
  const files = await readdir(join(monthDir, String(folder).padStart(4, '0'))).catch(() => [] as string[])
  return { folder, files: files.length }
}

/** A small file: created and fsynced in the thread pool, written and closed directly (DIRECT_WRITE_MAX_BYTES). */
async function writeDirectly(target: string, bytes: Uint8Array): Promise<void> {
  const descriptor = await createDescriptor(target, 'wx', 0o640)
  try {
    for (let written = 0; written < bytes.length; ) written += writeSync(descriptor, bytes, written)
    await fsyncDescriptor(descriptor)
  } finally {
    closeSync(descriptor)
  }
}

/** A large file: every call through libuv's thread pool, so the event loop never waits on its bytes. */
async function writeThroughPool(target: string, bytes: Uint8Array): Promise<void> {
  const handle = await open(target, 'wx', 0o640)
  try {
    await handle.writeFile(bytes)
    await handle.sync()
  } finally {
    await handle.close()
  }
}
