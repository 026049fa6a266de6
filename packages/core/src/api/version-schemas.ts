import { z } from 'zod'

/** Body of `PUT /rest/resources/{resId}`: a new version of the record's file, or a signed / annotated PDF. */
export const NewVersionBodySchema = z
  .object({
    encodedFile: z.base64().describe('File content, base64-encoded'),
    format: z.string().min(1).describe('Format (extension) of the file; pdf when type is SIGN or NOTE'),
    type: z
      .enum(['SIGN', 'NOTE', ''])
      .optional()
      .describe(
        'Absent or empty: the file becomes version n+1 (the previous original is kept); SIGN or NOTE: a signed or annotated PDF attached to the current version',
      ),
  })
  .meta({ id: 'NewVersionRequest', description: 'A new version of the file of a record' })

/** Body of `PUT /rest/resources/{resId}`. */
export type NewVersionBody = z.input<typeof NewVersionBodySchema>

/** Body of a successful `PUT /rest/resources/{resId}`. */
export const NewVersionResponseSchema = z
  .object({
    resId: z.number().int().min(1).describe('The record'),
    version: z.number().int().min(1).describe('Its version number after the change'),
  })
  .meta({ id: 'NewVersionResponse', description: 'The record and its current version number' })

/** Body of a successful `PUT /rest/resources/{resId}`. */
export type NewVersionResponse = z.infer<typeof NewVersionResponseSchema>
