import type { ContentFile } from '../content/content-read-ports.js'
import type { AttachmentTypeDefinition } from '../organisation/organisation-schema.js'
import { type AttachmentServices, attachmentTypesBody } from './attachment-services.js'
import { type AttachmentCreatePorts, createAttachment } from './create-attachment.js'
import { type AttachmentReadDependencies, createAttachmentReads } from './read-attachments.js'
import { type AttachmentRemovalStore, removeAttachment } from './remove-attachment.js'

/** What the attachment use cases need: the reads' ports, the create's, the removal's and the types' source. */
export interface AttachmentDependencies<F extends ContentFile> extends AttachmentReadDependencies<F> {
  /** The attachment types, in the organisation document's order. */
  readonly types: () => Promise<readonly AttachmentTypeDefinition[]>
  readonly creation: AttachmentCreatePorts
  readonly removal: AttachmentRemovalStore
}

/** Every attachment use case (`/rest/attachments…`, `/rest/attachmentsTypes`) over its ports. */
export function createAttachmentUseCases<F extends ContentFile>(deps: AttachmentDependencies<F>): AttachmentServices {
  const reads = createAttachmentReads(deps)
  return {
    types: async () => attachmentTypesBody(await deps.types()),
    create: async (actor, body, meta) => ({ id: await createAttachment(deps.creation, actor, body, meta) }),
    remove: (actor, id, meta) => removeAttachment(deps.removal, actor, id, meta),
    listOfRecord: reads.listOfRecord,
    read: reads.read,
    content: reads.content,
    originalContent: reads.originalContent,
  }
}
