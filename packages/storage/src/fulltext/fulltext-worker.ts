import type { ExtractedText, TextExtractor } from '@mailroom/core'
import { digestMatches, locateFile, readDigested, readDigestedFrom } from '../content/stored-file.js'
import type { StorageContext } from '../storage-context.js'
import { FILE_SOURCES } from './file-sources.js'
import type { ClaimedJob, FullTextQueue } from './fulltext-queue.js'
import type { FullTextSettings } from './fulltext-settings.js'
import { LeaseKeeper, type LeaseScheduler, SYSTEM_LEASE_SCHEDULER } from './lease-keeper.js'

/** How one job ended, for metrics: indexed, to be retried, failed for good, or lost (its lease was taken). */
export type JobOutcome = 'indexed' | 'retry' | 'failed' | 'lost'

/** Told of every job a worker finishes (metrics). */
export interface FullTextObserver {
  jobFinished(outcome: JobOutcome, method: ExtractedText['method'] | 'unknown', seconds: number): void
}

/**
 * Extracts the files of the queue in the background, `settings.workers` at a time: claims a job, reads its
 * file (checked against its fingerprint), extracts the text (or reuses the text kept for the same bytes),
 * and completes the job; sleeps `pollMs` when the queue is empty. The lease is renewed while a long OCR runs
 * (LeaseKeeper: a third of the lease after the last renewal was asked for); a job whose lease was lost is
 * not completed (and could not be: every write of the queue is fenced by the claim's lease token).
 * Creates never wait for it: the job is committed with the record, the extraction happens after.
 */
export class FullTextWorker {
  readonly #context: StorageContext
  readonly #queue: FullTextQueue
  readonly #extractor: TextExtractor
  readonly #settings: FullTextSettings
  readonly #server: string
  readonly #observer: FullTextObserver | undefined
  readonly #scheduler: LeaseScheduler
  /** The jobs being extracted, each with the keeper of its lease. */
  readonly #held = new Map<ClaimedJob, LeaseKeeper>()
  readonly #sleepers = new Set<() => void>()
  #running = false

  constructor(
    context: StorageContext,
    queue: FullTextQueue,
    extractor: TextExtractor,
    settings: FullTextSettings,
    server: string,
    observer?: FullTextObserver,
    scheduler: LeaseScheduler = SYSTEM_LEASE_SCHEDULER,
  ) {
    this.#scheduler = scheduler
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
      const asked = this.#scheduler.now()
      const job = await this.#queue.claim(this.#server)
      if (!job) return finished
      await this.#process(job, asked)
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
    for (const [, keeper] of held) keeper.stop()
    await Promise.all(held.map(([job]) => this.#queue.release(job).catch(() => {})))
  }

  async #loop(): Promise<void> {
    while (this.#running) {
      let job: ClaimedJob | null = null
      const asked = this.#scheduler.now()
      try {
        job = await this.#queue.claim(this.#server)
      } catch (error) {
        this.#context.logger.warn({ err: error }, 'full-text queue: could not claim a job')
      }
      if (!this.#running) {
        if (job) await this.#queue.release(job).catch(() => {})
        return
      }
      if (job) await this.#process(job, asked)
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

  /** `asked`: the scheduler's time just before the claim was sent (the lease runs from no earlier). */
  async #process(job: ClaimedJob, asked: number): Promise<void> {
    const started = performance.now()
    const log = { resId: job.res_id, fileKind: job.file_kind, fileId: job.file_id }
    const keeper = new LeaseKeeper(
      {
        leaseMs: this.#settings.leaseMs,
        renew: () => this.#queue.renew(job),
        onError: (error) =>
          this.#context.logger.warn({ err: error, ...log }, 'full-text queue: could not renew a lease'),
        scheduler: this.#scheduler,
      },
      asked,
    )
    this.#held.set(job, keeper)
    // Still ours: not handed back by stop(), and no renewal found the lease taken over.
    const holding = () => this.#held.has(job) && !keeper.lost
    let method: ExtractedText['method'] | 'unknown' = 'unknown'
    let outcome: JobOutcome
    try {
      const { fingerprint, extracted } = await this.#extract(job)
      method = extracted.method
      outcome = holding() && (await this.#queue.complete(job, fingerprint, extracted)) ? 'indexed' : 'lost'
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error)
      outcome = !holding() ? 'lost' : job.attempts >= this.#settings.maxAttempts ? 'failed' : 'retry'
      this.#context.logger.warn({ ...log, attempts: job.attempts, reason }, 'full-text extraction failed')
      if (holding())
        await this.#queue
          .fail(job, reason)
          .catch((failure) =>
            this.#context.logger.warn({ err: failure }, 'full-text queue: could not record a failure'),
          )
    } finally {
      keeper.stop()
      this.#held.delete(job)
    }
    if (outcome === 'lost') this.#context.logger.info(log, 'full-text job taken over or re-enqueued: result dropped')
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
