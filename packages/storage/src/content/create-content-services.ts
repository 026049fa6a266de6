import type { ContentServices } from '@mailroom/core'
import { createNewVersion } from '@mailroom/core/internal'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { ContentReader } from './content-reader.js'
import type { ContentSettings } from './content-settings.js'
import { VersionWriter } from './version-writer.js'

/**
 * Wires the content use cases (content, originalContent, content/{version}, and core's new version over
 * its port) over kysely and the document storage. `close` stops the reads' worker threads; `reader` serves attachments' files the same way.
 */
export function createContentServices(
  context: StorageContext,
  settings: Partial<ContentSettings> = {},
): ContentServices & { close(): Promise<void>; readonly reader: ContentReader } {
  const reader = new ContentReader(context, settings)
  const versions = {
    versions: new VersionWriter(context),
    sniffer: context.sniffer,
    perimeter: recordPerimeterOf(context),
  }
  return {
    readContent: (actor, resId, query, meta) => reader.content(actor, resId, query, meta),
    readOriginalContent: (actor, resId, query, meta) => reader.originalContent(actor, resId, query, meta),
    readVersionContent: (actor, resId, version, query) => reader.versionContent(actor, resId, version, query),
    createVersion: (actor, resId, body, meta) => createNewVersion(versions, actor, resId, body, meta),
    close: () => reader.close(),
    reader,
  }
}
