import { z } from 'zod'

const id = (meaning: string) => z.number().int().min(1).describe(meaning)

/** Path of `GET /rest/attachments/{id}` and its content routes. */
export const AttachmentIdPathSchema = z
  .object({ id: id('Attachment identifier; not an integer: 400 `Route id is not an integer`') })
  .meta({ description: 'The attachment addressed' })

/** Path of `GET /rest/resources/{resId}/attachments`. */
export const AttachmentsOfRecordPathSchema = z
  .object({ resId: id('Record identifier') })
  .meta({ description: 'The record whose attachments are listed' })

/** Query of `GET /rest/resources/{resId}/attachments`. */
export const AttachmentsOfRecordQuerySchema = z
  .object({ limit: z.number().int().min(1).optional().describe('At most this many attachments (not an integer: 403)') })
  .meta({ description: 'Query of GET /rest/resources/{resId}/attachments' })

/** Query of the attachment content routes. */
export const AttachmentContentQuerySchema = z
  .object({
    mode: z
      .enum(['base64', ''])
      .optional()
      .describe('base64: JSON object with the base64 file; absent or any other value: the file itself'),
  })
  .meta({ description: 'Query of GET /rest/attachments/{id}/content and /originalContent' })

/** Body of `POST /rest/attachments` (Maarch 20.10's fields). */
export const CreateAttachmentRequestSchema = z
  .object({
    resIdMaster: z.number().int().min(1).describe('The record the attachment belongs to (in the caller’s perimeter)'),
    type: z.string().min(1).describe('An attachment type code of GET /rest/attachmentsTypes'),
    title: z.string().max(255).optional(),
    status: z.enum(['A_TRA', 'TRA', 'SEND_MASS']).optional().describe('Default A_TRA'),
    encodedFile: z.string().min(1).describe('The file, base64'),
    format: z.string().min(1).max(50).describe('Its extension (pdf, docx, …); must agree with the bytes'),
    chrono: z
      .string()
      .max(255)
      .optional()
      .describe('Chrono number; absent: the next outgoing chrono when the type has chrono'),
    originId: z
      .number()
      .int()
      .optional()
      .describe('A new version of this attachment (an original): relation +1, earlier versions become OBS'),
    recipientId: z.number().int().optional(),
    recipientType: z.enum(['user', 'contact']).optional(),
    validationDate: z.string().optional().describe('A date (YYYY-MM-DD, DD-MM-YYYY, with or without time)'),
    effectiveDate: z.string().optional(),
    typist: z.number().int().optional().describe('A user id; default the caller'),
  })
  .meta({ id: 'CreateAttachmentRequest', description: 'Body of POST /rest/attachments' })

/** Answer of `POST /rest/attachments`. */
export const CreateAttachmentResponseSchema = z
  .object({ id: z.number().int() })
  .meta({ id: 'CreateAttachmentResponse', description: 'The new attachment' })

const attachmentType = z.object({
  label: z.string(),
  icon: z.string(),
  sign: z.boolean(),
  chrono: z.boolean(),
  attachInMail: z.boolean(),
  show: z.boolean(),
})

/** Answer of `GET /rest/attachmentsTypes`. */
export const AttachmentTypesResponseSchema = z
  .object({ attachmentsTypes: z.record(z.string(), attachmentType) })
  .meta({ id: 'AttachmentTypesResponse', description: 'The attachment types by code' })

const listItem = z.object({
  resId: z.number().int(),
  chrono: z.string().nullable(),
  title: z.string().nullable(),
  typist: z.number().int(),
  modifiedBy: z.string(),
  creationDate: z.string(),
  modificationDate: z.string().nullable(),
  relation: z.number().int(),
  status: z.string(),
  type: z.string(),
  inSignatureBook: z.boolean(),
  inSendAttach: z.boolean(),
  typistLabel: z.string(),
  typeLabel: z.string(),
  canConvert: z.boolean(),
})

/** Answer of `GET /rest/resources/{resId}/attachments`. */
export const AttachmentListResponseSchema = z
  .object({ attachments: z.array(listItem), mailevaEnabled: z.boolean() })
  .meta({ id: 'AttachmentListResponse', description: 'The current attachments of a record, latest change first' })

/** Answer of `GET /rest/attachments/{id}`. */
export const AttachmentResponseSchema = z
  .object({
    resId: z.number().int(),
    resIdMaster: z.number().int(),
    status: z.string(),
    title: z.string().nullable(),
    chrono: z.string().nullable(),
    typist: z.number().int(),
    modifiedBy: z.string(),
    relation: z.number().int(),
    type: z.string(),
    recipientId: z.number().int().nullable(),
    recipientType: z.string().nullable(),
    originId: z.number().int().nullable(),
    creationDate: z.string(),
    modificationDate: z.string().nullable(),
    validationDate: z.string().nullable(),
    format: z.string(),
    fulltextResult: z.string().nullable(),
    inSignatureBook: z.boolean(),
    inSendAttach: z.boolean(),
    typistLabel: z.string(),
    typeLabel: z.string(),
    versions: z.array(z.object({ resId: z.number().int(), relation: z.number().int() })),
  })
  .meta({ id: 'AttachmentResponse', description: 'An attachment with its other versions' })

/** `GET /rest/attachments/{id}/content?mode=base64`. */
export const AttachmentContentBase64ResponseSchema = z
  .object({
    encodedDocument: z.string(),
    originalFormat: z.string(),
    filename: z.string(),
    mimeType: z.string(),
    signatoryId: z.number().int().nullable(),
  })
  .meta({ id: 'AttachmentContentBase64Response', description: 'The PDF of an attachment, base64' })

/** `GET /rest/attachments/{id}/originalContent?mode=base64`. */
export const AttachmentOriginalBase64ResponseSchema = z
  .object({ encodedDocument: z.string(), extension: z.string(), mimeType: z.string(), filename: z.string() })
  .meta({ id: 'AttachmentOriginalBase64Response', description: 'The stored file of an attachment, base64' })

/** Body of `POST /rest/attachments`, as a typed client writes it. */
export type CreateAttachmentBody = z.input<typeof CreateAttachmentRequestSchema>
