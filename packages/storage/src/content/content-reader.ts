import type {
  Actor,
  ContentBase64Body,
  ContentQuery,
  ContentReadDependencies,
  ContentReadMeta,
  ContentReads,
  ContentResult,
  OriginalContentBase64Body,
  OriginalContentQuery,
  VersionContentBody,
  VersionContentQuery,
} from '@mailroom/core'
import { createContentReads } from '@mailroom/core/internal'
import type { ContentReaderContext } from './content-context.js'
import { type StoredContentFile, StoredContentFiles } from './content-files.js'
import { type ContentSettings, DEFAULT_CONTENT_SETTINGS } from './content-settings.js'
import { WatermarkCache } from './watermark-cache.js'

export type { ContentJournal, ContentReaderContext } from './content-context.js'

/**
 * Core's three content reads (content, originalContent, content/{version}) wired over the stored files
 * (StoredContentFiles): core checks in the reference's order, converts, watermarks and words the answers and
 * the traces; storage looks records up, reads and checks their files, stores conversions and commits traces.
 * Attachments' files are read through the same `files`, with the same watermark settings and cache.
 */
export class ContentReader {
  readonly files: StoredContentFiles
  /** What attachments' reads share with records': the ports and settings of the watermark and conversion. */
  readonly shared: Omit<ContentReadDependencies<StoredContentFile>, 'files'>
  readonly #reads: ContentReads

  constructor(context: ContentReaderContext, settings: Partial<ContentSettings> = {}) {
    const full = { ...DEFAULT_CONTENT_SETTINGS, ...settings }
    this.files = new StoredContentFiles(context, full)
    this.shared = {
      converter: context.converter,
      sniffer: context.sniffer,
      watermarker: context.watermarker,
      watermarks: new WatermarkCache(),
      clock: context.clock,
      log: context.logger,
      settings: { watermark: full.watermark, timeZone: full.timeZone },
    }
    this.#reads = createContentReads({ ...this.shared, files: this.files })
  }

  /** Stops the reading threads (reads after this run on the event loop). */
  close(): Promise<void> {
    return this.files.close()
  }

  /** `GET /rest/resources/{resId}/content`. */
  content(
    actor: Actor,
    resIdText: string | undefined,
    query: ContentQuery,
    meta: ContentReadMeta = {},
  ): Promise<ContentResult<ContentBase64Body>> {
    return this.#reads.readContent(actor, resIdText, query, meta)
  }

  /** `GET /rest/resources/{resId}/originalContent`. */
  originalContent(
    actor: Actor,
    resIdText: string | undefined,
    query: OriginalContentQuery,
    meta: ContentReadMeta = {},
  ): Promise<ContentResult<OriginalContentBase64Body>> {
    return this.#reads.readOriginalContent(actor, resIdText, query, meta)
  }

  /** `GET /rest/resources/{resId}/content/{version}`. */
  versionContent(
    actor: Actor,
    resIdText: string | undefined,
    versionText: string | undefined,
    query: VersionContentQuery,
  ): Promise<VersionContentBody> {
    return this.#reads.readVersionContent(actor, resIdText, versionText, query)
  }
}
