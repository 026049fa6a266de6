import { z } from 'zod'

const positive = (meaning: string) => z.number().int().min(1).describe(meaning)

/** Path of the record reads (`content`, `originalContent`, `history`) and of the new version. */
export const ResIdPathSchema = z
  .object({ resId: positive('Record identifier, greater than 0') })
  .meta({ description: 'The record addressed' })

/** Path of `GET /rest/resources/{resId}/content/{version}`. */
export const VersionPathSchema = z
  .object({
    resId: positive('Record identifier, greater than 0'),
    version: positive('Version number, greater than 0'),
  })
  .meta({ description: 'The record and version addressed' })

/** Query of `GET /rest/resources/{resId}/content`. */
export const ContentParamsSchema = z
  .object({
    mode: z
      .enum(['base64', 'view', ''])
      .optional()
      .describe(
        'base64: JSON object with the base64 PDF; view: the PDF inline; empty, absent or any other value: the PDF as a download',
      ),
    watermark: z
      .boolean()
      .optional()
      .describe('Whether a watermark is drawn on every page; true when absent (false or 0 turn it off)'),
  })
  .meta({ description: 'Query of GET /rest/resources/{resId}/content' })

/** Query of `GET /rest/resources/{resId}/content`. */
export type ContentParams = z.input<typeof ContentParamsSchema>

/** Query of `GET /rest/resources/{resId}/originalContent`. */
export const OriginalContentParamsSchema = z
  .object({
    mode: z
      .enum(['base64', ''])
      .optional()
      .describe('base64: JSON object with the base64 file; empty, absent or any other value: the file as a download'),
    signedVersion: z
      .boolean()
      .optional()
      .describe(
        'Whether the signed PDF is wanted instead of the original (default false); true or false only, else 403',
      ),
  })
  .meta({ description: 'Query of GET /rest/resources/{resId}/originalContent' })

/** Query of `GET /rest/resources/{resId}/originalContent`. */
export type OriginalContentParams = z.input<typeof OriginalContentParamsSchema>

/** Query of `GET /rest/resources/{resId}/content/{version}`. */
export const VersionContentParamsSchema = z
  .object({
    type: z
      .enum(['PDF', 'SIGN', 'NOTE'])
      .optional()
      .describe('PDF (the conversion), SIGN (signed) or NOTE (annotated); PDF when empty or absent'),
  })
  .meta({ description: 'Query of GET /rest/resources/{resId}/content/{version}' })

/** Query of `GET /rest/resources/{resId}/content/{version}`. */
export type VersionContentParams = z.input<typeof VersionContentParamsSchema>

/** Body of `GET /rest/resources/{resId}/content?mode=base64`. */
export const ContentBase64ResponseSchema = z
  .object({
    encodedDocument: z.base64().describe('The PDF, base64-encoded'),
    originalFormat: z.string().describe('Extension of the original file'),
    filename: z.string().describe('File name (subject and original format)'),
    mimeType: z.string().describe('MIME type of the served document'),
    originalCreatorId: z.number().int().describe('Identifier of the user who created the record'),
    signatoryId: z.number().int().optional().describe('Present when the served PDF is the signed version'),
  })
  .meta({ id: 'ContentBase64', description: 'The converted (PDF) content of a record, base64-encoded' })

/** Body of `GET /rest/resources/{resId}/content?mode=base64`. */
export type ContentBase64Response = z.infer<typeof ContentBase64ResponseSchema>

/** Body of `GET /rest/resources/{resId}/originalContent?mode=base64`. */
export const OriginalContentBase64ResponseSchema = z
  .object({
    encodedDocument: z.base64().describe('The original file, base64-encoded'),
    extension: z.string().describe('Extension of the file'),
    filename: z.string().describe('File name'),
    mimeType: z.string().describe('MIME type of the file'),
  })
  .meta({ id: 'OriginalContentBase64', description: 'The original file of a record, base64-encoded' })

/** Body of `GET /rest/resources/{resId}/originalContent?mode=base64`. */
export type OriginalContentBase64Response = z.infer<typeof OriginalContentBase64ResponseSchema>

/** Body of `GET /rest/resources/{resId}/content/{version}`. */
export const VersionContentResponseSchema = z
  .object({
    encodedDocument: z.base64().describe('The file of the version, base64-encoded'),
    filename: z.string().describe('File name: <subject>_V<version>.<extension>'),
  })
  .meta({ id: 'VersionContent', description: 'The file of one version of a record, base64-encoded' })

/** Body of `GET /rest/resources/{resId}/content/{version}`. */
export type VersionContentResponse = z.infer<typeof VersionContentResponseSchema>
