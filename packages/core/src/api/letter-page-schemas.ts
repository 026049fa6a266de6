import { z } from 'zod'

const correspondents = z
  .array(z.object({ id: z.number().int(), type: z.string().describe('contact, user or entity') }))
  .describe("Only when the record's indexing model has the field")
const modelField = (description: string) => `${description}; only when the record's indexing model has the field`
const date = z.string().nullable()

/** Query of `GET /rest/resources/{resId}`. */
export const ResourceQuerySchema = z
  .object({
    light: z
      .string()
      .optional()
      .describe(
        'Any value but empty or `0`: the light answer (fewer fields, with `followed`), as the processing page asks',
      ),
  })
  .meta({ description: 'How much of the record to answer' })

/** Body of `GET /rest/resources/{resId}`. */
export const ResourceDetailSchema = z
  .object({
    resId: z.number().int(),
    modelId: z.number().int().nullable(),
    categoryId: z.string(),
    chrono: z.string().nullable(),
    status: z.string().nullable(),
    closingDate: date,
    creationDate: z.string().describe('YYYY-MM-DD HH:MM:SS.ffffff, UTC'),
    modificationDate: date,
    retentionFrozen: z.boolean(),
    binding: z.boolean().nullable(),
    integrations: z
      .union([z.record(z.string(), z.unknown()), z.array(z.never())])
      .describe('inShipping, inSignatureBook, … as stored (`[]` when none)'),
    subject: z.string().nullable().optional().describe(modelField('Subject')),
    processLimitDate: date.optional().describe(modelField('Processing deadline')),
    priority: z.string().nullable().optional().describe(modelField('Priority id')),
    doctype: z.number().int().nullable().optional().describe(modelField('Document type; full answer only')),
    typist: z.number().int().nullable().optional().describe(modelField('Full answer only')),
    destination: z.number().int().nullable().optional().describe(modelField("Processing entity's serial id")),
    initiator: z.number().int().nullable().optional().describe(modelField("Initiating entity's serial id")),
    confidentiality: z.boolean().optional().describe(modelField('Full answer only')),
    documentDate: date.optional().describe(modelField('Full answer only')),
    arrivalDate: date.optional().describe(modelField('Full answer only')),
    departureDate: date.optional().describe(modelField('Full answer only')),
    barcode: z.string().nullable().optional().describe(modelField('Full answer only')),
    destinationLabel: z.string().nullable().optional(),
    initiatorLabel: z.string().nullable().optional(),
    statusLabel: z.string().nullable().optional(),
    statusAlterable: z.boolean().optional(),
    priorityLabel: z.string().nullable().optional(),
    priorityColor: z.string().nullable().optional(),
    senders: correspondents.optional(),
    recipients: correspondents.optional(),
    customFields: z
      .union([z.record(z.string(), z.unknown()), z.array(z.never())])
      .optional()
      .describe('Full answer only: values by custom field id (`[]` when none)'),
    folders: z.array(z.number().int()).optional().describe("Full answer only: the record's folders the caller sees"),
    tags: z.array(z.number().int()).optional().describe('Full answer only'),
    followed: z.boolean().optional().describe('Light answer only: whether the caller follows the record'),
    registeredMail_returnDate: z.null().optional().describe('Light answer only: Mailroom keeps no registered mail'),
    registeredMail_returnReason: z.null().optional(),
    registeredMail_deposit_id: z.null().optional(),
  })
  .meta({ id: 'ResourceDetail', description: "A record as 20.10's indexing form and processing page read it" })

/** Body of `GET /rest/resources/{resId}/items`. */
export const ResourceItemsSchema = z
  .object({
    linkedResources: z.number().int().describe('Linked records the caller may see'),
    attachments: z.number().int().describe('Attachments whose status is TRA, A_TRA or FRZ'),
    diffusionList: z.number().int(),
    visaCircuit: z.number().int(),
    opinionCircuit: z.number().int(),
    notes: z.number().int().describe('Notes the caller may read'),
    emails: z.number().int().describe('Acknowledgement receipts (Mailroom sends no e-mails)'),
  })
  .meta({ id: 'ResourceItems', description: "The counts of the processing page's tabs" })

/** Path of `GET /rest/resources/{resId}/fields/{fieldId}`. */
export const ResourceFieldPathSchema = z
  .object({
    resId: z.number().int().min(1).describe('Record identifier'),
    fieldId: z.enum(['destination', 'status', 'externalId']).describe('The field read'),
  })
  .meta({ description: 'The record and its field' })

/** Query of `GET /rest/resources/{resId}/fields/{fieldId}`. */
export const ResourceFieldQuerySchema = z
  .object({ alt: z.string().optional().describe("destination: any non-empty value answers the entity's serial id") })
  .meta({ description: 'How to answer the destination' })

/** Body of `GET /rest/resources/{resId}/fields/{fieldId}`. */
export const ResourceFieldSchema = z
  .object({
    field: z
      .union([z.string(), z.number().int(), z.null(), z.record(z.string(), z.unknown()), z.array(z.never())])
      .describe('The value: an entity id, a status id, or the external ids (`[]` when none)'),
  })
  .meta({ id: 'ResourceField', description: 'One field of a record' })

/** Body of `GET /rest/resources/{resId}/fileInformation`. */
export const ResourceFileInformationSchema = z
  .object({
    information: z.object({
      canConvert: z.boolean(),
      format: z.string().nullable(),
      fingerprint: z.string().nullable().optional().describe('This and what follows: with view_technical_infos only'),
      filesize: z.number().int().nullable().optional(),
      fulltext_result: z.string().nullable().optional(),
      filename: z.string().nullable().optional(),
      docserver_id: z.string().nullable().optional(),
      path: z.string().nullable().optional(),
      typist: z.number().int().nullable().optional(),
      typistLabel: z.string().optional(),
      creationDate: z.string().optional(),
    }),
  })
  .meta({ id: 'ResourceFileInformation', description: "The record's file: its format, and technical facts" })

/** Body of `GET /rest/resources/{resId}/versionsInformations`. */
export const ResourceVersionsSchema = z
  .object({
    DOC: z.array(z.number().int()).describe('Versions of the original (the current one last)'),
    PDF: z.array(z.number().int()).describe('Versions with a PDF (converted on first read)'),
    SIGN: z.array(z.number().int()),
    NOTE: z.array(z.number().int()),
    convert: z.boolean().optional().describe('Whether the current file converts to PDF; absent without a file'),
  })
  .meta({ id: 'ResourceVersions', description: "The versions of a record's file, by kind" })

/** Body of `GET /rest/indexing/fileInformations`. */
export const IndexingFileInformationsSchema = z
  .object({
    informations: z.object({
      maximumSize: z.number().int().describe('Largest file, bytes, that a request body carries in base64'),
      maximumSizeLabel: z.string(),
      allowedFiles: z.array(z.object({ extension: z.string(), mimeType: z.string(), canConvert: z.boolean() })),
    }),
  })
  .meta({ id: 'IndexingFileInformations', description: 'The files a record may carry' })
