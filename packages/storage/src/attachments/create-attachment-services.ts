import type { AttachmentServices } from '@mailroom/core'
import { attachmentTypesBody, createAttachment } from '@mailroom/core/internal'
import type { ContentReader } from '../content/content-reader.js'
import type { StorageContext } from '../storage-context.js'
import { AttachmentReader } from './attachment-reader.js'
import { removeAttachment } from './attachment-remover.js'
import { attachmentTypes } from './attachment-types.js'
import { type AttachmentCreateFaults, AttachmentWriter } from './attachment-writer.js'

/**
 * Wires the attachment use cases over kysely and the document store. `content` is the records' ContentReader
 * (createContentServices' `reader`): attachments' files are read, checked and watermarked as records' are.
 */
export function createAttachmentServices(
  context: StorageContext,
  content: ContentReader,
  faults: AttachmentCreateFaults = {},
): AttachmentServices {
  const writer = new AttachmentWriter(context, faults)
  const reader = new AttachmentReader(context, content)
  return {
    types: async () => attachmentTypesBody(await attachmentTypes(context.db)),
    create: async (actor, body, meta) => ({ id: await createAttachment(writer, actor, body, meta) }),
    remove: (actor, id, meta) => removeAttachment(context, actor, id, meta),
    listOfRecord: (actor, resId, query) => reader.listOfRecord(actor, resId, query),
    read: (actor, id) => reader.read(actor, id),
    content: (actor, id, query, meta) => reader.content(actor, id, query, meta),
    originalContent: (actor, id, query, meta) => reader.originalContent(actor, id, query, meta),
  }
}
