import { z } from 'zod'

/** Error body of every `/rest` operation: one string field, `errors`, holding the catalogue message. */
export const ErrorBodySchema = z
  .object({ errors: z.string().describe('The error message, exactly as the error catalogue writes it') })
  .meta({ id: 'ErrorBody', description: 'Error body of the /rest operations' })

/** An error body of a `/rest` operation. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>
