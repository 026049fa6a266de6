import { z } from 'zod'

/** Body of `GET /healthz`, 200 and 503 alike. */
export const HealthResponseSchema = z
  .object({
    status: z.enum(['ok', 'unavailable']).describe('ok when both the database and the document storage answer'),
    database: z.boolean().describe('The database answered'),
    storage: z.boolean().describe('The document storage is usable'),
  })
  .meta({ id: 'Health', description: 'What the health probe found' })

/** Body of `GET /healthz`. */
export type HealthResponse = z.infer<typeof HealthResponseSchema>
