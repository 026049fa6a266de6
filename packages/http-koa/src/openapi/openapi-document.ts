import {
  AuthenticateBodySchema,
  AuthenticateResponseHeadersSchema,
  ChainVerificationResponseSchema,
  ContentBase64ResponseSchema,
  ContentParamsSchema,
  CreateRecordRequestSchema,
  CreateRecordResponseSchema,
  EntityPathSchema,
  EntityResponseSchema,
  type ErrorCode,
  JournalEventsParamsSchema,
  JournalEventsResponseSchema,
  JournalPathSchema,
  LivenessResponseSchema,
  NewVersionBodySchema,
  NewVersionResponseSchema,
  OriginalContentBase64ResponseSchema,
  OriginalContentParamsSchema,
  ReadinessResponseSchema,
  RecordHistoryResponseSchema,
  RefreshTokenParamsSchema,
  RefreshTokenResponseSchema,
  ResIdPathSchema,
  SearchBodySchema,
  SearchResponseSchema,
  StatusUpdateBodySchema,
  StatusUpdateResponseSchema,
  VersionContentParamsSchema,
  VersionContentResponseSchema,
  VersionPathSchema,
} from '@mailroom/core'
import { createDocument, type oas31, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from 'zod-openapi'
import { adminPaths } from './admin-paths.js'
import {
  BODY_ERRORS,
  journalErrorResponses,
  REST_AUTH_ERRORS,
  restErrorResponses,
  SERVER_ERRORS,
} from './error-examples.js'
import { DEMO_SAFE, EXAMPLES } from './openapi-examples.js'

/** The OpenAPI 3.1 document of Mailroom. */
export type OpenApiDocument = oas31.OpenAPIObject

/** Security requirement of the `/rest` operations: HTTP Basic or a bearer token. */
/** What happens to wrong passwords (HTTP Basic and POST /rest/authenticate alike); docs/security.md says more. */
const PASSWORD_GUESSING =
  "Wrong passwords are counted per login and client address (the proxy's X-Forwarded-For with MAILROOM_TRUST_PROXY), in the database every server shares. " +
  'After 5 wrong passwords for a login from one address within 5 minutes, that address alone is answered 429 for that login (even with the right password) until the Retry-After delay; ' +
  'after 30 wrong passwords from one address within 5 minutes, it is answered 429 for every login that never succeeded from it, while the users who did keep working. ' +
  'The right password from another address is never refused: a login guessed from many addresses is only slowed (a delay growing from 0.25 s to 10 s before its password is checked, not applied at addresses it succeeded from). ' +
  'One address may have 2 checks of a login running at once, more are answered 429 at once. ' +
  'The reference account lock (401 Account Locked for everybody, whatever the password) applies only when MAILROOM_AUTH_LOCK_ATTEMPTS is set; it is off by default. ' +
  'Every failure and refusal is logged with login, address and reason, never the password.'

const REST_SECURITY: oas31.SecurityRequirementObject[] = [{ basicAuth: [] }, { bearerAuth: [] }]

/** Operations that take no credentials. */
const PUBLIC: oas31.SecurityRequirementObject[] = []

const CONTENT_ERRORS_COMMON: readonly ErrorCode[] = [
  'RES_ID_NOT_POSITIVE',
  'DOCUMENT_NOT_FOUND',
  'DOCUMENT_HAS_NO_FILE',
  'FINGERPRINT_MISMATCH',
  'FILE_UNREADABLE',
  'FILE_INFO_UNAVAILABLE',
  'OUT_OF_PERIMETER',
  'DOCSERVER_NOT_FOUND',
  'DOCUMENT_NOT_IN_DOCSERVER',
  'DOCSERVER_READ_FAILED',
]

const WATERMARK_ERRORS: readonly ErrorCode[] = ['PDF_ENCRYPTED', 'PDF_UNREADABLE', 'WATERMARK_CONFIG_INVALID']

const FILE_CHECK_ERRORS: readonly ErrorCode[] = ['FORMAT_EMPTY', 'FORMAT_NOT_ALLOWED', 'ENCODED_FILE_INVALID']

/** The error responses of an authenticated `/rest` operation. */
function restErrors(codes: readonly ErrorCode[], options: { body?: boolean } = {}): ZodOpenApiResponsesObject {
  return restErrorResponses([...codes, ...(options.body ? BODY_ERRORS : []), ...REST_AUTH_ERRORS, ...SERVER_ERRORS])
}

function json(
  schema: NonNullable<NonNullable<ZodOpenApiOperationObject['requestBody']>['content']['application/json']>['schema'],
  example: unknown,
) {
  return { 'application/json': { schema, example } }
}

const fileHeaders = {
  'Content-Disposition': {
    description: 'attachment (download) or inline (view), with the file name (RFC 6266, filename* for non-ASCII names)',
    schema: { type: 'string' as const },
    example: `attachment; filename="Demande de subvention du club de basket.pdf"`,
  },
  'Content-Length': { description: 'Size of the file in bytes', schema: { type: 'integer' as const } },
}

/** Builds the OpenAPI 3.1 document of every operation Mailroom serves. */
export function createOpenApiDocument(): OpenApiDocument {
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Mailroom',
      version: '20.10',
      description:
        'Mailroom serves the Maarch Courrier 20.10 REST interface. Mail records (resources) with their file, searched within the caller perimeter, served as watermarked PDF, ' +
        'moved through statuses, and deposited in a digital safe whose journal is readable. ' +
        'Error bodies of the /rest operations are `{"errors": "<message>"}`; the examples of each error response give the exact messages.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: '/', description: 'This server' }],
    security: REST_SECURITY,
    tags: [
      { name: 'auth', description: 'Tokens for the /rest operations and the digital safe' },
      { name: 'records', description: 'Create mail records and new versions of their file' },
      { name: 'search', description: 'Search mail records within the caller perimeter' },
      { name: 'content', description: 'Files of a record: converted PDF, original, versions' },
      { name: 'status', description: 'Status changes and record history' },
      { name: 'entities', description: 'Organisational units' },
      { name: 'digital safe', description: 'Journal of life-cycle events of deposited files' },
      { name: 'service', description: 'Health and this document' },
      {
        name: 'administration',
        description: 'Organisation documents and users, for root users (outside the Maarch interface)',
      },
    ],
    components: {
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: `login:password of a Mailroom user. ${PASSWORD_GUESSING}`,
        },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description:
            'A Token from POST /rest/authenticate (30 minutes) or a service token from `mailroom token <login>`',
        },
        serviceAuthCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'SERVICE-AUTH',
          description:
            'The URL-encoded value of a Token from POST /rest/authenticate, or of a service token from `mailroom token <login>`',
        },
      },
    },
    paths: {
      ...adminPaths(),
      '/healthz': {
        get: {
          operationId: 'health',
          tags: ['service'],
          summary: 'Liveness probe',
          description:
            'Answers 200 whenever the process answers; checks nothing else (no database query); no authentication.',
          security: PUBLIC,
          responses: {
            '200': { description: 'The process is alive', content: json(LivenessResponseSchema, EXAMPLES.health) },
          },
        },
      },
      '/readyz': {
        get: {
          operationId: 'ready',
          tags: ['service'],
          summary: 'Readiness probe',
          description:
            'Answers 200 when this instance should receive traffic: the database answers, every migration is applied, a file can be written in the document storage and the server is not stopping; else 503 naming the failing checks. No authentication.',
          security: PUBLIC,
          responses: {
            '200': { description: 'Ready for traffic', content: json(ReadinessResponseSchema, EXAMPLES.ready) },
            '503': {
              description: 'At least one check failed (listed in `failing`)',
              content: json(ReadinessResponseSchema, EXAMPLES.notReady),
            },
          },
        },
      },
      '/rest/openapi.json': {
        get: {
          operationId: 'openapi',
          tags: ['service'],
          summary: 'This OpenAPI document',
          security: PUBLIC,
          responses: {
            '200': {
              description: 'The OpenAPI 3.1 document of the service',
              content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } },
            },
          },
        },
      },
      '/rest/authenticate': {
        post: {
          operationId: 'authenticate',
          tags: ['auth'],
          summary: 'Exchange credentials for tokens',
          description: `Answers 204 with the response headers Token (bearer token, 30 minutes) and Refresh-Token (7 days). ${PASSWORD_GUESSING}`,
          security: PUBLIC,
          requestBody: { required: true, content: json(AuthenticateBodySchema, EXAMPLES.authenticate) },
          responses: {
            '204': {
              description: 'Authenticated: the tokens are in the response headers',
              headers: AuthenticateResponseHeadersSchema,
            },
            ...restErrorResponses(['AUTHENTICATE_BAD_REQUEST', ...BODY_ERRORS, ...REST_AUTH_ERRORS, ...SERVER_ERRORS]),
          },
        },
      },
      '/rest/authenticate/token': {
        get: {
          operationId: 'refreshToken',
          tags: ['auth'],
          summary: 'A new bearer token from a refresh token',
          security: PUBLIC,
          requestParams: { query: RefreshTokenParamsSchema },
          responses: {
            '200': {
              description: 'A new bearer token',
              content: json(RefreshTokenResponseSchema, { token: 'eyJhbGciOiJIUzI1NiJ9...' }),
            },
            ...restErrorResponses(['REFRESH_TOKEN_EMPTY', 'AUTHENTICATION_FAILED', ...SERVER_ERRORS]),
          },
        },
      },
      '/rest/resources': {
        post: {
          operationId: 'createRecord',
          tags: ['records'],
          summary: 'Create a mail record, optionally with its file',
          description:
            'Current form: modelId and status required. Earlier form: status, format, encodedFile, type_id and category_id required. ' +
            'A missing required parameter answers 400 `Data is not set or empty`. The file is deposited in the digital safe.',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: CreateRecordRequestSchema,
                examples: {
                  current: { summary: 'Current form (modelId, status)', value: EXAMPLES.createRecord },
                  earlier: { summary: 'Earlier form (type_id, category_id)', value: EXAMPLES.createRecordEarlier },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'The record was created',
              content: json(CreateRecordResponseSchema, EXAMPLES.createRecordResponse),
            },
            ...restErrors(
              [
                'CREATE_DATA_EMPTY',
                'UNSUPPORTED_BODY',
                'CREATE_NOT_INTEGER',
                'CREATE_NOT_STRING',
                'CREATE_NOT_BOOLEAN',
                'CREATE_NOT_TEXT',
                'CREATE_NOT_OBJECT',
                'CREATE_NOT_ARRAY',
                'CREATE_NOT_FOUND',
                'MODEL_DISABLED',
                'MODEL_NOT_PUBLIC',
                'MODEL_FILE_MANDATORY',
                'MODEL_FIELD_NOT_SET',
                'CUSTOM_FIELDS_NOT_FOUND',
                'CUSTOM_FIELD_EMPTY',
                'CUSTOM_FIELD_WRONG_VALUE',
                'CUSTOM_FIELD_NOT_ARRAY',
                'CUSTOM_FIELD_NOT_STRING',
                'CUSTOM_FIELD_NOT_NUMBER',
                'CUSTOM_FIELD_NOT_DATE',
                'FOLDERS_NOT_FOUND',
                'TAGS_NOT_FOUND',
                'LIST_ITEM_NOT_OBJECT',
                'LIST_ITEM_ID_INVALID',
                'LIST_ITEM_TYPE_INVALID',
                'LIST_ITEM_MODE_INVALID',
                'LIST_ITEM_NOT_FOUND',
                'DIFFUSION_MULTIPLE_DEST',
                'DIFFUSION_NO_DEST',
                'INITIATOR_NOT_ALLOWED',
                'DESTINATION_NOT_ALLOWED',
                'DATE_INVALID',
                'DOCUMENT_DATE_IN_FUTURE',
                'DATE_OUT_OF_RANGE',
                ...FILE_CHECK_ERRORS,
                'SERVICE_FORBIDDEN',
                'CREATE_FAILED',
                'NO_WRITABLE_DOCSERVER',
                'STORAGE_UNAVAILABLE',
              ],
              { body: true },
            ),
          },
        },
      },
      '/rest/resources/{resId}': {
        put: {
          operationId: 'newVersion',
          tags: ['records'],
          summary: 'Add a new version of the file of a record, or attach a signed or annotated PDF',
          description:
            'Without type the file becomes version n+1 of the record (the previous original is kept, its PDF is converted on ' +
            'first read) and the deposit is journalled in the digital safe. With type SIGN or NOTE a PDF is attached to the ' +
            'current version (served by content/{version}?type=SIGN|NOTE). Perimeter and file checks as for creation.',
          requestParams: { path: ResIdPathSchema },
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: NewVersionBodySchema,
                examples: {
                  version: { summary: 'A new version of the file', value: EXAMPLES.newVersion },
                  signed: { summary: 'The signed PDF of the current version', value: EXAMPLES.signedVersion },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'The record and its version number',
              content: json(NewVersionResponseSchema, EXAMPLES.newVersionResponse),
            },
            ...restErrors(
              [
                'RES_ID_NOT_POSITIVE',
                'UNSUPPORTED_BODY',
                'VERSION_TYPE_INVALID',
                ...FILE_CHECK_ERRORS,
                'OUT_OF_PERIMETER',
                'DOCUMENT_NOT_FOUND',
                'DOCUMENT_HAS_NO_FILE',
                'STORAGE_UNAVAILABLE',
              ],
              { body: true },
            ),
          },
        },
      },
      '/rest/res/list': {
        post: {
          operationId: 'searchRecords',
          tags: ['search'],
          summary: 'Search mail records',
          description:
            'select and clause name columns of the view res_view_letterbox; the clause is parsed (a safe subset of PostgreSQL ' +
            'expressions with the perimeter macros), parenthesised and ANDed with the caller perimeter. With withFile each record ' +
            'carries fileBase64Content.',
          requestBody: { required: true, content: json(SearchBodySchema, EXAMPLES.search) },
          responses: {
            '200': { description: 'The records found', content: json(SearchResponseSchema, EXAMPLES.searchResponse) },
            ...restErrors(
              [
                'SEARCH_SELECT_INVALID',
                'SEARCH_CLAUSE_INVALID',
                'SEARCH_WITH_FILE_INVALID',
                'SEARCH_ORDER_BY_INVALID',
                'SEARCH_LIMIT_INVALID',
                'SEARCH_OFFSET_INVALID',
                'SEARCH_SELECT_SYNTAX',
                'SEARCH_CLAUSE_SYNTAX',
                'SEARCH_ORDER_BY_SYNTAX',
                'SEARCH_REQUEST_INVALID',
                'SEARCH_USER_HAS_NO_GROUPS',
              ],
              { body: true },
            ),
          },
        },
      },
      '/rest/resources/{resId}/content': {
        get: {
          operationId: 'getContent',
          tags: ['content'],
          summary: 'The converted (PDF) content of a record',
          description:
            'The signed PDF when there is one, else the conversion of the original, watermarked unless watermark=false. ' +
            'mode=view: inline; mode=base64: JSON; otherwise a download.',
          requestParams: { path: ResIdPathSchema, query: ContentParamsSchema },
          responses: {
            '200': {
              description: 'The PDF (view or download), or the base64 object (mode=base64)',
              headers: fileHeaders,
              content: {
                'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } },
                ...json(ContentBase64ResponseSchema, EXAMPLES.contentBase64),
              },
            },
            ...restErrors([
              ...CONTENT_ERRORS_COMMON,
              'CONVERSION_FAILED',
              'CONVERSION_QUEUE_FULL',
              ...WATERMARK_ERRORS,
            ]),
          },
        },
      },
      '/rest/resources/{resId}/originalContent': {
        get: {
          operationId: 'getOriginalContent',
          tags: ['content'],
          summary: 'The original file of a record',
          description: 'Never watermarked. mode=base64: JSON; otherwise a download with the file own MIME type.',
          requestParams: { path: ResIdPathSchema, query: OriginalContentParamsSchema },
          responses: {
            '200': {
              description: 'The file (download), or the base64 object (mode=base64)',
              headers: fileHeaders,
              content: {
                'application/octet-stream': {
                  schema: { type: 'string', contentMediaType: 'application/octet-stream' },
                },
                ...json(OriginalContentBase64ResponseSchema, EXAMPLES.originalContentBase64),
              },
            },
            ...restErrors(['SIGNED_VERSION_NOT_BOOLEAN', ...CONTENT_ERRORS_COMMON]),
          },
        },
      },
      '/rest/resources/{resId}/content/{version}': {
        get: {
          operationId: 'getVersionContent',
          tags: ['content'],
          summary: 'The file of one version of a record',
          description: 'type PDF (the conversion of the version), SIGN (signed) or NOTE (annotated); watermarked.',
          requestParams: { path: VersionPathSchema, query: VersionContentParamsSchema },
          responses: {
            '200': {
              description: 'The file of the version',
              content: json(VersionContentResponseSchema, EXAMPLES.versionContent),
            },
            ...restErrors([
              'VERSION_NOT_POSITIVE',
              'VERSION_TYPE_INVALID',
              'VERSION_INCORRECT',
              'VERSION_TYPE_HAS_NO_FILE',
              ...CONTENT_ERRORS_COMMON,
              ...WATERMARK_ERRORS,
            ]),
          },
        },
      },
      '/rest/res/resource/status': {
        put: {
          operationId: 'updateStatus',
          tags: ['status'],
          summary: 'Change the status of records',
          description:
            'Sets the status on every record listed by resId (current and earlier form) or by chrono (current form; a non-empty chrono ' +
            'wins over resId) and writes one history entry each, all in one transaction: either every record changes or none.',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: StatusUpdateBodySchema,
                examples: {
                  byResId: { summary: 'By record identifier', value: EXAMPLES.statusUpdate },
                  byChrono: { summary: 'By chrono number', value: EXAMPLES.statusUpdateByChrono },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'Every listed record has the new status',
              content: json(StatusUpdateResponseSchema, EXAMPLES.statusUpdateResponse),
            },
            ...restErrors(
              [
                'STATUS_NOT_FOUND',
                'STATUS_DOCUMENT_NOT_FOUND',
                'STATUS_TARGETS_MISSING',
                'STATUS_TARGETS_NOT_ARRAY',
                'STATUS_RES_ID_INVALID',
                'STATUS_CHRONO_INVALID',
                'STATUS_HISTORY_MESSAGE_INVALID',
                'STATUS_TOO_MANY_TARGETS',
                'UNSUPPORTED_BODY',
                'OUT_OF_PERIMETER',
              ],
              { body: true },
            ),
          },
        },
      },
      '/rest/resources/{resId}/history': {
        get: {
          operationId: 'getHistory',
          tags: ['status'],
          summary: 'The history of a record',
          description: 'Every event of the record (creation, views, status changes, versions), newest first.',
          requestParams: { path: ResIdPathSchema },
          responses: {
            '200': {
              description: 'The events of the record',
              content: json(RecordHistoryResponseSchema, EXAMPLES.history),
            },
            ...restErrors(['RES_ID_NOT_POSITIVE', 'DOCUMENT_NOT_FOUND', 'OUT_OF_PERIMETER']),
          },
        },
      },
      '/rest/entities/{id}': {
        get: {
          operationId: 'getEntity',
          tags: ['entities'],
          summary: 'Read an entity',
          requestParams: { path: EntityPathSchema },
          responses: {
            '200': { description: 'The entity', content: json(EntityResponseSchema, EXAMPLES.entity) },
            ...restErrors(['ENTITY_NOT_FOUND', 'ENTITY_ID_INVALID']),
          },
        },
      },
      '/digitalSafe/digitalSafe/{originatorOwnerOrgRegNumber}/events': {
        get: {
          operationId: 'readJournal',
          tags: ['digital safe'],
          summary: 'Read the journal of a digital safe',
          description:
            'Life-cycle events of the archives deposited in the safe, ordered by timestamp. Send the cookie SERVICE-AUTH and the headers ' +
            '`Accept: application/json`, `Content-Type: application/json` and `User-Agent: service`. The response streams; ' +
            'page with limit and after. Each read is itself journalled.',
          security: [{ serviceAuthCookie: [] }],
          requestParams: { path: JournalPathSchema, query: JournalEventsParamsSchema },
          parameters: [
            {
              name: 'User-Agent',
              in: 'header',
              required: false,
              description: 'service',
              schema: { type: 'string', example: 'service' },
            },
          ],
          responses: {
            '200': {
              description: 'The journal envelope',
              content: json(JournalEventsResponseSchema, EXAMPLES.journal),
            },
            ...journalErrorResponses(
              [
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
                ...SERVER_ERRORS,
              ],
              DEMO_SAFE,
            ),
          },
        },
      },
      '/rest/digitalSafe/{originatorOwnerOrgRegNumber}/verification': {
        get: {
          operationId: 'verifyJournalChain',
          tags: ['digital safe'],
          summary: "Verify a digital safe's hash chain (Mailroom extension)",
          description:
            'Not part of the Maarch interface. Seals the events written but not yet linked, then walks the chain of the safe in sequence order: ' +
            'each event must match its hash, follow the one before it and belong to the safe, and the chain must end at the recorded head. ' +
            "Answers 200 whether or not the chain verifies, with the first break. Who may ask: who may read that safe's journal. " +
            'Deposited files are not re-hashed here (`mailroom journal verify` does it). The verification is not journalled.',
          requestParams: { path: JournalPathSchema },
          responses: {
            '200': {
              description: 'The verification',
              content: {
                'application/json': {
                  schema: ChainVerificationResponseSchema,
                  examples: {
                    verified: { value: EXAMPLES.chainVerification },
                    broken: { value: EXAMPLES.chainBroken },
                  },
                },
              },
            },
            ...restErrors(['JOURNAL_NOT_POSITIONED', 'JOURNAL_NOT_ALLOWED', 'JOURNAL_SAFE_NOT_FOUND']),
          },
        },
      },
    },
  })
}

let cached: OpenApiDocument | undefined

/** The OpenAPI document, built once per process. */
export function openApiDocument(): OpenApiDocument {
  cached ??= createOpenApiDocument()
  return cached
}
