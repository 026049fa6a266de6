import type { ExtractedText, FullTextIndex } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'
import type { Logger } from '../logger.js'
import { type ClaimedJob, FullTextQueue, indexableText } from './fulltext-queue.js'
import type { FullTextSettings } from './fulltext-settings.js'

/**
 * The queue of an installation whose full-text index is an external engine: a text is kept in the database
 * as always (the source of truth, reindexing needs no OCR again), then put in the engine. A put that fails is
 * logged and leaves the engine without that file until it is put again (`mailroom fulltext reindex` of the
 * file, or a re-extraction): searches still answer from the engine's other candidates, never outside the
 * perimeter.
 */
export class FeedingQueue extends FullTextQueue {
  readonly #index: FullTextIndex
  readonly #settings: FullTextSettings
  readonly #logger: Logger

  constructor(db: Kysely<Database>, settings: FullTextSettings, index: FullTextIndex, logger: Logger) {
    super(db, settings)
    this.#index = index
    this.#settings = settings
    this.#logger = logger
  }

  override async complete(job: ClaimedJob, fingerprint: string | null, extracted: ExtractedText): Promise<boolean> {
    const done = await super.complete(job, fingerprint, extracted)
    if (!done) return false
    try {
      await this.#index.put({
        fileKind: job.file_kind,
        fileId: job.file_id,
        resId: job.res_id,
        language: this.#settings.language,
        text: indexableText(extracted.text),
      })
    } catch (error) {
      this.#logger.warn(
        { err: error, resId: job.res_id, fileKind: job.file_kind, fileId: job.file_id },
        'full-text index: could not put a text',
      )
    }
    return true
  }
}
