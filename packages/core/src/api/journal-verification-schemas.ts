import { z } from 'zod'
import type { SafeVerification } from '../journal/safe-verification.js'

/** The first event where a safe's chain does not verify. */
export const ChainBreakSchema = z
  .object({
    reason: z
      .enum([
        'edited',
        'deleted-or-inserted',
        'reordered',
        'broken-link',
        'wrong-safe',
        'truncated',
        'checkpoint-mismatch',
        'unsealed',
        'unknown-safe',
        'altered-file',
      ])
      .describe(
        'edited: an event no longer matches its hash; deleted-or-inserted, reordered, broken-link: the sequence or the links between events; ' +
          'wrong-safe: an event of another safe; truncated, checkpoint-mismatch: the chain disagrees with the recorded head; ' +
          'unsealed: events written more than 60 s ago are still not linked into the chain',
      ),
    sequence: z
      .number()
      .int()
      .nullable()
      .describe('Sequence of the offending event in the chain; null past the end of the chain'),
    eventId: z.string().nullable().describe('eventId of the offending event; null past the end of the chain'),
    detail: z.string().describe('One English sentence for operators'),
  })
  .meta({ id: 'ChainBreak', description: 'The first event where the chain does not verify' })

/** Body of `GET /rest/digitalSafe/{originatorOwnerOrgRegNumber}/verification`. */
export const ChainVerificationResponseSchema = z
  .object({
    safe: z.string().describe('The digital safe verified'),
    verified: z
      .boolean()
      .describe(
        'True when every event is linked to the one before it, matches its hash, and the chain ends at the recorded head',
      ),
    eventsChecked: z
      .number()
      .int()
      .describe('Events walked, in sequence order (up to the break when the chain does not verify)'),
    head: z
      .object({ sequence: z.number().int(), hash: z.string().describe('SHA-256 of the last event, hexadecimal') })
      .nullable()
      .describe(
        'The recorded head of the chain (null for a safe with no event yet): keep its hash elsewhere to anchor the chain',
      ),
    pendingEvents: z
      .number()
      .int()
      .describe('Events written but not yet linked into the chain (normally 0: they are sealed before the check)'),
    firstBreak: ChainBreakSchema.nullable().describe('null when the chain verifies'),
    resumedAfter: z
      .number()
      .int()
      .optional()
      .describe(
        'Present when the walk resumed from the last point an earlier verification found intact: the sequence of that event, which was ' +
          're-checked (its hash, its link, the hash recorded for it) before the events after it were walked. Events before it are not walked ' +
          'again (ask `full=true` for that); eventsChecked still counts them. Absent when the whole chain was walked',
      ),
  })
  .meta({ id: 'ChainVerification', description: "Whether a digital safe's hash chain verifies" })

/** Query of `GET /rest/digitalSafe/{originatorOwnerOrgRegNumber}/verification`. */
export const ChainVerificationQuerySchema = z.object({
  full: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'true: walk the whole chain again instead of resuming from the last verified point (root users only: 403 otherwise); its cost grows with the chain',
    ),
})

/** Body of `GET /rest/digitalSafe/{originatorOwnerOrgRegNumber}/verification`. */
export type ChainVerificationResponse = z.infer<typeof ChainVerificationResponseSchema>

/** The wire form of a safe's verification (the stored-file count is the CLI's business, not the endpoint's). */
export function chainVerificationBody(result: SafeVerification): ChainVerificationResponse {
  const found = result.break
  return {
    safe: result.safe,
    verified: result.ok,
    eventsChecked: result.events,
    head: result.head,
    pendingEvents: result.pending,
    firstBreak:
      found === undefined
        ? null
        : { reason: found.reason, sequence: found.sequence, eventId: found.eventId, detail: found.detail },
    ...(result.resumedAfter === undefined ? {} : { resumedAfter: result.resumedAfter }),
  }
}
