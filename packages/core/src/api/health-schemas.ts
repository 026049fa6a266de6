import { z } from 'zod'

/** Body of `GET /healthz`: the process is alive and its event loop answers (nothing else is checked). */
export const LivenessResponseSchema = z
  .object({
    status: z.literal('ok').describe('Always ok: an answer at all is the liveness signal'),
  })
  .meta({ id: 'Liveness', description: 'The process is alive' })

/** Body of `GET /healthz`. */
export type LivenessResponse = z.infer<typeof LivenessResponseSchema>

/** The checks of `GET /readyz`, each true when it passes (`shuttingDown` passes when false). */
export const ReadinessChecksSchema = z
  .object({
    database: z.boolean().describe('The database answered a query'),
    migrations: z.boolean().describe('Every migration this version knows is applied'),
    storage: z.boolean().describe('A file could be written and removed in the document storage'),
    shuttingDown: z.boolean().describe('The server has been asked to stop and is finishing its requests'),
  })
  .meta({ id: 'ReadinessChecks', description: 'What the readiness probe checked' })

/** The full-text extraction queue of every server on the database: informative, it never fails readiness. */
export const FullTextBacklogSchema = z
  .object({
    pending: z.number().int().describe('Files waiting for their text to be extracted'),
    running: z.number().int().describe('Files being extracted by a server'),
    failed: z.number().int().describe('Files whose extraction failed for good (mailroom fulltext status lists them)'),
    oldestPendingSeconds: z.number().describe('Age of the oldest waiting file, seconds (0 when none)'),
  })
  .meta({ id: 'FullTextBacklog', description: 'The full-text extraction queue' })

/** The full-text extraction queue's counts. */
export type FullTextBacklog = z.infer<typeof FullTextBacklogSchema>

/** Query of `GET /readyz`. */
export const ReadinessQuerySchema = z.object({
  detail: z
    .enum(['true', 'false'])
    .optional()
    .describe('true: the answer adds `detail`, the state of background work (the full-text queue); one more query'),
})

/** Body of `GET /readyz`, 200 and 503 alike. */
export const ReadinessResponseSchema = z
  .object({
    status: z.enum(['ready', 'unavailable']).describe('ready when every check passes'),
    failing: z
      .array(z.enum(['database', 'migrations', 'storage', 'shuttingDown']))
      .describe('The checks that did not pass'),
    checks: ReadinessChecksSchema,
    detail: z
      .object({ fulltext: FullTextBacklogSchema.nullable().describe('null when the database did not answer') })
      .optional()
      .describe('With ?detail=true: background work, which never makes the server unready'),
  })
  .meta({ id: 'Readiness', description: 'Whether this instance should receive traffic' })

/** Body of `GET /readyz`. */
export type ReadinessResponse = z.infer<typeof ReadinessResponseSchema>
