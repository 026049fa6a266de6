import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { FullTextLanguage, PasswordPolicy, ThrottlePolicy } from '@mailroom/core'
import {
  type CorsSettings,
  corsSettingsProblem,
  type ProxyHeader,
  type SecurityHeaderSettings,
  type TrustedProxies,
  trustedProxyCheck,
  type WebClientFolders,
} from '@mailroom/http-koa'
import {
  type DatabaseTarget,
  type DocumentStoreChoice,
  isS3Url,
  type LdapDirectorySettings,
  type OidcSettings,
  parseS3Url,
} from '@mailroom/mailroom'
import { ConfigError } from './config-error.js'
import { directorySettings, oidcSettings } from './directory-settings.js'
import { loadMetricsConfig, type MetricsConfig } from './metrics/metrics-settings.js'
import { type Env, parseInteger, setting } from './settings/read-setting.js'
import { SETTING_DECLARATIONS } from './settings/server-settings.js'

/** Start-up settings (runtime-contract.md "Starting the server"). */
export interface ServerConfig {
  readonly port: number
  readonly host: string
  readonly dataDir: string
  readonly database: DatabaseTarget
  readonly docserverDir: string
  /** MAILROOM_DOCSERVER_URL: `s3://BUCKET[/PREFIX]` for object storage (a path or file:// sets docserverDir); null: the folder. */
  readonly docserverUrl: string | null
  /** How to reach the object store (MAILROOM_S3_ENDPOINT, _REGION, _FORCE_PATH_STYLE, _TIMEOUT_MS; keys from AWS_* or the SDK's chain). */
  readonly s3: {
    readonly endpoint?: string
    readonly region?: string
    readonly forcePathStyle?: boolean
    readonly callTimeoutMs?: number
  }
  readonly secret: string
  /** Secrets replaced by `secret` whose tokens still verify (MAILROOM_PREVIOUS_SECRETS, comma-separated). */
  readonly previousSecrets: readonly string[]
  /** true/false when MAILROOM_DEMO says so; undefined means "embedded and empty". */
  readonly demo: boolean | undefined
  readonly bodyLimitBytes: number
  readonly logLevel: string
  /** The proxies in front whose forwarded client addresses are believed (MAILROOM_TRUST_PROXY): 0 for none. */
  readonly trustProxy: TrustedProxies
  /** The header they append the client address to (MAILROOM_PROXY_HEADER). */
  readonly proxyHeader: ProxyHeader
  /** Rules of every password set through Mailroom (MAILROOM_PASSWORD_MIN_LENGTH, _MIN_UPPER, _MIN_DIGITS, _MIN_SPECIAL). */
  readonly passwordPolicy: PasswordPolicy
  /** Most records one search may return (MAILROOM_SEARCH_MAX_RESULTS); null: no ceiling, the default. */
  readonly searchMaxResults: number | null
  /** Full-text search: the language, this server's extraction workers, the queue's lease and tries (MAILROOM_FULLTEXT_*). */
  readonly fulltext: {
    readonly language: FullTextLanguage
    readonly workers: number
    readonly leaseMs: number
    readonly maxAttempts: number
  }
  /** The web console's folder when it is served at /console (MAILROOM_CONSOLE, MAILROOM_CONSOLE_DIR); null: not served. */
  readonly consoleDir: string | null
  /** Maarch 20.10's web client: its build served at /dist, its language files and images (MAILROOM_WEB_CLIENT_*). */
  readonly webClient: WebClientFolders
  /** The authentication throttle's limits (MAILROOM_AUTH_*); the account lock is off unless lockAttempts > 0. */
  readonly throttle: Partial<ThrottlePolicy>
  /** GET /metrics: on or off, on the server's port or one of its own, the networks that may read it. */
  readonly metrics: MetricsConfig
  /** Browser pages of other origins allowed to call (MAILROOM_CORS_ORIGINS, _CREDENTIALS, _MAX_AGE); undefined: CORS off. */
  readonly cors: CorsSettings | undefined
  /** Security headers of every answer (MAILROOM_HSTS_MAX_AGE, MAILROOM_REFERRER_POLICY, MAILROOM_NOSNIFF, MAILROOM_CONSOLE_FRAME_ANCESTORS). */
  readonly securityHeaders: SecurityHeaderSettings
  /** The organisation's directory for users whose method is `ldap` (MAILROOM_LDAP_*); undefined: none. */
  readonly directory: LdapDirectorySettings | undefined
  /** The organisation's OpenID Connect provider for users whose method is `oidc` (MAILROOM_OIDC_*); undefined: none. */
  readonly oidc: OidcSettings | undefined
  /** How long a request may take to arrive (MAILROOM_HEADERS_TIMEOUT_MS, _RECEIVE_TIMEOUT_MS, _BODY_IDLE_TIMEOUT_MS). */
  readonly arrival: ArrivalTimeouts
}

/** Bounds on the time a request takes to arrive, so stalled clients cannot hold connections for long. */
export interface ArrivalTimeouts {
  /** Until the headers are in. */
  readonly headersMs: number
  /** Until the whole request, body included, is in. */
  readonly receiveMs: number
  /** Longest pause while the body arrives (0: none). */
  readonly bodyIdleMs: number
}

/**
 * CORS from MAILROOM_CORS_ORIGINS (comma- or space-separated origins, or `*`): undefined when unset, so
 * no page of another origin can call. A list that cannot be used stops the start with the reason.
 */
function corsSettings(env: Env): CorsSettings | undefined {
  const listed = (setting(env, 'MAILROOM_CORS_ORIGINS') ?? '').split(/[\s,]+/).filter((origin) => origin !== '')
  const credentials = setting(env, 'MAILROOM_CORS_CREDENTIALS')
  const maxAgeSeconds = setting(env, 'MAILROOM_CORS_MAX_AGE')
  if (listed.length === 0) {
    if (credentials)
      throw new ConfigError(
        'MAILROOM_CORS_CREDENTIALS needs MAILROOM_CORS_ORIGINS: list the origins allowed to send credentials',
      )
    return undefined
  }
  const settings: CorsSettings = {
    origins: listed.length === 1 && listed[0] === '*' ? '*' : listed,
    credentials,
    maxAgeSeconds,
  }
  const problem = corsSettingsProblem(settings)
  if (problem)
    throw new ConfigError(
      `MAILROOM_CORS_ORIGINS: ${problem}${settings.origins === '*' ? ' (or set MAILROOM_CORS_CREDENTIALS=0)' : ''}`,
    )
  return settings
}

/**
 * MAILROOM_TRUST_PROXY: 0 or unset (none), a hop count (`1`: the proxy the server's socket talks to), or
 * the proxies' addresses and networks, comma-separated. `true` is refused rather than guessed: trusting
 * every hop would take the address the client wrote itself.
 */
function trustedProxies(env: Env): TrustedProxies {
  const raw = setting(env, 'MAILROOM_TRUST_PROXY').trim()
  if (raw === '' || ['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return 0
  if (/^\d+$/.test(raw)) return parseInteger('MAILROOM_TRUST_PROXY', raw, SETTING_DECLARATIONS.MAILROOM_TRUST_PROXY)
  const proxies = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
  const usable = (() => {
    try {
      trustedProxyCheck(proxies)
      return true
    } catch {
      return false // proxy-addr names the entry it cannot read; the message below shows the whole value
    }
  })()
  if (!usable)
    throw new ConfigError(
      `MAILROOM_TRUST_PROXY must be a number of proxies in front (1 for one) or their addresses and networks (127.0.0.1/32,10.0.0.0/8), got "${raw}"`,
    )
  return proxies
}

/** The security headers; HSTS only when the operator says TLS is in front (a browser keeps it for max-age). */
function securityHeaderSettings(env: Env): SecurityHeaderSettings {
  const frameAncestors = (setting(env, 'MAILROOM_CONSOLE_FRAME_ANCESTORS') ?? '')
    .split(/[\s,]+/)
    .filter((origin) => origin !== '')
  const notAnOrigin = frameAncestors.find((origin) => !/^(https?:\/\/[^\s/;,']+|'self')$/i.test(origin))
  if (notAnOrigin !== undefined)
    throw new ConfigError(
      `MAILROOM_CONSOLE_FRAME_ANCESTORS must list origins such as https://portal.example.org (or 'self'), got "${notAnOrigin}"`,
    )
  return {
    hstsMaxAgeSeconds: setting(env, 'MAILROOM_HSTS_MAX_AGE'),
    referrerPolicy: setting(env, 'MAILROOM_REFERRER_POLICY'),
    noSniff: setting(env, 'MAILROOM_NOSNIFF'),
    consoleFrameAncestors: frameAncestors,
  }
}

function arrivalTimeouts(env: Env): ArrivalTimeouts {
  const headersMs = setting(env, 'MAILROOM_HEADERS_TIMEOUT_MS')
  const receiveMs = setting(env, 'MAILROOM_RECEIVE_TIMEOUT_MS')
  const bodyIdleMs = setting(env, 'MAILROOM_BODY_IDLE_TIMEOUT_MS')
  if (headersMs > receiveMs)
    throw new ConfigError(
      `MAILROOM_HEADERS_TIMEOUT_MS (${headersMs}) must not exceed MAILROOM_RECEIVE_TIMEOUT_MS (${receiveMs}): the headers are part of the request`,
    )
  return { headersMs, receiveMs, bodyIdleMs }
}

/**
 * Reads the configuration from the environment. In embedded mode the signing secret is generated once
 * and kept in the data directory; with DATABASE_URL it must be given (several servers must share it).
 */
export function loadConfig(env: Env = process.env, options: { requireSecret?: boolean } = {}): ServerConfig {
  const dataDir = resolve(setting(env, 'MAILROOM_DATA_DIR'))
  const url = setting(env, 'DATABASE_URL')?.trim()
  // Behind a pooler that cannot keep named prepared statements (PgBouncer before 1.21 in transaction mode): 0.
  const prepared = setting(env, 'MAILROOM_PREPARED_STATEMENTS')
  const poolSize = setting(env, 'MAILROOM_PG_POOL_SIZE')
  const statementTimeoutMs = setting(env, 'MAILROOM_STATEMENT_TIMEOUT_MS')
  const database: DatabaseTarget = url
    ? {
        kind: 'postgres',
        url,
        poolSize,
        statementTimeoutMs,
        ...(prepared === undefined ? {} : { preparedStatements: prepared }),
      }
    : { kind: 'pglite', dataDir: join(dataDir, 'pglite') }
  let secret = setting(env, 'MAILROOM_SECRET') ?? ''
  if (!secret && options.requireSecret !== false) {
    if (url) throw new ConfigError('MAILROOM_SECRET is required with DATABASE_URL: set the same secret on every server')
    secret = embeddedSecret(dataDir)
  }
  if (secret && secret.length < 16) throw new ConfigError('MAILROOM_SECRET must be at least 16 characters')
  const previousSecrets = (setting(env, 'MAILROOM_PREVIOUS_SECRETS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
  if (previousSecrets.some((s) => s.length < 16))
    throw new ConfigError('each of MAILROOM_PREVIOUS_SECRETS must be at least 16 characters')
  const demo = setting(env, 'MAILROOM_DEMO')
  return {
    port: setting(env, 'PORT'),
    host: setting(env, 'HOST'),
    dataDir,
    database,
    ...docserverSettings(env, dataDir),
    secret,
    previousSecrets,
    demo: demo ?? (url ? false : undefined),
    bodyLimitBytes: setting(env, 'MAILROOM_BODY_LIMIT'),
    logLevel: setting(env, 'LOG_LEVEL'),
    trustProxy: trustedProxies(env),
    proxyHeader: setting(env, 'MAILROOM_PROXY_HEADER'),
    passwordPolicy: {
      minLength: setting(env, 'MAILROOM_PASSWORD_MIN_LENGTH'),
      minUpper: setting(env, 'MAILROOM_PASSWORD_MIN_UPPER'),
      minDigits: setting(env, 'MAILROOM_PASSWORD_MIN_DIGITS'),
      minSpecial: setting(env, 'MAILROOM_PASSWORD_MIN_SPECIAL'),
    },
    // 0 or unset: no ceiling. A search over it is refused with 400, never truncated.
    searchMaxResults: setting(env, 'MAILROOM_SEARCH_MAX_RESULTS') || null,
    fulltext: fullTextSettings(env),
    // On by default where the demo is (one person on a laptop); a shared deployment opts in.
    consoleDir:
      (setting(env, 'MAILROOM_CONSOLE') ?? !url)
        ? resolve(setting(env, 'MAILROOM_CONSOLE_DIR') ?? builtConsoleDir())
        : null,
    webClient: webClientFolders(env),
    throttle: {
      maxFailuresPerLoginAndAddress: setting(env, 'MAILROOM_AUTH_ADDRESS_LOGIN_FAILURES'),
      maxFailuresPerAddress: setting(env, 'MAILROOM_AUTH_ADDRESS_FAILURES'),
      maxConcurrentChecks: setting(env, 'MAILROOM_AUTH_PASSWORD_CHECKS'),
      lockAttempts: setting(env, 'MAILROOM_AUTH_LOCK_ATTEMPTS'),
      lockSeconds: setting(env, 'MAILROOM_AUTH_LOCK_MINUTES') * 60,
    },
    metrics: loadMetricsConfig(env),
    cors: corsSettings(env),
    securityHeaders: securityHeaderSettings(env),
    directory: directorySettings(env),
    oidc: oidcSettings(env),
    arrival: arrivalTimeouts(env),
  }
}

/** MAILROOM_FULLTEXT_*: the installation's language and how this server takes part in the queue. */
function fullTextSettings(env: Env): ServerConfig['fulltext'] {
  return {
    language: setting(env, 'MAILROOM_FULLTEXT_LANGUAGE'),
    workers: setting(env, 'MAILROOM_FULLTEXT_WORKERS'),
    leaseMs: setting(env, 'MAILROOM_FULLTEXT_LEASE_SECONDS') * 1000,
    maxAttempts: setting(env, 'MAILROOM_FULLTEXT_MAX_ATTEMPTS'),
  }
}

/** MAILROOM_WEB_CLIENT_*: the folders an operator supplies for Maarch 20.10's web client, each resolved; unset: none. */
function webClientFolders(env: Env): WebClientFolders {
  const folder = (
    name: 'MAILROOM_WEB_CLIENT_DIR' | 'MAILROOM_WEB_CLIENT_LANG_DIR' | 'MAILROOM_WEB_CLIENT_IMAGES_DIR',
  ) => {
    const value = setting(env, name)
    return value ? resolve(value) : undefined
  }
  const clientDir = folder('MAILROOM_WEB_CLIENT_DIR')
  const languagesDir = folder('MAILROOM_WEB_CLIENT_LANG_DIR')
  const imagesDir = folder('MAILROOM_WEB_CLIENT_IMAGES_DIR')
  return {
    ...(clientDir ? { clientDir } : {}),
    ...(languagesDir ? { languagesDir } : {}),
    ...(imagesDir ? { imagesDir } : {}),
  }
}

/** The build of @mailroom/console where the workspace (or an install beside the server) has it. */
export function builtConsoleDir(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@mailroom/console/package.json')), 'dist')
  } catch {
    return fileURLToPath(new URL('../../console/dist', import.meta.url))
  }
}

/** The document store settings: MAILROOM_DOCSERVER_URL (s3://, file:// or a path) over MAILROOM_DOCSERVER_DIR. */
function docserverSettings(env: Env, dataDir: string): Pick<ServerConfig, 'docserverDir' | 'docserverUrl' | 's3'> {
  const url = setting(env, 'MAILROOM_DOCSERVER_URL')?.trim() || ''
  let docserverDir = resolve(setting(env, 'MAILROOM_DOCSERVER_DIR') ?? join(dataDir, 'docservers'))
  let docserverUrl: string | null = null
  if (isS3Url(url)) {
    try {
      parseS3Url(url)
    } catch (error) {
      throw new ConfigError(`MAILROOM_DOCSERVER_URL: ${(error as Error).message}`)
    }
    docserverUrl = url
  } else if (url.toLowerCase().startsWith('file://')) {
    docserverDir = resolve(new URL(url).pathname)
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    throw new ConfigError(`MAILROOM_DOCSERVER_URL must be s3://BUCKET[/PREFIX], file:///path or a path, got "${url}"`)
  } else if (url) {
    docserverDir = resolve(url)
  }
  const endpoint = setting(env, 'MAILROOM_S3_ENDPOINT')
  const region = setting(env, 'MAILROOM_S3_REGION')
  const forcePathStyle = setting(env, 'MAILROOM_S3_FORCE_PATH_STYLE')
  const callTimeoutMs = setting(env, 'MAILROOM_S3_TIMEOUT_MS')
  return {
    docserverDir,
    docserverUrl,
    s3: {
      ...(endpoint ? { endpoint } : {}),
      ...(region ? { region } : {}),
      ...(forcePathStyle === undefined ? {} : { forcePathStyle }),
      ...(callTimeoutMs === undefined ? {} : { callTimeoutMs }),
    },
  }
}

/** What createMailroom needs to open the configured document store. */
export function documentStoreChoice(
  config: Pick<ServerConfig, 'docserverDir' | 'docserverUrl' | 's3'>,
): DocumentStoreChoice {
  return config.docserverUrl
    ? { docserverUrl: config.docserverUrl, s3: config.s3 }
    : { docserverDir: config.docserverDir }
}

/** The embedded secret: read from `<dataDir>/secret`, created (0600) on first use. */
export function embeddedSecret(dataDir: string): string {
  const file = join(dataDir, 'secret')
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim()
    if (stored.length >= 16) return stored
  }
  mkdirSync(dataDir, { recursive: true })
  const secret = randomBytes(32).toString('base64url')
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'w' })
  return secret
}
