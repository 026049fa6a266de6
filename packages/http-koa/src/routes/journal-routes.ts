import { Readable } from 'node:stream'
import {
  type Actor,
  fail,
  isDomainError,
  JOURNAL_DESCRIPTIONS,
  JournalEventsParamsSchema,
  type JournalEventsResponse,
  JournalEventsResponseSchema,
  JournalPathSchema,
} from '@mailroom/core'
import { displayName, journalEnvelopeChunks, journalErrorEnvelope } from '@mailroom/core/internal'
import type { ErrorBodyRenderer } from '../app-state.js'
import { DEMO } from '../openapi/document-info.js'
import { json, type RouteDeclaration, type RouteHandler } from './route-declaration.js'

/** Name of the cookie carrying the /digitalSafe token (runtime-contract.md "Authentication"). */
export const SERVICE_AUTH_COOKIE = 'SERVICE-AUTH'

/** A read of the demo's safe: one deposit. */
const JOURNAL_EXAMPLE = {
  originatorOwnerOrgRegNumber: DEMO.safe,
  timestamp: '2024-03-04T10:05:00+00:00',
  accountName: 'Barbara BAIN',
  operationResult: true,
  lifeCycleEvents: [
    {
      eventId: 'mailroom_ltb3k2q0-3f9a1c',
      eventType: 'recordsManagement/deposit',
      instanceName: 'mailroom',
      timestamp: '2024-03-04T09:31:12+00:00',
      orgRegNumber: DEMO.safe,
      orgUnitRegNumber: 'PJS',
      accountId: 'bbain',
      objectClass: 'recordsManagement/archive',
      objectId: 'mailroom_ltb3k2q0-a81e07',
      operationResult: true,
      description: JOURNAL_DESCRIPTIONS.deposit('mailroom_ltb3k2q0-a81e07'),
      eventInfo: [
        {
          eventId: 'mailroom_ltb3k2q0-3f9a1c',
          eventType: 'recordsManagement/deposit',
          timestamp: '2024-03-04T09:31:12+00:00',
          orgRegNumber: DEMO.safe,
          orgUnitRegNumber: 'PJS',
          accountId: 'bbain',
          objectId: 'mailroom_ltb3k2q0-a81e07',
          resId: '100',
          hashAlgorithm: 'SHA256',
          hash: 'a2a1e6b2f2a7c0ec0b1a7b4a2b5f1d1f6f0b5c2e1b7f4c0d2e3a9b8c7d6e5f40',
          originatorOrgRegNumber: 'PJS',
          depositorOrgRegNumber: '',
          archiverOrgRegNumber: 'VILLE',
          size: 7,
        },
      ],
      accountName: 'Barbara BAIN',
    },
  ],
} satisfies JournalEventsResponse

/** Bytes gathered before a write: fewer, larger chunks than one per event, still constant memory. */
const CHUNK_BYTES = 64 * 1024

/**
 * The URL-decoded value of the SERVICE-AUTH cookie in a Cookie header; null when absent, empty or not
 * decodable. The first occurrence wins, as browsers send the most specific cookie first.
 */
export function serviceAuthToken(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null
  for (const part of cookieHeader.split(';')) {
    const equals = part.indexOf('=')
    if (equals < 0 || part.slice(0, equals).trim() !== SERVICE_AUTH_COOKIE) continue
    let value = part.slice(equals + 1).trim()
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
    try {
      const decoded = decodeURIComponent(value)
      return decoded === '' ? null : decoded
    } catch {
      return null
    }
  }
  return null
}

/**
 * `GET /digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events`. Authenticated by the SERVICE-AUTH cookie
 * only (an access token from POST /rest/authenticate or a service token from `mailroom token`); missing,
 * forged, expired or revoked → 401. The interface's Accept, Content-Type and User-Agent headers are accepted
 * but not required: the answer is JSON whatever they say (upstream's "service" User-Agent switch only chose
 * between its HTML and JSON layers, and Mailroom has only the latter). Errors answer the journal envelope with
 * `operationResult: false` and `message`, with the status of the error's kind. The success body streams.
 */
export const journalRoute: RouteDeclaration = {
  method: 'get',
  path: '/digitalSafe/digitalSafe/:owner/events',
  documentedPath: '/digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events',
  operationId: 'readJournal',
  tag: 'digital safe',
  summary: 'Read the journal of a digital safe',
  description:
    'Life-cycle events of the archives deposited in the safe, ordered by timestamp. Send the cookie SERVICE-AUTH and the headers ' +
    '`Accept: application/json`, `Content-Type: application/json` and `User-Agent: service`. The response streams; ' +
    'page with limit and after. Each read is itself journalled.',
  security: 'serviceCookie',
  request: {
    path: JournalPathSchema,
    query: JournalEventsParamsSchema,
    headers: [
      {
        name: 'User-Agent',
        in: 'header',
        required: false,
        description: 'service',
        schema: { type: 'string', example: 'service' },
      },
    ],
  },
  responses: {
    '200': { description: 'The journal envelope', content: json(JournalEventsResponseSchema, JOURNAL_EXAMPLE) },
  },
  errors: [
    'JOURNAL_INVALID_DATE',
    'JOURNAL_ARCHIVE_ID_COMBINED',
    'JOURNAL_DATE_RANGE_INVERTED',
    'JOURNAL_INVALID_LIMIT',
    'JOURNAL_INVALID_CURSOR',
    'JOURNAL_REPEATED_PARAMETER',
    'JOURNAL_UNAUTHENTICATED',
    'JOURNAL_NOT_POSITIONED',
    'JOURNAL_NOT_ALLOWED',
    'JOURNAL_SAFE_NOT_FOUND',
  ],
  serve:
    ({ services }) =>
    async (ctx) => {
      const owner = ctx.params.owner ?? ''
      const requestTime = new Date()
      let accountName = ''
      ctx.state.renderError = (_ctx, error) =>
        journalErrorEnvelope({ owner, timestamp: requestTime, accountName, message: error.message })

      const token = serviceAuthToken(ctx.get('cookie'))
      if (token === null) fail('JOURNAL_UNAUTHENTICATED')
      let actor: Actor
      try {
        actor = await services.auth.authenticateToken(token)
      } catch (error) {
        if (isDomainError(error) && error.kind === 'unauthenticated') fail('JOURNAL_UNAUTHENTICATED')
        throw error
      }
      accountName = displayName(actor)

      const reading = await services.journal.readEvents(actor, owner, ctx.query)
      // The first page is fetched before the status is sent, so that its failure still gets an error envelope;
      // a failure after that can only cut the stream short (the client then holds invalid JSON).
      const events = reading.events[Symbol.asyncIterator]()
      const first = await events.next()
      const log = ctx.state.log
      ctx.status = 200
      ctx.type = 'application/json; charset=utf-8'
      const body = Readable.from(journalEnvelopeChunks(reading.head, first, events, CHUNK_BYTES), {
        objectMode: false,
      })
      body.on('error', (error) => log?.error({ err: error }, 'journal stream failed after the response started'))
      ctx.body = body
    },
}

/**
 * Not an operation: any other /digitalSafe path (e.g. `/digitalSafe/digitalSafe/../events` once normalised)
 * still answers the journal envelope, the error handler turning the empty 404 into ROUTE_NOT_FOUND and
 * rendering it this way. Mounted after the journal route, on every method.
 */
export const DIGITAL_SAFE_FALLBACK_PATH = '/digitalSafe{/*rest}'

/** The handler of {@link DIGITAL_SAFE_FALLBACK_PATH}. */
export const digitalSafeFallback: RouteHandler = (ctx) => {
  ctx.state.renderError = digitalSafeErrorBody
}

/**
 * The error body of any /digitalSafe response that failed before the journal route knew the caller: the
 * envelope with an empty accountName, the owner taken from the path when it has the route's shape. The error
 * handler may use it as its default for paths under /digitalSafe (e.g. for failures raised by middlewares that
 * run before the routers).
 */
export const digitalSafeErrorBody: ErrorBodyRenderer = (ctx, error) => {
  const match = /^\/digitalSafe\/digitalSafe\/([^/]+)\/events$/i.exec(ctx.path)
  let owner = ''
  try {
    owner = match ? decodeURIComponent(match[1]!) : ''
  } catch {
    owner = ''
  }
  return journalErrorEnvelope({ owner, timestamp: new Date(), accountName: '', message: error.message })
}
