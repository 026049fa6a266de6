import { z } from 'zod'
import { recordHistoryResponseSchema } from '../status/record-history.js'
import { statusUpdateBodySchema } from '../status/status-update-request.js'

/** Body of `PUT /rest/res/resource/status` (the status capability's schema, registered under a component name). */
export const StatusUpdateBodySchema = statusUpdateBodySchema.meta({
  id: 'StatusUpdateRequest',
  description: 'A status change of every record listed by resId or by chrono (all or nothing)',
})

/** Body of `PUT /rest/res/resource/status`. */
export type StatusUpdateBody = z.input<typeof StatusUpdateBodySchema>

/** Body of a successful `PUT /rest/res/resource/status`. */
export const StatusUpdateResponseSchema = z
  .object({ success: z.string().describe('Always "success"') })
  .meta({ id: 'StatusUpdateResponse', description: 'The update was applied to every listed record' })

/** Body of a successful `PUT /rest/res/resource/status`. */
export type StatusUpdateResponse = z.infer<typeof StatusUpdateResponseSchema>

/** Body of `GET /rest/resources/{resId}/history` (the status capability's schema, registered under a component name). */
export const RecordHistoryResponseSchema = recordHistoryResponseSchema.meta({
  id: 'RecordHistory',
  description: 'Every event of a record, newest first',
})

/** Body of `GET /rest/resources/{resId}/history`. */
export type RecordHistoryResponse = z.infer<typeof RecordHistoryResponseSchema>
