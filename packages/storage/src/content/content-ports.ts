import type { ContentDependencies } from '@mailroom/core'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import type { StoredContentFile } from './content-files.js'
import { ContentReadPorts } from './content-read-ports.js'
import type { ContentSettings } from './content-settings.js'
import { VersionWriter } from './version-writer.js'

/**
 * The ports of core's content use cases (content, originalContent, content/{version}, a new version) over
 * kysely and the document storage. `close` stops the reads' worker threads; `reads` serves attachments' files
 * the same way.
 */
export function contentPorts(
  context: StorageContext,
  settings: Partial<ContentSettings> = {},
): ContentDependencies<StoredContentFile> & { close(): Promise<void>; readonly readPorts: ContentReadPorts } {
  const readPorts = new ContentReadPorts(context, settings)
  return {
    reads: readPorts.dependencies,
    versions: { versions: new VersionWriter(context), sniffer: context.sniffer, perimeter: recordPerimeterOf(context) },
    close: () => readPorts.close(),
    readPorts,
  }
}
