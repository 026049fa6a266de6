/** One environment setting of the server, as `mailroom help` and docs/settings.md list it. */
export interface Setting {
  readonly name: string
  readonly description: string
  readonly default: string
}

/**
 * Every setting the server reads from its environment, in the order the help lists them. A test checks
 * that the sources read no other and that docs/settings.md has a row for each.
 */
export const SETTINGS: readonly Setting[] = [
  { name: 'PORT', description: 'HTTP port', default: '8080' },
  { name: 'HOST', description: 'listen address', default: '127.0.0.1' },
  {
    name: 'MAILROOM_DATA_DIR',
    description: 'data directory (embedded database, document storage, embedded secret)',
    default: './data',
  },
  {
    name: 'DATABASE_URL',
    description: 'external PostgreSQL, replaces the embedded one',
    default: 'unset: embedded PGlite in $MAILROOM_DATA_DIR/pglite',
  },
  { name: 'MAILROOM_PG_POOL_SIZE', description: 'PostgreSQL connections per server', default: '10' },
  {
    name: 'MAILROOM_STATEMENT_TIMEOUT_MS',
    description: 'PostgreSQL statement timeout, milliseconds (0: none)',
    default: '15000',
  },
  {
    name: 'MAILROOM_PREPARED_STATEMENTS',
    description: 'run repeated statements as named prepared statements (0 behind a pooler that cannot keep them)',
    default: '1',
  },
  { name: 'MAILROOM_DOCSERVER_DIR', description: 'document storage root', default: '$MAILROOM_DATA_DIR/docservers' },
  {
    name: 'MAILROOM_DOCSERVER_URL',
    description:
      'document storage: s3://BUCKET[/PREFIX] for object storage (keys from AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or the AWS default chain), file:///path or a path for a folder',
    default: 'unset: the folder MAILROOM_DOCSERVER_DIR',
  },
  {
    name: 'MAILROOM_S3_ENDPOINT',
    description: 'address of the S3-compatible store (Ceph, MinIO…)',
    default: 'unset: AWS S3',
  },
  { name: 'MAILROOM_S3_REGION', description: 'region requests are signed for', default: 'us-east-1' },
  {
    name: 'MAILROOM_S3_FORCE_PATH_STYLE',
    description: 'address buckets as ENDPOINT/BUCKET (most non-AWS stores need 1)',
    default: '0',
  },
  {
    name: 'MAILROOM_S3_TIMEOUT_MS',
    description: 'longest wait for one call of the object store, retries included, milliseconds; then 503',
    default: '20000',
  },
  {
    name: 'MAILROOM_COPY_TO_ACCESS_KEY_ID',
    description: 'mailroom docserver copy: access key of a target in another object store (with --to-endpoint…)',
    default: 'unset: the target shares AWS_ACCESS_KEY_ID',
  },
  {
    name: 'MAILROOM_COPY_TO_SECRET_ACCESS_KEY',
    description: 'mailroom docserver copy: its secret key',
    default: 'unset',
  },
  {
    name: 'MAILROOM_COPY_FROM_ACCESS_KEY_ID',
    description: 'mailroom docserver copy: access key of a source in another object store (with --from-endpoint…)',
    default: 'unset: the source shares AWS_ACCESS_KEY_ID',
  },
  {
    name: 'MAILROOM_COPY_FROM_SECRET_ACCESS_KEY',
    description: 'mailroom docserver copy: its secret key',
    default: 'unset',
  },
  {
    name: 'MAILROOM_SECRET',
    description: 'token signing secret, at least 16 characters',
    default: 'embedded: generated into $MAILROOM_DATA_DIR/secret; with DATABASE_URL: required',
  },
  {
    name: 'MAILROOM_PREVIOUS_SECRETS',
    description: 'comma-separated secrets replaced by MAILROOM_SECRET, whose tokens stay valid',
    default: 'none',
  },
  {
    name: 'MAILROOM_DEMO',
    description: 'load the demo dataset (its passwords are published)',
    default: '1 on a loopback HOST with an empty embedded database, else 0',
  },
  { name: 'MAILROOM_BODY_LIMIT', description: 'largest request body, bytes', default: '67108864' },
  {
    name: 'MAILROOM_HEADERS_TIMEOUT_MS',
    description: 'time a request may take to send its headers, milliseconds; then 408 and closed',
    default: '30000',
  },
  {
    name: 'MAILROOM_RECEIVE_TIMEOUT_MS',
    description: 'time a request may take to arrive whole, body included, milliseconds; then 408 and closed',
    default: '300000',
  },
  {
    name: 'MAILROOM_BODY_IDLE_TIMEOUT_MS',
    description: 'longest pause while a request body arrives, milliseconds; then 408 and closed (0: none)',
    default: '30000',
  },
  {
    name: 'MAILROOM_SEARCH_MAX_RESULTS',
    description: 'most records one search may return; a search over it is refused with 400 (0: no ceiling)',
    default: '0',
  },
  {
    name: 'MAILROOM_LDAP_URL',
    description:
      "the organisation's directory for users whose authentication is ldap: ldaps://host[:port], or ldap://host[:port] upgraded by StartTLS",
    default: 'unset: directory users cannot sign in',
  },
  {
    name: 'MAILROOM_LDAP_BIND_TEMPLATE',
    description:
      'the name a login binds as, {login} in place: a DN (uid={login},ou=people,dc=example,dc=org) or an Active Directory name ({login}@corp.example); either this or a search',
    default: 'unset',
  },
  {
    name: 'MAILROOM_LDAP_SEARCH_BASE',
    description: "or: where the login's entry is searched, with the service account below",
    default: 'unset',
  },
  {
    name: 'MAILROOM_LDAP_SEARCH_FILTER',
    description: "the search's filter, {login} in place (escaped)",
    default: '(uid={login})',
  },
  {
    name: 'MAILROOM_LDAP_BIND_DN',
    description: 'the service account the search binds as',
    default: 'unset',
  },
  {
    name: 'MAILROOM_LDAP_BIND_PASSWORD',
    description: 'its password (or MAILROOM_LDAP_BIND_PASSWORD_FILE: a file holding it)',
    default: 'unset',
  },
  {
    name: 'MAILROOM_LDAP_CA_FILE',
    description:
      "certificates (PEM) of the authority that signs the directory's certificate, when the system does not trust it",
    default: "the system's",
  },
  {
    name: 'MAILROOM_LDAP_STARTTLS',
    description: '0 sends passwords in clear over ldap:// (a laboratory only)',
    default: '1',
  },
  {
    name: 'MAILROOM_LDAP_CHECK_CERTIFICATE',
    description: '0 accepts any certificate of the directory (a laboratory only)',
    default: '1',
  },
  {
    name: 'MAILROOM_LDAP_TIMEOUT_MS',
    description: 'time the directory has to answer before a sign-in answers 503, milliseconds',
    default: '5000',
  },
  {
    name: 'MAILROOM_LDAP_SYNC_BASE',
    description: 'where mailroom user sync searches the people it provisions',
    default: '$MAILROOM_LDAP_SEARCH_BASE',
  },
  {
    name: 'MAILROOM_LDAP_SYNC_FILTER',
    description: 'which entries mailroom user sync provisions',
    default: '(objectClass=inetOrgPerson)',
  },
  {
    name: 'MAILROOM_LDAP_SYNC_MAPPING',
    description: 'mapping file of mailroom user sync: attributes, directory groups to Mailroom groups and entities',
    default: 'none',
  },
  {
    name: 'MAILROOM_OIDC_ISSUER',
    description:
      "the OpenID Connect provider's issuer for users whose authentication is oidc (https://; http:// on loopback only)",
    default: 'unset: no OpenID Connect',
  },
  {
    name: 'MAILROOM_OIDC_CLIENT_ID',
    description: "Mailroom's client at the provider",
    default: 'unset',
  },
  {
    name: 'MAILROOM_OIDC_CLIENT_SECRET',
    description: "the client's secret (or MAILROOM_OIDC_CLIENT_SECRET_FILE); unset: a public client, PKCE alone",
    default: 'unset',
  },
  {
    name: 'MAILROOM_OIDC_REDIRECT_URL',
    description:
      'https://<server as users reach it>/rest/authenticate/oidc/callback, registered at the provider; the console signs in through the provider when set',
    default: 'unset: API tokens only',
  },
  {
    name: 'MAILROOM_OIDC_AUDIENCE',
    description: "the aud the provider's access tokens carry for Mailroom",
    default: 'the client id',
  },
  {
    name: 'MAILROOM_OIDC_LOGIN_CLAIM',
    description: 'the claim holding the Mailroom login',
    default: 'preferred_username',
  },
  {
    name: 'MAILROOM_OIDC_PROVIDER_NAME',
    description: "the provider's name on the console's sign-in button",
    default: 'OpenID Connect',
  },
  {
    name: 'MAILROOM_OIDC_TIMEOUT_MS',
    description: 'time the provider has to answer, milliseconds',
    default: '5000',
  },
  {
    name: 'MAILROOM_FULLTEXT_LANGUAGE',
    description:
      'language of full-text search: OCR and word stemming (fr or en); after a change run mailroom fulltext reindex',
    default: 'fr',
  },
  {
    name: 'MAILROOM_FULLTEXT_WORKERS',
    description: 'files this server extracts text from at once, in the background (0: none, other servers do)',
    default: '1',
  },
  {
    name: 'MAILROOM_FULLTEXT_LEASE_SECONDS',
    description: 'how long a file being extracted stays with its server before another may take it over',
    default: '300',
  },
  {
    name: 'MAILROOM_FULLTEXT_MAX_ATTEMPTS',
    description: 'tries of one file before its extraction is marked failed',
    default: '3',
  },
  {
    name: 'MAILROOM_CONSOLE',
    description: 'serve the web console at /console (on/off)',
    default: 'on with the embedded database, off with DATABASE_URL',
  },
  {
    name: 'MAILROOM_CONSOLE_DIR',
    description: 'folder of the built web console',
    default: 'the build of @mailroom/console beside the server (apps/console/dist)',
  },
  {
    name: 'MAILROOM_TRUST_PROXY',
    description:
      'the reverse proxies in front whose forwarded client address is believed: a count of proxies (1), or their addresses and networks, comma-separated (127.0.0.1/32,10.0.0.0/8); 0: none',
    default: '0',
  },
  {
    name: 'MAILROOM_PROXY_HEADER',
    description: 'the header those proxies append the client address to: x-forwarded-for or forwarded',
    default: 'x-forwarded-for',
  },
  {
    name: 'MAILROOM_HSTS_MAX_AGE',
    description:
      'seconds browsers keep to HTTPS only (Strict-Transport-Security); set it only when TLS is in front (0: not sent)',
    default: '0',
  },
  {
    name: 'MAILROOM_REFERRER_POLICY',
    description: 'Referrer-Policy of every answer (a policy token, or off)',
    default: 'no-referrer',
  },
  { name: 'MAILROOM_NOSNIFF', description: 'X-Content-Type-Options: nosniff on every answer (0: off)', default: '1' },
  {
    name: 'MAILROOM_CONSOLE_FRAME_ANCESTORS',
    description: 'origins whose pages may show the console in a frame (its CSP frame-ancestors, comma-separated)',
    default: 'none',
  },
  {
    name: 'MAILROOM_AUTH_ADDRESS_LOGIN_FAILURES',
    description:
      'wrong passwords for one login from one address (5 minutes) before that address is refused for it (429)',
    default: '5',
  },
  {
    name: 'MAILROOM_AUTH_ADDRESS_FAILURES',
    description:
      'wrong passwords from one address, all logins (5 minutes), before it is refused for logins that never succeeded from it (429)',
    default: '30',
  },
  {
    name: 'MAILROOM_AUTH_PASSWORD_CHECKS',
    description: 'password hashes one server checks at once (the others wait their turn)',
    default: '2',
  },
  {
    name: 'MAILROOM_AUTH_LOCK_ATTEMPTS',
    description: 'reference account lock: failures of a login, any address, that lock it (0: off)',
    default: '0',
  },
  {
    name: 'MAILROOM_AUTH_LOCK_MINUTES',
    description: 'reference account lock: minutes a locked login answers Account Locked',
    default: '5',
  },
  {
    name: 'MAILROOM_CORS_ORIGINS',
    description: 'origins (scheme://host[:port], comma-separated, or *) whose browser pages may call the server',
    default: 'none: CORS off',
  },
  {
    name: 'MAILROOM_CORS_CREDENTIALS',
    description: 'let those pages send cookies and HTTP authentication (not with *)',
    default: '0',
  },
  { name: 'MAILROOM_CORS_MAX_AGE', description: 'seconds a browser may reuse a preflight answer', default: '600' },
  { name: 'MAILROOM_PASSWORD_MIN_LENGTH', description: 'shortest password set through Mailroom', default: '12' },
  { name: 'MAILROOM_PASSWORD_MIN_UPPER', description: 'upper-case letters a new password needs', default: '0' },
  { name: 'MAILROOM_PASSWORD_MIN_DIGITS', description: 'digits a new password needs', default: '0' },
  {
    name: 'MAILROOM_PASSWORD_MIN_SPECIAL',
    description: 'characters other than letters and digits a new password needs',
    default: '0',
  },
  { name: 'MAILROOM_METRICS', description: 'serve Prometheus metrics at GET /metrics (0: off)', default: '1' },
  {
    name: 'MAILROOM_METRICS_PORT',
    description: "serve /metrics on this port of its own instead of the server's",
    default: "unset: the server's PORT",
  },
  { name: 'MAILROOM_METRICS_HOST', description: 'listen address of MAILROOM_METRICS_PORT', default: 'HOST' },
  {
    name: 'MAILROOM_METRICS_ALLOW',
    description: 'comma-separated networks (CIDR) whose connections may read /metrics; others get 403',
    default: '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7',
  },
  {
    name: 'LOG_LEVEL',
    description: 'log level (pino: trace, debug, info, warn, error, fatal, silent)',
    default: 'info',
  },
  {
    name: 'MAILROOM_LOG_FORMAT',
    description: 'json (JSON lines) or pretty (readable lines)',
    default: 'pretty on a terminal, else json',
  },
  {
    name: 'MAILROOM_SOFFICE',
    description: "path of LibreOffice's soffice, which converts office files",
    default: 'PATH, then the usual install places',
  },
  { name: 'MAILROOM_WATERMARK_ENABLED', description: 'watermark PDF reads (true/false)', default: 'true' },
  {
    name: 'MAILROOM_WATERMARK_TEXT',
    description: 'watermark template with [column], [date_now], [hour_now]',
    default: 'Copie conforme de [alt_identifier] le [date_now] [hour_now]',
  },
  { name: 'MAILROOM_WATERMARK_POSITION', description: 'watermark x,y,angle,opacity', default: '30,35,0,0.5' },
  { name: 'MAILROOM_WATERMARK_FONT', description: 'watermark font family,size', default: 'helvetica,10' },
  { name: 'MAILROOM_WATERMARK_COLOR', description: 'watermark colour r,g,b', default: '20,192,30' },
  { name: 'MAILROOM_TIMEZONE', description: 'IANA time zone of [date_now] and [hour_now]', default: 'Europe/Paris' },
  {
    name: 'MAILROOM_CONTENT_VERIFY_BYTES',
    description: 'files up to this size are verified before the first byte is sent',
    default: '16777216',
  },
  {
    name: 'MAILROOM_CONTENT_READ_THREADS',
    description: 'threads that read and hash those files (0: on the event loop)',
    default: '2',
  },
]

/** The settings as the help prints them: one line each, name, what it does, default. */
export function settingsHelp(): string {
  const width = Math.max(...SETTINGS.map((s) => s.name.length))
  const lines = SETTINGS.map((s) => `  ${s.name.padEnd(width)}  ${s.description} (default: ${s.default})`)
  return `\nSettings (environment variables; docs/settings.md explains each):\n${lines.join('\n')}\n`
}
