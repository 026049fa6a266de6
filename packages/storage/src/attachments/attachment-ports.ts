import type { AttachmentDependencies } from '@mailroom/core'
import type { StoredContentFile } from '../content/content-files.js'
import type { ContentReadPorts } from '../content/content-read-ports.js'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyAttachmentReadStore } from './attachment-read-store.js'
import { kyselyAttachmentRemovalStore } from './attachment-removal-store.js'
import { attachmentTypes } from './attachment-types.js'
import { type AttachmentCreateFaults, AttachmentWriter } from './attachment-writer.js'

/**
 * The ports of core's attachment use cases over kysely and the document store. `content` is the records' read
 * ports (contentPorts' `readPorts`): attachments' files are read through its stored files, and checked and
 * watermarked as records' are.
 */
export function attachmentPorts(
  context: StorageContext,
  content: ContentReadPorts,
  faults: AttachmentCreateFaults = {},
): AttachmentDependencies<StoredContentFile> {
  return {
    ...content.shared,
    attachments: new KyselyAttachmentReadStore(context.db),
    files: content.files,
    perimeter: recordPerimeterOf(context),
    types: () => attachmentTypes(context.db),
    creation: new AttachmentWriter(context, faults),
    removal: kyselyAttachmentRemovalStore(context),
  }
}
