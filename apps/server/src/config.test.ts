import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { documentStoreChoice, loadConfig } from './config.js'
import { ConfigError } from './config-error.js'

const dirs: string[] = []
async function tempDir() {
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-config-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('loadConfig', () => {
  it('uses the contract defaults in embedded mode', async () => {
    const dataDir = await tempDir()
    const config = loadConfig({ MAILROOM_DATA_DIR: dataDir })
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      dataDir,
      database: { kind: 'pglite', dataDir: join(dataDir, 'pglite') },
      docserverDir: join(dataDir, 'docservers'),
      demo: undefined,
      bodyLimitBytes: 64 * 1024 * 1024,
    })
  })

  it('generates the embedded secret once, keeps it private, and reuses it', async () => {
    const dataDir = await tempDir()
    const first = loadConfig({ MAILROOM_DATA_DIR: dataDir }).secret
    expect(first.length).toBeGreaterThanOrEqual(32)
    expect(loadConfig({ MAILROOM_DATA_DIR: dataDir }).secret).toBe(first)
    expect((await readFile(join(dataDir, 'secret'), 'utf8')).trim()).toBe(first)
    expect((await stat(join(dataDir, 'secret'))).mode & 0o077).toBe(0)
  })

  it('refuses to start on PostgreSQL without MAILROOM_SECRET', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' })).toThrow(ConfigError)
    expect(() => loadConfig({ DATABASE_URL: 'postgres://x@localhost/db' })).toThrow(/MAILROOM_SECRET is required/)
  })

  it('defaults the demo data off on PostgreSQL and reads explicit settings', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://x@localhost/db',
      MAILROOM_SECRET: 's'.repeat(20),
      PORT: '9090',
      HOST: '0.0.0.0',
      MAILROOM_DOCSERVER_DIR: '/srv/docs',
    })
    expect(config).toMatchObject({
      port: 9090,
      host: '0.0.0.0',
      demo: false,
      docserverDir: '/srv/docs',
      database: { kind: 'postgres', url: 'postgres://x@localhost/db' },
    })
    expect(
      loadConfig({ DATABASE_URL: 'postgres://x@h/db', MAILROOM_SECRET: 's'.repeat(20), MAILROOM_DEMO: '1' }).demo,
    ).toBe(true)
  })

  it('serves the web console by default with the embedded database only, from the folder MAILROOM_CONSOLE_DIR names', async () => {
    const dataDir = await tempDir()
    const pg = { DATABASE_URL: 'postgres://x@h/db', MAILROOM_SECRET: 's'.repeat(20) }
    expect(loadConfig({ MAILROOM_DATA_DIR: dataDir }).consoleDir).toMatch(/console[\\/]dist$/)
    expect(loadConfig({ MAILROOM_DATA_DIR: dataDir, MAILROOM_CONSOLE: 'off' }).consoleDir).toBeNull()
    expect(loadConfig(pg).consoleDir).toBeNull()
    expect(loadConfig({ ...pg, MAILROOM_CONSOLE: 'on', MAILROOM_CONSOLE_DIR: '/srv/console' }).consoleDir).toBe(
      '/srv/console',
    )
    expect(() => loadConfig({ ...pg, MAILROOM_CONSOLE: 'maybe' })).toThrow(/MAILROOM_CONSOLE must be 1 or 0/)
  })

  it('reads MAILROOM_DOCSERVER_URL: s3:// selects object storage with the MAILROOM_S3_* settings, file:// or a path a folder', () => {
    const base = {
      DATABASE_URL: 'postgres://x@h/db',
      MAILROOM_SECRET: 's'.repeat(20),
      MAILROOM_DOCSERVER_DIR: '/srv/docs',
    }
    expect(loadConfig(base)).toMatchObject({ docserverDir: '/srv/docs', docserverUrl: null, s3: {} })
    const s3 = loadConfig({
      ...base,
      MAILROOM_DOCSERVER_URL: 's3://mailroom-docs/prod',
      MAILROOM_S3_ENDPOINT: 'http://127.0.0.1:7480',
      MAILROOM_S3_REGION: 'eu-west-3',
      MAILROOM_S3_FORCE_PATH_STYLE: '1',
    })
    expect(s3).toMatchObject({
      docserverUrl: 's3://mailroom-docs/prod',
      s3: { endpoint: 'http://127.0.0.1:7480', region: 'eu-west-3', forcePathStyle: true },
    })
    expect(documentStoreChoice(s3)).toEqual({
      docserverUrl: 's3://mailroom-docs/prod',
      s3: { endpoint: 'http://127.0.0.1:7480', region: 'eu-west-3', forcePathStyle: true },
    })
    expect(loadConfig({ ...base, MAILROOM_DOCSERVER_URL: 'file:///var/lib/mailroom/docs' })).toMatchObject({
      docserverDir: '/var/lib/mailroom/docs',
      docserverUrl: null,
    })
    expect(documentStoreChoice(loadConfig({ ...base, MAILROOM_DOCSERVER_URL: '/mnt/shared/docs' }))).toEqual({
      docserverDir: '/mnt/shared/docs',
    })
    expect(() => loadConfig({ ...base, MAILROOM_DOCSERVER_URL: 's3://No_Such' })).toThrow(
      /MAILROOM_DOCSERVER_URL: "s3:\/\/No_Such" is not s3:\/\/BUCKET/,
    )
    expect(() => loadConfig({ ...base, MAILROOM_DOCSERVER_URL: 'ftp://host/docs' })).toThrow(
      /MAILROOM_DOCSERVER_URL must be s3:\/\/BUCKET\[\/PREFIX\], file:\/\/\/path or a path/,
    )
    expect(() =>
      loadConfig({ ...base, MAILROOM_DOCSERVER_URL: 's3://mailroom-docs', MAILROOM_S3_FORCE_PATH_STYLE: 'maybe' }),
    ).toThrow(/MAILROOM_S3_FORCE_PATH_STYLE must be 1 or 0/)
    // The store's deadline per call: the library's default (20 s) unless set.
    expect(
      loadConfig({ ...base, MAILROOM_DOCSERVER_URL: 's3://mailroom-docs', MAILROOM_S3_TIMEOUT_MS: '5000' }).s3,
    ).toEqual({ callTimeoutMs: 5000 })
    expect(() => loadConfig({ ...base, MAILROOM_S3_TIMEOUT_MS: '0' })).toThrow(
      /MAILROOM_S3_TIMEOUT_MS must be an integer from 100/,
    )
  })

  it('runs repeated statements prepared on PostgreSQL unless MAILROOM_PREPARED_STATEMENTS=0', () => {
    const base = { DATABASE_URL: 'postgres://x@h/db', MAILROOM_SECRET: 's'.repeat(20) }
    const pg = { kind: 'postgres', url: 'postgres://x@h/db', poolSize: 10, statementTimeoutMs: 15_000 }
    expect(loadConfig(base).database).toEqual(pg)
    expect(loadConfig({ ...base, MAILROOM_PREPARED_STATEMENTS: '0' }).database).toEqual({
      ...pg,
      preparedStatements: false,
    })
    expect(loadConfig({ ...base, MAILROOM_PREPARED_STATEMENTS: 'on' }).database).toEqual({
      ...pg,
      preparedStatements: true,
    })
    expect(() => loadConfig({ ...base, MAILROOM_PREPARED_STATEMENTS: 'sometimes' })).toThrow(
      /MAILROOM_PREPARED_STATEMENTS must be 1 or 0/,
    )
  })

  it('reads the PostgreSQL pool size and statement timeout', () => {
    const base = { DATABASE_URL: 'postgres://x@h/db', MAILROOM_SECRET: 's'.repeat(20) }
    expect(
      loadConfig({ ...base, MAILROOM_PG_POOL_SIZE: '25', MAILROOM_STATEMENT_TIMEOUT_MS: '0' }).database,
    ).toMatchObject({ poolSize: 25, statementTimeoutMs: 0 })
    expect(() => loadConfig({ ...base, MAILROOM_PG_POOL_SIZE: '0' })).toThrow(
      /MAILROOM_PG_POOL_SIZE must be an integer from 1 to 1000, got "0"/,
    )
    expect(() => loadConfig({ ...base, MAILROOM_STATEMENT_TIMEOUT_MS: '1.5' })).toThrow(
      /MAILROOM_STATEMENT_TIMEOUT_MS must be an integer/,
    )
  })

  it('reads the previous signing secrets of a rotation from MAILROOM_PREVIOUS_SECRETS (comma-separated)', () => {
    const base = { DATABASE_URL: 'postgres://x@h/db', MAILROOM_SECRET: 'n'.repeat(20) }
    expect(loadConfig(base).previousSecrets).toEqual([])
    expect(
      loadConfig({ ...base, MAILROOM_PREVIOUS_SECRETS: ` ${'a'.repeat(16)} ,, ${'b'.repeat(20)}` }).previousSecrets,
    ).toEqual(['a'.repeat(16), 'b'.repeat(20)])
    expect(() => loadConfig({ ...base, MAILROOM_PREVIOUS_SECRETS: `${'a'.repeat(16)},short` })).toThrow(
      /each of MAILROOM_PREVIOUS_SECRETS must be at least 16 characters/,
    )
  })

  it('reads the authentication throttle, account lock off unless asked for', () => {
    const base = { DATABASE_URL: 'postgres://x@h/db', MAILROOM_SECRET: 'n'.repeat(20) }
    expect(loadConfig(base).throttle).toEqual({
      maxFailuresPerLoginAndAddress: 5,
      maxFailuresPerAddress: 30,
      maxConcurrentChecks: 2,
      lockAttempts: 0,
      lockSeconds: 300,
    })
    const set = loadConfig({
      ...base,
      MAILROOM_AUTH_ADDRESS_LOGIN_FAILURES: '3',
      MAILROOM_AUTH_ADDRESS_FAILURES: '100',
      MAILROOM_AUTH_PASSWORD_CHECKS: '4',
      MAILROOM_AUTH_LOCK_ATTEMPTS: '5',
      MAILROOM_AUTH_LOCK_MINUTES: '15',
    })
    expect(set.throttle).toEqual({
      maxFailuresPerLoginAndAddress: 3,
      maxFailuresPerAddress: 100,
      maxConcurrentChecks: 4,
      lockAttempts: 5,
      lockSeconds: 900,
    })
    expect(() => loadConfig({ ...base, MAILROOM_AUTH_LOCK_ATTEMPTS: '-1' })).toThrow(
      /MAILROOM_AUTH_LOCK_ATTEMPTS must be an integer from 0/,
    )
  })

  it('rejects bad values with a clear message', async () => {
    const dataDir = await tempDir()
    expect(() => loadConfig({ MAILROOM_DATA_DIR: dataDir, PORT: 'eighty' })).toThrow(/PORT must be an integer/)
    expect(() => loadConfig({ MAILROOM_DATA_DIR: dataDir, MAILROOM_DEMO: 'maybe' })).toThrow(
      /MAILROOM_DEMO must be 1 or 0/,
    )
    expect(() => loadConfig({ MAILROOM_DATA_DIR: dataDir, MAILROOM_SECRET: 'short' })).toThrow(/at least 16/)
  })

  it('leaves CORS off unless MAILROOM_CORS_ORIGINS lists origins, and refuses lists a browser could abuse', async () => {
    const dataDir = await tempDir()
    const base = { MAILROOM_DATA_DIR: dataDir }
    expect(loadConfig(base).cors).toBeUndefined()
    expect(
      loadConfig({ ...base, MAILROOM_CORS_ORIGINS: 'https://portal.example.org, http://localhost:5173' }).cors,
    ).toEqual({
      origins: ['https://portal.example.org', 'http://localhost:5173'],
      credentials: false,
      maxAgeSeconds: 600,
    })
    expect(
      loadConfig({
        ...base,
        MAILROOM_CORS_ORIGINS: 'https://a.example.org',
        MAILROOM_CORS_CREDENTIALS: '1',
        MAILROOM_CORS_MAX_AGE: '60',
      }).cors,
    ).toEqual({
      origins: ['https://a.example.org'],
      credentials: true,
      maxAgeSeconds: 60,
    })
    expect(loadConfig({ ...base, MAILROOM_CORS_ORIGINS: '*' }).cors).toEqual({
      origins: '*',
      credentials: false,
      maxAgeSeconds: 600,
    })
    expect(() => loadConfig({ ...base, MAILROOM_CORS_ORIGINS: '*', MAILROOM_CORS_CREDENTIALS: '1' })).toThrow(
      'MAILROOM_CORS_ORIGINS: CORS origins "*" cannot be combined with credentials: list the allowed origins instead (or set MAILROOM_CORS_CREDENTIALS=0)',
    )
    expect(() => loadConfig({ ...base, MAILROOM_CORS_ORIGINS: 'https://a.example.org/app' })).toThrow(
      /MAILROOM_CORS_ORIGINS: CORS origin "https:\/\/a.example.org\/app" is not an origin/,
    )
    expect(() => loadConfig({ ...base, MAILROOM_CORS_CREDENTIALS: '1' })).toThrow(
      /MAILROOM_CORS_CREDENTIALS needs MAILROOM_CORS_ORIGINS/,
    )
  })

  it('bounds the time a request may take to arrive, with the headers bound inside the whole', async () => {
    const base = { MAILROOM_DATA_DIR: await tempDir() }
    expect(loadConfig(base).arrival).toEqual({ headersMs: 30_000, receiveMs: 300_000, bodyIdleMs: 30_000 })
    const set = {
      ...base,
      MAILROOM_HEADERS_TIMEOUT_MS: '5000',
      MAILROOM_RECEIVE_TIMEOUT_MS: '60000',
      MAILROOM_BODY_IDLE_TIMEOUT_MS: '0',
    }
    expect(loadConfig(set).arrival).toEqual({ headersMs: 5000, receiveMs: 60_000, bodyIdleMs: 0 })
    expect(() =>
      loadConfig({ ...base, MAILROOM_HEADERS_TIMEOUT_MS: '70000', MAILROOM_RECEIVE_TIMEOUT_MS: '60000' }),
    ).toThrow(
      'MAILROOM_HEADERS_TIMEOUT_MS (70000) must not exceed MAILROOM_RECEIVE_TIMEOUT_MS (60000): the headers are part of the request',
    )
    expect(() => loadConfig({ ...base, MAILROOM_HEADERS_TIMEOUT_MS: '0' })).toThrow(
      /MAILROOM_HEADERS_TIMEOUT_MS must be an integer from 1/,
    )
  })

  it('reads the proxies to trust as a hop count or a list of networks, off by default', async () => {
    const base = { MAILROOM_DATA_DIR: await tempDir() }
    expect(loadConfig(base)).toMatchObject({ trustProxy: 0, proxyHeader: 'x-forwarded-for' })
    expect(loadConfig({ ...base, MAILROOM_TRUST_PROXY: '0' }).trustProxy).toBe(0)
    expect(loadConfig({ ...base, MAILROOM_TRUST_PROXY: '2' }).trustProxy).toBe(2)
    expect(loadConfig({ ...base, MAILROOM_TRUST_PROXY: ' 127.0.0.1/32, 10.0.0.0/8,::1,loopback ' }).trustProxy).toEqual(
      ['127.0.0.1/32', '10.0.0.0/8', '::1', 'loopback'],
    )
    expect(loadConfig({ ...base, MAILROOM_PROXY_HEADER: 'Forwarded' }).proxyHeader).toBe('forwarded')
    for (const value of ['true', 'yes', '10.0.0.0/33', 'proxy.example', '10.0.0.0/8,nonsense', '-1'])
      expect(() => loadConfig({ ...base, MAILROOM_TRUST_PROXY: value }), value).toThrow(
        `MAILROOM_TRUST_PROXY must be a number of proxies in front (1 for one) or their addresses and networks (127.0.0.1/32,10.0.0.0/8), got "${value}"`,
      )
    expect(() => loadConfig({ ...base, MAILROOM_PROXY_HEADER: 'x-real-ip' })).toThrow(
      'MAILROOM_PROXY_HEADER must be x-forwarded-for or forwarded, got "x-real-ip"',
    )
  })

  it('reads the security headers: no HSTS unless asked, no-referrer and nosniff unless relaxed', async () => {
    const base = { MAILROOM_DATA_DIR: await tempDir() }
    expect(loadConfig(base).securityHeaders).toEqual({
      hstsMaxAgeSeconds: 0,
      referrerPolicy: 'no-referrer',
      noSniff: true,
      consoleFrameAncestors: [],
    })
    const relaxed = {
      ...base,
      MAILROOM_HSTS_MAX_AGE: '31536000',
      MAILROOM_REFERRER_POLICY: 'Same-Origin',
      MAILROOM_NOSNIFF: '0',
      MAILROOM_CONSOLE_FRAME_ANCESTORS: 'https://portal.example.org, http://intranet:8443',
    }
    expect(loadConfig(relaxed).securityHeaders).toEqual({
      hstsMaxAgeSeconds: 31_536_000,
      referrerPolicy: 'same-origin',
      noSniff: false,
      consoleFrameAncestors: ['https://portal.example.org', 'http://intranet:8443'],
    })
    expect(loadConfig({ ...base, MAILROOM_REFERRER_POLICY: 'off' }).securityHeaders.referrerPolicy).toBe(false)
    expect(() => loadConfig({ ...base, MAILROOM_REFERRER_POLICY: 'never' })).toThrow(
      /MAILROOM_REFERRER_POLICY must be off or one of no-referrer, /,
    )
    expect(() => loadConfig({ ...base, MAILROOM_HSTS_MAX_AGE: '-1' })).toThrow(
      /MAILROOM_HSTS_MAX_AGE must be an integer/,
    )
    expect(() =>
      loadConfig({ ...base, MAILROOM_CONSOLE_FRAME_ANCESTORS: "https://a.example; script-src 'unsafe-inline'" }),
    ).toThrow(/MAILROOM_CONSOLE_FRAME_ANCESTORS must list origins/)
  })
})
