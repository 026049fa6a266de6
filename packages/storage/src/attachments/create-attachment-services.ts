import type { AttachmentServices } from '@mailroom/core'
import { attachmentTypesBody, createAttachment, createAttachmentReads } from '@mailroom/core/internal'
import type { ContentReader } from '../content/content-reader.js'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyAttachmentReadStore } from './attachment-read-store.js'
import { removeAttachment } from './attachment-remover.js'
import { attachmentTypes } from './attachment-types.js'
import { type AttachmentCreateFaults, AttachmentWriter } from './attachment-writer.js'

/**
 * Wires the attachment use cases over kysely and the document store. `content` is the records' ContentReader
 * (createContentServices' `reader`): core reads attachments' files through its stored files, and checks and
 * watermarks them as records' are.
 */
export function createAttachmentServices(
  context: StorageContext,
  content: ContentReader,
  faults: AttachmentCreateFaults = {},
): AttachmentServices {
  const writer = new AttachmentWriter(context, faults)
  const reads = createAttachmentReads({
    ...content.shared,
    attachments: new KyselyAttachmentReadStore(context.db),
    files: content.files,
    perimeter: recordPerimeterOf(context),
  })
  return {
    types: async () => attachmentTypesBody(await attachmentTypes(context.db)),
    create: async (actor, body, meta) => ({ id: await createAttachment(writer, actor, body, meta) }),
    remove: (actor, id, meta) => removeAttachment(context, actor, id, meta),
    listOfRecord: reads.listOfRecord,
    read: reads.read,
    content: reads.content,
    originalContent: reads.originalContent,
  }
}
