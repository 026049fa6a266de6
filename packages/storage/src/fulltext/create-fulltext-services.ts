import type { FullTextIndex, TextExtractor } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'
import { FeedingQueue } from './feeding-queue.js'
import { FullTextQueue, type FullTextQueueStatus } from './fulltext-queue.js'
import { DEFAULT_FULLTEXT_SETTINGS, type FullTextSettings } from './fulltext-settings.js'
import { type FullTextObserver, FullTextWorker } from './fulltext-worker.js'

/** The full-text queue of one server: its background extraction and what operators ask of it. */
export interface FullTextServices {
  readonly settings: FullTextSettings
  /** Counts of the queue and its latest failures (10 unless told). */
  status(failures?: number): Promise<FullTextQueueStatus>
  /** Queues every record not yet indexed, retries the failed, re-indexes texts of another language. */
  reindex(): Promise<{ enqueued: number; retried: number; reindexed: number }>
  /** Extracts every waiting file now, in the caller; resolves with how many it finished. */
  drain(): Promise<number>
  /** Looks for work at once (after a create). */
  wake(): void
  /** Stops the background workers, handing back the files they were extracting. */
  stop(): Promise<void>
}

/**
 * Wires the queue and starts this server's background workers (settings.workers of them). With an external
 * `index`, each text the queue keeps is also put in it.
 */
export function createFullTextServices(
  context: StorageContext,
  extractor: TextExtractor,
  options: Partial<FullTextSettings> & { serverName: string; observer?: FullTextObserver; index?: FullTextIndex },
): FullTextServices {
  const { serverName, observer, index, ...given } = options
  const settings: FullTextSettings = { ...DEFAULT_FULLTEXT_SETTINGS, ...given }
  const queue = index
    ? new FeedingQueue(context.db, settings, index, context.logger)
    : new FullTextQueue(context.db, settings)
  const worker = new FullTextWorker(context, queue, extractor, settings, serverName, observer)
  worker.start()
  return {
    settings,
    status: (failures) => queue.status(failures),
    reindex: () => queue.reindex(),
    drain: () => worker.drain(),
    wake: () => worker.wake(),
    stop: () => worker.stop(),
  }
}
