import {
  ChainVerificationQuerySchema,
  type ChainVerificationResponse,
  ChainVerificationResponseSchema,
  chainVerificationBody,
  JournalPathSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { DEMO } from '../openapi/document-info.js'
import type { RouteDeclaration } from './route-declaration.js'

const HEAD = { sequence: 42, hash: '5d41402abc4b2a76b9719d911017c592ae1b6d5c9f4e3a8b7c6d5e4f3a2b1c0d' }

/**
 * `GET /rest/digitalSafe/{owner}/verification`, a Mailroom extension: whether the safe's hash chain verifies.
 * Under /rest (HTTP Basic or bearer token, `{"errors": …}` bodies) so that a page on any origin can ask,
 * where the journal read needs its SERVICE-AUTH cookie; who may ask is who may read that safe's journal.
 */
export const chainVerificationRoute: RouteDeclaration = {
  method: 'get',
  path: '/rest/digitalSafe/:owner/verification',
  documentedPath: '/rest/digitalSafe/{originatorOwnerOrgRegNumber}/verification',
  operationId: 'verifyJournalChain',
  tag: 'digital safe',
  summary: "Verify a digital safe's hash chain (Mailroom extension)",
  description:
    'Not part of the Maarch interface. Seals the events written but not yet linked, then walks the chain of the safe in sequence order, ' +
    'resuming from the last event found intact (re-checked on each call) unless full=true (root users only) asks for a walk from the start: ' +
    'each event must match its hash, follow the one before it and belong to the safe, and the chain must end at the recorded head. ' +
    "Answers 200 whether or not the chain verifies, with the first break. Who may ask: who may read that safe's journal. " +
    'Deposited files are not re-hashed here (`mailroom journal verify` does it). The verification is not journalled.',
  security: 'user',
  request: { path: JournalPathSchema, query: ChainVerificationQuerySchema },
  responses: {
    '200': {
      description: 'The verification',
      content: {
        'application/json': {
          schema: ChainVerificationResponseSchema,
          examples: {
            verified: {
              value: {
                safe: DEMO.safe,
                verified: true,
                eventsChecked: 42,
                head: HEAD,
                pendingEvents: 0,
                firstBreak: null,
              } satisfies ChainVerificationResponse,
            },
            broken: {
              value: {
                safe: DEMO.safe,
                verified: false,
                eventsChecked: 6,
                head: HEAD,
                pendingEvents: 0,
                firstBreak: {
                  reason: 'edited',
                  sequence: 7,
                  eventId: '0192f3a4-7b1c-7d2e-9f00-1a2b3c4d5e6f',
                  detail: 'Event 7 in stored order does not match its hash',
                },
              } satisfies ChainVerificationResponse,
            },
          },
        },
      },
    },
  },
  errors: [
    'JOURNAL_INVALID_FULL',
    'JOURNAL_REPEATED_PARAMETER',
    'JOURNAL_NOT_POSITIONED',
    'JOURNAL_NOT_ALLOWED',
    'JOURNAL_FULL_VERIFICATION_ROOT_ONLY',
    'JOURNAL_SAFE_NOT_FOUND',
  ],
  serve:
    ({ services }) =>
    async (ctx) => {
      ctx.body = chainVerificationBody(
        await services.journal.verifyChain(actorOf(ctx), ctx.params.owner ?? '', ctx.query),
      )
    },
}
