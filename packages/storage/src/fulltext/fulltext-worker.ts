import type { ExtractedText, TextExtractor } from '@mailroom/core'
import { digestMatches, locateFile, readDigested, readDigestedFrom } from '../content/stored-file.js'
import type { StorageContext } from '../storage-context.js'
import { FILE_SOURCES } from './file-sources.js'
import type { ClaimedJob, FullTextQueue } from './fulltext-queue.js'
import type { FullTextSettings } from './fulltext-settings.js'

/** How one job ended, for metrics: indexed, to be retried, failed for good, or lost (its lease was taken). */
export type JobOutcome = 'indexed' | 'retry' | 'failed' | 'lost'

/** Told of every job a worker finishes (metrics). */
export interface FullTextObserver {
  jobFinished(outcome: JobOutcome, method: ExtractedText['method'] | 'unknown', seconds: number): void
}

/**
 * Extracts the files of the queue in the background, `settings.workers` at a time: claims a job, reads its
 * file (checked against its fingerprint), extracts the text (or reuses the text kept for the same bytes),
 * and completes the job; sleeps `pollMs` when the queue is empty. The lease is renewed while a long OCR runs.
 * Creates never wait for it: the job is committed with the record, the extraction happens after.
 */
export class FullTextWorker {
  readonly #context: StorageContext
  readonly #queue: FullTextQueue
  readonly #extractor: TextExtractor
  readonly #settings: FullTextSettings
  readonly #server: string
  readonly #observer: FullTextObserver | undefined
  readonly #held = new Set<ClaimedJob>()
  readonly #sleepers = new Set<() => void>()
  #running = false

  constructor(
    context: StorageContext,
    queue: FullTextQueue,
    extractor: TextExtractor,
    settings: FullTextSettings,
    server: string,
    observer?: FullTextObserver,
  ) {
    this.#context = context
    this.#queue = queue
    this.#extractor = extractor
    this.#settings = settings
    this.#server = server
    this.#observer = observer
  }

  /** Starts the background workers (none when settings.workers is 0). */
  start(): void {
    if (this.#running) return
    this.#running = true
    for (let slot = 0; slot < this.#settings.workers; slot++) void this.#loop()
  }

  /** Looks for work now (a create on this server just enqueued a file). */
  wake(): void {
    for (const wake of this.#sleepers) wake()
  }

  /**
   * Extracts waiting files in the caller until none is left that this server may take (tests, and a
   * server started with no background workers). Returns how many jobs it finished.
   */
  async drain(): Promise<number> {
    let finished = 0
    for (;;) {
      const job = await this.#queue.claim(this.#server)
      if (!job) return finished
      await this.#process(job)
      finished++
    }
  }

  /**
   * Stops claiming, and hands the jobs still being extracted back to the queue at once (another server, or
   * this one after a restart, takes them); their extractions' results are then dropped, never written.
   */
  async stop(): Promise<void> {
    this.#running = false
    this.wake()
    const held = [...this.#held]
    this.#held.clear()
    await Promise.all(held.map((job) => this.#queue.release(job).catch(() => {})))
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      let job: ClaimedJob | null = null
      try {
        job = await this.#queue.claim(this.#server)
      } catch (error) {
        this.#context.logger.warn({ err: error }, 'full-text queue: could not claim a job')
      }
      if (!this.#running) {
        if (job) await this.#queue.release(job).catch(() => {})
        return
      }
      if (job) await this.#process(job)
      else await this.#sleep()
    }
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.#sleepers.delete(done)
        resolve()
      }
      const timer = setTimeout(done, this.#settings.pollMs)
      timer.unref()
      this.#sleepers.add(done)
    })
  }

  async #process(job: ClaimedJob): Promise<void> {
    const started = performance.now()
    this.#held.add(job)
    const renewal = setInterval(
      () => {
        this.#queue.renew(job).catch(() => {})
      },
      Math.max(50, Math.floor(this.#settings.leaseMs / 3)),
    )
    renewal.unref()
    let method: ExtractedText['method'] | 'unknown' = 'unknown'
    let outcome: JobOutcome
    try {
      const { fingerprint, extracted } = await this.#extract(job)
      method = extracted.method
      outcome = this.#held.has(job) && (await this.#queue.complete(job, fingerprint, extracted)) ? 'indexed' : 'lost'
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      outcome = job.attempts >= this.#settings.maxAttempts ? 'failed' : 'retry'
      this.#context.logger.warn(
        { resId: job.res_id, fileKind: job.file_kind, fileId: job.file_id, attempts: job.attempts, reason },
        'full-text extraction failed',
      )
      if (this.#held.has(job))
        await this.#queue
          .fail(job, reason)
          .catch((failure) =>
            this.#context.logger.warn({ err: failure }, 'full-text queue: could not record a failure'),
          )
    } finally {
      clearInterval(renewal)
      this.#held.delete(job)
    }
    if (outcome === 'lost')
      this.#context.logger.info({ resId: job.res_id }, 'full-text job taken over or re-enqueued: result dropped')
    this.#observer?.jobFinished(outcome, method, (performance.now() - started) / 1000)
  }

  async #extract(job: ClaimedJob): Promise<{ fingerprint: string | null; extracted: ExtractedText }> {
    if (job.attempts > this.#settings.maxAttempts)
      throw new Error(`abandoned ${job.attempts - 1} times by servers that stopped while extracting it`)
    const source = await FILE_SOURCES[job.file_kind](this.#context, job.file_id)
    if (!source?.filename) return { fingerprint: null, extracted: { text: '', method: 'none', ocrPages: 0 } }
    const fingerprint = source.fingerprint?.trim().toLowerCase() || null
    const kept = await this.#queue.keptText(job, fingerprint)
    if (kept) return { fingerprint, extracted: kept }
    const store = this.#context.docservers
    const file = await locateFile(this.#context.db, store, source)
    const read = file.localPath === null ? await readDigestedFrom(store, file) : await readDigested(file)
    if (file.expected !== null && !digestMatches(file, read.digest))
      throw new Error('the stored file differs from its fingerprint')
    const extracted = await this.#extractor.extract({ bytes: read.bytes, format: source.format ?? '' })
    return { fingerprint, extracted }
  }
}
