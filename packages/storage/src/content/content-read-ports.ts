import type { ContentReadDependencies } from '@mailroom/core'
import type { ContentReaderContext } from './content-context.js'
import { type StoredContentFile, StoredContentFiles } from './content-files.js'
import { type ContentSettings, DEFAULT_CONTENT_SETTINGS } from './content-settings.js'
import { WatermarkCache } from './watermark-cache.js'

export type { ContentJournal, ContentReaderContext } from './content-context.js'

/**
 * The ports of core's three content reads (content, originalContent, content/{version}) over the stored files
 * (StoredContentFiles): storage looks records up, reads and checks their files, stores conversions and commits
 * traces; core checks in the reference's order, converts, watermarks and words the answers and the traces.
 * Attachments' files are read through the same `files`, with the same watermark settings and cache.
 */
export class ContentReadPorts {
  readonly files: StoredContentFiles
  /** What attachments' reads share with records': the ports and settings of the watermark and conversion. */
  readonly shared: Omit<ContentReadDependencies<StoredContentFile>, 'files'>

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
  }

  /** Core's content reads' dependencies. */
  get dependencies(): ContentReadDependencies<StoredContentFile> {
    return { ...this.shared, files: this.files }
  }

  /** Stops the reading threads (reads after this run on the event loop). */
  close(): Promise<void> {
    return this.files.close()
  }
}
