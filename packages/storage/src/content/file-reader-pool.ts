import { Worker } from 'node:worker_threads'
import { type DigestedFile, type LocatedFile, readDigested, readError } from './stored-file.js'

interface ReadJob {
  readonly path: string
  readonly size: number
  readonly algorithm: string
  /** A new buffer for the thread to keep reading into, sent only when the thread's must grow or shrink. */
  readonly slot?: SharedArrayBuffer
}

type ReadReply =
  | { readonly filled: number; readonly fingerprint: string; readonly sha256: string }
  | { readonly error: { readonly code?: string; readonly message: string } }

// Plain CommonJS, run with `eval`: the same source works from the TypeScript sources under test and from
// the bundled package, with no separate entry file to ship and locate.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads')
const { openSync, readSync, closeSync } = require('node:fs')
const { createHash } = require('node:crypto')
let buffer
parentPort.on('message', ({ path, size, algorithm, slot }) => {
  if (slot) buffer = slot
  let fd
  try {
    fd = openSync(path, 'r')
    const view = new Uint8Array(buffer, 0, size)
    let filled = 0
    while (filled < size) {
      const read = readSync(fd, view, filled, size - filled, filled)
      if (read === 0) break
      filled += read
    }
    const bytes = view.subarray(0, filled)
    const fingerprint = createHash(algorithm).update(bytes).digest('hex')
    const sha256 = algorithm === 'sha256' ? fingerprint : createHash('sha256').update(bytes).digest('hex')
    parentPort.postMessage({ filled, fingerprint, sha256 })
  } catch (error) {
    parentPort.postMessage({ error: { code: error && error.code, message: String(error && error.message) } })
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
})
`

interface Queued {
  readonly file: LocatedFile
  readonly resolve: (file: DigestedFile) => void
  readonly reject: (error: unknown) => void
}

/** Buffers grow in steps of this size, so files of about the same size reuse one. */
const SLOT_STEP_BYTES = 256 * 1024

/**
 * One worker thread, its buffer, and the reads waiting for it. The thread reads into a shared buffer that it
 * keeps (sent once, again only to grow it), and answers with the digest; the bytes are then copied out, a
 * tenth of the hash's cost. The next read is only sent once the copy is done, so the buffer is never
 * overwritten under it. A buffer handed over per read instead (transferred) is counted by V8 as external
 * memory: one per read set off a full garbage collection every few hundred milliseconds. A new shared buffer
 * per read kept hundreds of megabytes alive until the thread's own, rare, garbage collection.
 */
class ReaderThread {
  readonly #worker: Worker
  readonly #queue: Queued[] = []
  #inFlight: Queued | undefined
  #slot: SharedArrayBuffer | undefined
  #failed: Error | undefined

  constructor(source: string, onExit: (thread: ReaderThread) => void) {
    this.#worker = new Worker(source, { eval: true })
    // The pool must never keep a process alive (an embedder's, a test runner's): idle threads are unref'd.
    this.#worker.unref()
    this.#worker.on('message', (reply: ReadReply) => this.#settle(reply))
    const fail = (error: Error) => {
      if (this.#failed) return
      this.#failed = error
      // The reads it had in hand are done on the event loop instead: a dead thread fails no request.
      for (const waiting of [...(this.#inFlight ? [this.#inFlight] : []), ...this.#queue.splice(0)])
        readDigested(waiting.file).then(waiting.resolve, waiting.reject)
      this.#inFlight = undefined
      onExit(this)
    }
    this.#worker.on('error', fail)
    this.#worker.on('exit', (code) => fail(new Error(`file reader thread exited with code ${code}`)))
  }

  get load(): number {
    return this.#queue.length + (this.#inFlight ? 1 : 0)
  }

  read(file: LocatedFile): Promise<DigestedFile> {
    if (this.#failed) return readDigested(file)
    return new Promise<DigestedFile>((resolve, reject) => {
      this.#queue.push({ file, resolve, reject })
      if (!this.#inFlight) this.#next()
    })
  }

  terminate(): Promise<number> {
    return this.#worker.terminate()
  }

  #next(): void {
    const queued = this.#queue.shift()
    this.#inFlight = queued
    if (!queued) {
      this.#worker.unref()
      return
    }
    this.#worker.ref()
    const { localPath: path, size, algorithm } = queued.file
    const job: ReadJob = { path: path ?? '', size, algorithm }
    const needed = Math.max(SLOT_STEP_BYTES, Math.ceil(size / SLOT_STEP_BYTES) * SLOT_STEP_BYTES)
    // Grown for a large file, the buffer shrinks back at the next ordinary one.
    const resize =
      !this.#slot || this.#slot.byteLength < needed || this.#slot.byteLength > Math.max(needed, SLOT_KEEP_MAX_BYTES)
    if (resize) this.#slot = new SharedArrayBuffer(needed)
    this.#worker.postMessage(resize ? { ...job, slot: this.#slot } : job)
  }

  #settle(reply: ReadReply): void {
    const done = this.#inFlight
    if (!done) return
    if ('error' in reply) {
      done.reject(readError(Object.assign(new Error(reply.error.message), { code: reply.error.code })))
    } else {
      const bytes = Buffer.allocUnsafe(reply.filled)
      bytes.set(new Uint8Array(this.#slot as SharedArrayBuffer, 0, reply.filled))
      const digest = { fingerprint: reply.fingerprint, sha256: reply.sha256, size: reply.filled }
      done.resolve({ bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, reply.filled), digest })
    }
    this.#next()
  }
}

/**
 * Smaller files are read and hashed on the event loop: their hash takes less time (about 0.1 ms at this
 * size) than the two thread wake-ups of a hand-over.
 */
export const THREAD_MIN_BYTES = 128 * 1024

/** Threads that died before the pool stops starting new ones (a machine where they cannot run). */
const MAX_THREAD_FAILURES = 3

/** A buffer larger than this (grown for a rare large file) is not kept for the next, ordinary, read. */
const SLOT_KEEP_MAX_BYTES = 4 * 1024 * 1024

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
  readonly #source: string
  #failures = 0
  #closed = false

  /** `workerSource` replaces the threads' code (tests make threads that die). */
  constructor(threads: number, options: { workerSource?: string } = {}) {
    this.#size = Math.max(0, Math.floor(threads))
    this.#source = options.workerSource ?? WORKER_SOURCE
  }

  /** Reads a file of a local store (`localPath` set). */
  read(file: LocatedFile): Promise<DigestedFile> {
    const threaded = file.size >= THREAD_MIN_BYTES && !this.#closed && this.#failures < MAX_THREAD_FAILURES
    const thread = threaded ? this.#thread() : undefined
    if (!thread) return readDigested(file)
    return thread.read(file)
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
        const started = new ReaderThread(this.#source, (gone) => {
          const index = this.#threads.indexOf(gone)
          if (index < 0) return
          this.#threads.splice(index, 1)
          if (!this.#closed) this.#failures++
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
