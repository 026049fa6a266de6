import { Worker } from 'node:worker_threads'
import { type FileDigest, type LocatedFile, readDigested, readError } from './stored-file.js'

/** What a read gives: the file's bytes and their digest, computed in the same pass. */
export interface DigestedFile {
  readonly bytes: Uint8Array
  readonly digest: FileDigest
}

interface ReadJob {
  readonly id: number
  readonly path: string
  readonly size: number
  readonly algorithm: string
  /** Where the thread puts the bytes: shared, at least `size` long, owned by the pool until the reply. */
  readonly slot: SharedArrayBuffer
}

type ReadReply =
  | { readonly id: number; readonly filled: number; readonly fingerprint: string; readonly sha256: string }
  | { readonly id: number; readonly error: { readonly code?: string; readonly message: string } }

// Plain CommonJS, run with `eval`: the same source works from the TypeScript sources under test and from
// the bundled package, with no separate entry file to ship and locate.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { openSync, readSync, closeSync } = require('node:fs')
const { createHash } = require('node:crypto')
parentPort.on('message', ({ id, path, size, algorithm, slot }) => {
  let fd
  try {
    fd = openSync(path, 'r')
    const view = new Uint8Array(slot, 0, size)
    let filled = 0
    while (filled < size) {
      const read = readSync(fd, view, filled, size - filled, filled)
      if (read === 0) break
      filled += read
    }
    const bytes = view.subarray(0, filled)
    const fingerprint = createHash(algorithm).update(bytes).digest('hex')
    const sha256 = algorithm === 'sha256' ? fingerprint : createHash('sha256').update(bytes).digest('hex')
    parentPort.postMessage({ id, filled, fingerprint, sha256 })
  } catch (error) {
    parentPort.postMessage({ id, error: { code: error && error.code, message: String(error && error.message) } })
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
})
`

interface Pending {
  readonly slot: SharedArrayBuffer
  readonly resolve: (file: DigestedFile) => void
  readonly reject: (error: unknown) => void
}

/**
 * Shared buffers the threads read into, reused: a buffer handed over by a thread (transferred) is accounted
 * by V8 as external memory and, at one per read, set off a full garbage collection every few hundred
 * milliseconds; a reused shared buffer is allocated once and the bytes are copied out into an ordinary one.
 */
class SlotPool {
  readonly #free: SharedArrayBuffer[] = []

  take(size: number): SharedArrayBuffer {
    const index = this.#free.findIndex((slot) => slot.byteLength >= size)
    if (index >= 0) return this.#free.splice(index, 1)[0] as SharedArrayBuffer
    return new SharedArrayBuffer(Math.max(SLOT_MIN_BYTES, 2 ** Math.ceil(Math.log2(Math.max(1, size)))))
  }

  give(slot: SharedArrayBuffer): void {
    if (slot.byteLength <= SLOT_KEEP_MAX_BYTES && this.#free.length < SLOT_KEEP_COUNT) this.#free.push(slot)
  }
}

const SLOT_MIN_BYTES = 1024 * 1024
/** Larger buffers (rare large files) are left to the garbage collector rather than kept. */
const SLOT_KEEP_MAX_BYTES = 4 * 1024 * 1024
const SLOT_KEEP_COUNT = 8

/** One worker thread and the reads it has in hand. */
class ReaderThread {
  readonly #worker: Worker
  readonly #pending = new Map<number, Pending>()
  #failed: Error | undefined

  readonly #slots: SlotPool

  constructor(slots: SlotPool, onExit: (thread: ReaderThread) => void) {
    this.#slots = slots
    this.#worker = new Worker(WORKER_SOURCE, { eval: true })
    // The pool must never keep a process alive (an embedder's, a test runner's): idle threads are unref'd.
    this.#worker.unref()
    this.#worker.on('message', (reply: ReadReply) => this.#settle(reply))
    const fail = (error: Error) => {
      this.#failed ??= error
      // A slot a dead thread may still be writing into is not reused.
      for (const pending of this.#pending.values()) pending.reject(this.#failed)
      this.#pending.clear()
      onExit(this)
    }
    this.#worker.on('error', fail)
    this.#worker.on('exit', (code) => fail(new Error(`file reader thread exited with code ${code}`)))
  }

  get load(): number {
    return this.#pending.size
  }

  read(job: Omit<ReadJob, 'slot'>): Promise<DigestedFile> {
    if (this.#failed) return Promise.reject(this.#failed)
    return new Promise<DigestedFile>((resolve, reject) => {
      const slot = this.#slots.take(job.size)
      if (this.#pending.size === 0) this.#worker.ref()
      this.#pending.set(job.id, { slot, resolve, reject })
      this.#worker.postMessage({ ...job, slot } satisfies ReadJob)
    })
  }

  terminate(): Promise<number> {
    return this.#worker.terminate()
  }

  #settle(reply: ReadReply): void {
    const pending = this.#pending.get(reply.id)
    if (!pending) return
    this.#pending.delete(reply.id)
    if (this.#pending.size === 0) this.#worker.unref()
    if ('error' in reply) {
      this.#slots.give(pending.slot)
      pending.reject(readError(Object.assign(new Error(reply.error.message), { code: reply.error.code })))
      return
    }
    const bytes = Buffer.allocUnsafe(reply.filled)
    bytes.set(new Uint8Array(pending.slot, 0, reply.filled))
    this.#slots.give(pending.slot)
    const digest = { fingerprint: reply.fingerprint, sha256: reply.sha256, size: reply.filled }
    pending.resolve({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, reply.filled), digest })
  }
}

/**
 * Reads whole stored files and hashes them on worker threads. Every read re-hashes every byte it serves,
 * which is the largest CPU cost of a content read after sending it; on the event loop it would serialise
 * with everything else the server does. Each thread reads the file into a buffer it then hands over (no
 * copy) with the digest. With `threads: 0`, or when a thread cannot be started, files are read and hashed
 * on the event loop instead (readDigested), slice by slice.
 */
export class FileReaderPool {
  readonly #size: number
  readonly #threads: ReaderThread[] = []
  readonly #slots = new SlotPool()
  #nextId = 0
  #closed = false

  constructor(threads: number) {
    this.#size = Math.max(0, Math.floor(threads))
  }

  read(file: LocatedFile): Promise<DigestedFile> {
    const thread = this.#closed ? undefined : this.#thread()
    if (!thread) return readDigested(file)
    return thread.read({ id: this.#nextId++, path: file.absolutePath, size: file.size, algorithm: file.algorithm })
  }

  /** Stops the threads; later reads run on the event loop. */
  async close(): Promise<void> {
    this.#closed = true
    const threads = this.#threads.splice(0)
    await Promise.all(threads.map((thread) => thread.terminate()))
  }

  /** The least busy thread, starting another while fewer than `threads` run and all are busy. */
  #thread(): ReaderThread | undefined {
    let best: ReaderThread | undefined
    for (const thread of this.#threads) if (!best || thread.load < best.load) best = thread
    if ((best === undefined || best.load > 0) && this.#threads.length < this.#size) {
      try {
        const started = new ReaderThread(this.#slots, (gone) => {
          const index = this.#threads.indexOf(gone)
          if (index >= 0) this.#threads.splice(index, 1)
        })
        this.#threads.push(started)
        return started
      } catch {
        return best
      }
    }
    return best
  }
}
