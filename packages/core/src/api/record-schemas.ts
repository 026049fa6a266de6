import { z } from 'zod'
import { CustomFieldValueSchema, ExternalIdSchema } from '../request-values/flat-values.js'

const id = (meaning: string) => z.number().int().min(1).describe(meaning)

// The interface accepts a date or a date-time; the examples write `YYYY-MM-DD HH:mm:ss`.
const looseDate = (meaning: string) =>
  z.string().describe(`${meaning}: a date (YYYY-MM-DD) or a date-time (YYYY-MM-DD HH:mm:ss, or ISO 8601)`)

/** A sender or a recipient of a record. */
export const RecordContactSchema = z
  .object({
    id: id('Identifier of the contact, user or entity'),
    type: z.enum(['contact', 'user', 'entity']).describe('What id identifies'),
  })
  .meta({ id: 'RecordContact', description: 'A sender or recipient: a contact, a user or an entity' })

/** An element of a record's distribution list. */
export const DiffusionItemSchema = z
  .object({
    id: id('Identifier of the user or entity'),
    mode: z.string().min(1).describe('Role in the distribution: dest (the processing user, one at most) or cc'),
    type: z.string().min(1).describe('user or entity'),
  })
  .meta({ id: 'DiffusionItem', description: 'An element of the distribution list' })

/** Body of `POST /rest/resources`, current form (interface "Mail record, creation parameters"). */
export const CreateRecordBodySchema = z
  .object({
    modelId: id('Indexing model identifier'),
    status: z.string().min(1).describe('Status identifier of the record'),
    doctype: id('Document type identifier').optional(),
    subject: z.string().optional().describe('Subject of the mail'),
    chrono: z.boolean().optional().describe('When true a chrono number is generated (default false)'),
    typist: id('Identifier of the user who wrote the record').optional(),
    destination: id('Identifier of the processing entity').optional(),
    diffusionList: z.array(DiffusionItemSchema).optional().describe('Distribution list'),
    initiator: id('Identifier of the initiating entity').optional(),
    confidentiality: z.boolean().optional().describe('When true the record is confidential (default false)'),
    documentDate: looseDate('Date of the mail').optional(),
    arrivalDate: looseDate('Arrival date').optional(),
    departureDate: looseDate('Departure date').optional(),
    processLimitDate: looseDate('Processing deadline').optional(),
    priority: z.string().optional().describe('Priority identifier'),
    barcode: z.string().optional().describe('Barcode of the mail'),
    encodedFile: z.base64().optional().describe('File content, base64-encoded'),
    format: z.string().optional().describe('Format (extension) of the file; required whenever encodedFile is sent'),
    externalId: ExternalIdSchema.optional(),
    customFields: z
      .record(z.string(), CustomFieldValueSchema)
      .optional()
      .describe('Custom field values keyed by custom field identifier'),
    senders: z.array(RecordContactSchema).optional().describe('Senders'),
    recipients: z.array(RecordContactSchema).optional().describe('Recipients'),
    folders: z.array(id('Folder identifier')).optional().describe('Folders in which the record is visible'),
    tags: z.array(id('Tag identifier')).optional().describe('Tags attached to the record'),
    followed: z.boolean().optional().describe('When true the calling user follows the new record (default false)'),
    integrations: z
      .object({
        inSignatureBook: z.boolean().optional().describe('The record goes to the signature book (default false)'),
        inShipping: z.boolean().optional().describe('The record goes to shipping (default false)'),
      })
      .optional()
      .describe('Where the record goes next; read only when encodedFile is sent, other keys are dropped'),
  })
  .meta({
    id: 'CreateRecordRequest',
    description: 'A mail record to create (current form: modelId and status required)',
  })

/** Body of `POST /rest/resources`, current form. */
export type CreateRecordBody = z.input<typeof CreateRecordBodySchema>

/**
 * Body of `POST /rest/resources`, earlier form (interface "Earlier creation variant"): any further column of
 * res_letterbox or mlb_coll_ext may be added as a field.
 */
export const EarlierCreateRecordBodySchema = z
  .object({
    status: z.string().min(1).describe('Status identifier of the record'),
    format: z.string().min(1).describe('Format (extension) of the file'),
    encodedFile: z.base64().describe('File content, base64-encoded'),
    type_id: z.number().int().describe('Document type (doctypes table)'),
    category_id: z.string().min(1).describe('Mail category: incoming, outgoing, internal or ged_doc'),
    chrono: z.boolean().optional().describe('When true a chrono number is generated (default false)'),
    externalId: ExternalIdSchema.optional(),
    priority: z
      .union([z.number().int(), z.string()])
      .optional()
      .describe(
        'A priority id, or a number (or numeric string) naming the priority whose `order` it is (demo: 1 Normal, 2 Urgent, 3 Très urgent); a number that matches no order answers 400 `Body priority does not exist`',
      ),
  })
  .catchall(z.unknown())
  .meta({
    id: 'EarlierCreateRecordRequest',
    description:
      'A mail record to create (earlier form: status, format, encodedFile, type_id and category_id required; further res_letterbox / mlb_coll_ext columns such as subject, nature_id, destination, priority allowed)',
  })

/** Body of `POST /rest/resources`, earlier form. */
export type EarlierCreateRecordBody = z.input<typeof EarlierCreateRecordBodySchema>

/** Body of `POST /rest/resources` in either form. */
export const CreateRecordRequestSchema = z
  .union([CreateRecordBodySchema, EarlierCreateRecordBodySchema])
  .meta({ id: 'CreateRecordAnyRequest', description: 'The current or the earlier form of a record creation' })

/** Body of a successful `POST /rest/resources`. */
export const CreateRecordResponseSchema = z
  .object({ resId: id('Identifier of the new record') })
  .meta({ id: 'CreateRecordResponse', description: 'The identifier of the created record' })

/** Body of a successful `POST /rest/resources`. */
export type CreateRecordResponse = z.infer<typeof CreateRecordResponseSchema>
