import type { oas31 } from 'zod-openapi'

/** The OpenAPI 3.1 document of Mailroom. */
export type OpenApiDocument = oas31.OpenAPIObject

/** What happens to wrong passwords (HTTP Basic and POST /rest/authenticate alike); docs/security.md says more. */
export const PASSWORD_GUESSING =
  "Wrong passwords are counted per login and client address (the proxy's X-Forwarded-For with MAILROOM_TRUST_PROXY), in the database every server shares. " +
  'After 5 wrong passwords for a login from one address within 5 minutes, that address alone is answered 429 for that login (even with the right password) until the Retry-After delay; ' +
  'after 30 wrong passwords from one address within 5 minutes, it is answered 429 for every login that never succeeded from it, while the users who did keep working. ' +
  'The right password from another address is never refused: a login guessed from many addresses is only slowed (a delay growing from 0.25 s to 10 s before its password is checked, not applied at addresses it succeeded from). ' +
  'One address may have 2 checks of a login running at once, more are answered 429 at once. ' +
  'The reference account lock (401 Account Locked for everybody, whatever the password) applies only when MAILROOM_AUTH_LOCK_ATTEMPTS is set; it is off by default. ' +
  'Every failure and refusal is logged with login, address and reason, never the password.'

/** The document's tags, in its order; every operation has one of them. */
export const TAGS = [
  { name: 'auth', description: 'Tokens for the /rest operations and the digital safe' },
  { name: 'records', description: 'Create mail records and new versions of their file' },
  { name: 'search', description: 'Search mail records within the caller perimeter' },
  { name: 'content', description: 'Files of a record: converted PDF, original, versions' },
  { name: 'attachments', description: 'Attachments of a record: types, create, list, read, files' },
  { name: 'status', description: 'Status changes and record history' },
  { name: 'notes', description: 'Notes on records, optionally restricted to entities' },
  { name: 'links', description: 'Links between records' },
  {
    name: 'letter page',
    description:
      "A record's page in Maarch 20.10's web client: the record, its tabs' counts, a field, its file's facts and versions, the files a record may carry",
  },
  {
    name: 'baskets',
    description:
      "A clerk's baskets: the home page, each basket's records, its filters, the actions offered on its letters, running them, and the letters' locks",
  },
  { name: 'diffusion', description: 'Diffusion lists of records' },
  { name: 'entities', description: 'Organisational units' },
  { name: 'contacts', description: 'Senders and recipients of mail: list, read, create, update, look up' },
  {
    name: 'reference data',
    description:
      "What clients offer instead of typed ids (document types, statuses, priorities, indexing models, custom fields, tags, folders, users), the parameters and the caller's profile, as Maarch 20.10 serves them",
  },
  {
    name: 'web client',
    description:
      "What Maarch 20.10's own web client asks around a session: the sign-in page's information, language and images, password rules",
  },
  { name: 'digital safe', description: 'Journal of life-cycle events of deposited files' },
  { name: 'service', description: 'Health and this document' },
  {
    name: 'administration',
    description: 'Organisation documents and users, for root users (outside the Maarch interface)',
  },
] as const

/** The tag of an operation. */
export type RouteTag = (typeof TAGS)[number]['name']

/** Security requirement of the `/rest` and `/admin` operations, the document's default: HTTP Basic or a bearer token. */
export const USER_SECURITY: oas31.SecurityRequirementObject[] = [{ basicAuth: [] }, { bearerAuth: [] }]

/** The schemes the security requirements name. */
export const SECURITY_SCHEMES: Record<string, oas31.SecuritySchemeObject> = {
  basicAuth: {
    type: 'http',
    scheme: 'basic',
    description: `login:password of a Mailroom user. ${PASSWORD_GUESSING}`,
  },
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A Token from POST /rest/authenticate (30 minutes) or a service token from `mailroom token <login>`',
  },
  serviceAuthCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'SERVICE-AUTH',
    description:
      'The URL-encoded value of a Token from POST /rest/authenticate, or of a service token from `mailroom token <login>`',
  },
}

/** The document's description of the service. */
export const INFO: oas31.InfoObject = {
  title: 'Mailroom',
  version: '20.10',
  description:
    'Mailroom serves the Maarch Courrier 20.10 REST interface. Mail records (resources) with their file, searched within the caller perimeter, served as watermarked PDF, ' +
    'moved through statuses, and deposited in a digital safe whose journal is readable. ' +
    'Error bodies of the /rest operations are `{"errors": "<message>"}`; the examples of each error response give the exact messages.',
  license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
}

/** Values the examples share, from the demo dataset of runtime-contract.md. */
export const DEMO = {
  /** "Bonjour" as the base64 file of the examples. */
  file: 'Qm9uam91cg==',
  /** The demo's digital safe. */
  safe: '21750001600019',
} as const
