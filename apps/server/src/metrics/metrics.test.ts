import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import parsePrometheusTextFormat from 'parse-prometheus-text-format'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDemoDatabase } from '../../test/demo-database.js'
import { loadConfig } from '../config.js'
import { type RunningServer, startServer } from '../serve.js'

/**
 * A served Mailroom is scraped after some traffic, and its /metrics text is read with a Prometheus
 * text-format parser (not with regular expressions of our own), so the assertions are on what a
 * Prometheus server would store.
 */
let running: RunningServer
let ownPort: RunningServer
const dataDirs: string[] = []
const drops: (() => Promise<void>)[] = []
let onPostgres = false

async function start(extra: Record<string, string>): Promise<RunningServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mailroom-metrics-'))
  dataDirs.push(dataDir)
  const database = await createDemoDatabase(dataDir)
  drops.push(database.drop)
  onPostgres = database.url !== undefined
  const env: Record<string, string> = {
    MAILROOM_DATA_DIR: dataDir,
    PORT: '0',
    MAILROOM_SECRET: 'metrics-test-secret-0123456789',
    MAILROOM_DEMO: '1',
    ...extra,
  }
  if (database.url) env.DATABASE_URL = database.url
  return startServer(loadConfig(env), pino({ level: 'silent' }))
}

beforeAll(async () => {
  running = await start({})
  // Its own port, on every address, readable from IPv6 loopback only: IPv4 clients (mapped) are refused.
  ownPort = await start({
    MAILROOM_METRICS_PORT: '0',
    MAILROOM_METRICS_HOST: '::',
    MAILROOM_METRICS_ALLOW: '::1/128, 10.0.0.0/8',
  })
}, 180_000)
afterAll(async () => {
  await running?.stop()
  await ownPort?.stop()
  for (const drop of drops) await drop()
  for (const dir of dataDirs) await rm(dir, { recursive: true, force: true })
})

const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` })

type Families = ReturnType<typeof parsePrometheusTextFormat>

/**
 * The scrape, parsed. The parser folds a labelled histogram into one sample without its labels, so the
 * histograms' TYPE lines are dropped first: their `_bucket`, `_sum` and `_count` series then parse as
 * families of their own with their labels, as Prometheus stores them.
 */
async function scrape(baseUrl: string): Promise<Families> {
  const response = await fetch(`${baseUrl}/metrics`)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
  const text = await response.text()
  const histograms = parsePrometheusTextFormat(text)
    .filter((family) => family.type === 'HISTOGRAM')
    .map((family) => family.name)
  expect(histograms).toEqual(
    expect.arrayContaining(['mailroom_http_request_duration_seconds', 'mailroom_conversion_duration_seconds']),
  )
  return parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''))
}

/** The value of one series, or undefined when the family or the series is absent. */
function seriesValue(families: Families, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = families.find((f) => f.name === name)
  const sample = family?.metrics.find((m) => Object.entries(labels).every(([key, value]) => m.labels?.[key] === value))
  if (!sample) return undefined
  return Number(sample.value ?? sample.count)
}

function labelValues(families: Families, name: string, label: string): string[] {
  return (families.find((f) => f.name === name)?.metrics ?? []).map((m) => m.labels?.[label] ?? '')
}

describe('GET /metrics', () => {
  it('counts requests by route template, method and status, with a latency histogram; never a raw path', async () => {
    for (const id of ['PJS', 'DGS', 'PJS'])
      expect((await fetch(`${running.url}/rest/entities/${id}`, { headers: basic('bbain:maarch') })).status).toBe(200)
    expect((await fetch(`${running.url}/rest/entities/PJS`, { headers: basic('bbain:not-the-password') })).status).toBe(
      401,
    )
    expect((await fetch(`${running.url}/no/such/path-4711`)).status).toBe(404)
    const families = await scrape(running.url)
    const entityRead = { route: '/rest/entities/:id', method: 'GET' }
    expect(seriesValue(families, 'mailroom_http_requests_total', { ...entityRead, status: '200' })).toBe(3)
    // Refused before its route ran, still counted under the route's template.
    expect(seriesValue(families, 'mailroom_http_requests_total', { ...entityRead, status: '401' })).toBe(1)
    expect(
      seriesValue(families, 'mailroom_http_requests_total', { route: 'unmatched', method: 'GET', status: '404' }),
    ).toBe(1)
    expect(
      seriesValue(families, 'mailroom_http_request_duration_seconds_count', { ...entityRead, status: '200' }),
    ).toBe(3)
    expect(
      seriesValue(families, 'mailroom_http_request_duration_seconds_bucket', {
        ...entityRead,
        status: '200',
        le: '+Inf',
      }),
    ).toBe(3)
    expect(
      seriesValue(families, 'mailroom_http_request_duration_seconds_sum', { ...entityRead, status: '200' }),
    ).toBeGreaterThan(0)
    const routes = labelValues(families, 'mailroom_http_requests_total', 'route')
    expect(routes.filter((route) => /PJS|DGS|4711/.test(route))).toEqual([])
  })

  it('counts authentication failures by method', async () => {
    const before =
      seriesValue(await scrape(running.url), 'mailroom_authentication_failures_total', { method: 'password' }) ?? 0
    await fetch(`${running.url}/rest/entities/PJS`, { headers: basic('ddur:wrong-password') })
    await fetch(`${running.url}/rest/entities/PJS`, { headers: { authorization: 'Bearer not.a.token' } })
    const after = await scrape(running.url)
    expect(seriesValue(after, 'mailroom_authentication_failures_total', { method: 'password' })).toBe(before + 1)
    expect(seriesValue(after, 'mailroom_authentication_failures_total', { method: 'token' })).toBe(1)
  })

  it('counts throttled authentications apart from failures', async () => {
    // Five wrong passwords for one login from one address: the sixth attempt from there is refused by the
    // throttle (429), not by the password check.
    const before =
      seriesValue(await scrape(running.url), 'mailroom_authentication_failures_total', { method: 'password' }) ?? 0
    const statuses: number[] = []
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await fetch(`${running.url}/rest/entities/PJS`, { headers: basic(`ppetit:wrong-password-${i}`) })).status,
      )
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    const families = await scrape(running.url)
    expect(seriesValue(families, 'mailroom_authentication_throttled_total', { scope: 'address' })).toBe(1)
    expect(seriesValue(families, 'mailroom_authentication_failures_total', { method: 'password' })).toBe(before + 5)
  })

  it('reads the documents stored after a create, the journal backlog and the pool (PostgreSQL only)', async () => {
    const before = await scrape(running.url)
    const text = 'Bonjour, métriques'
    const created = await fetch(`${running.url}/rest/resources`, {
      method: 'POST',
      headers: { ...basic('cchaplin:maarch'), 'content-type': 'application/json' },
      body: JSON.stringify({
        modelId: 1,
        status: 'NEW',
        subject: 'compté',
        format: 'txt',
        encodedFile: Buffer.from(text).toString('base64'),
      }),
    })
    expect(created.status).toBe(200)
    const after = await scrape(running.url)
    expect(seriesValue(after, 'mailroom_documents_stored')).toBe(
      (seriesValue(before, 'mailroom_documents_stored') ?? Number.NaN) + 1,
    )
    expect(seriesValue(after, 'mailroom_documents_stored_bytes')).toBe(
      (seriesValue(before, 'mailroom_documents_stored_bytes') ?? Number.NaN) + Buffer.byteLength(text),
    )
    expect(seriesValue(after, 'mailroom_statistics_up')).toBe(1)
    expect(seriesValue(after, 'mailroom_journal_pending_events')).toBeGreaterThanOrEqual(0)
    expect(seriesValue(after, 'mailroom_journal_seal_lag_seconds')).toBeGreaterThanOrEqual(0)
    expect(seriesValue(after, 'mailroom_conversion_queue_length')).toBe(0)
    expect(seriesValue(after, 'mailroom_libreoffice_restarts_total')).toBe(0)
    if (onPostgres) {
      expect(seriesValue(after, 'mailroom_db_pool_connections_idle')).toBeGreaterThanOrEqual(1)
      expect(seriesValue(after, 'mailroom_db_pool_waiting_requests')).toBe(0)
    } else {
      // PGlite is one in-process connection: no pool, no series.
      expect(after.map((family) => family.name).filter((name) => name.startsWith('mailroom_db_pool'))).toEqual([])
    }
    // Node's default process metrics.
    expect(seriesValue(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(seriesValue(after, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
  })

  it('counts conversions to PDF, with their duration', async () => {
    const list = await fetch(`${running.url}/rest/res/list`, {
      method: 'POST',
      headers: { ...basic('cchaplin:maarch'), 'content-type': 'application/json' },
      body: JSON.stringify({ select: 'res_id', clause: "subject = 'compté'" }),
    })
    const resId = ((await list.json()) as { resources: { res_id: number }[] }).resources[0]!.res_id
    expect(
      (await fetch(`${running.url}/rest/resources/${resId}/content`, { headers: basic('cchaplin:maarch') })).status,
    ).toBe(200)
    const families = await scrape(running.url)
    expect(seriesValue(families, 'mailroom_conversion_duration_seconds_count', { route: 'text', outcome: 'ok' })).toBe(
      1,
    )
    expect(seriesValue(families, 'mailroom_conversion_failures_total', { route: 'text' })).toBeUndefined()
  })

  it('needs no credentials and ignores wrong ones: it is never behind users’ Basic auth', async () => {
    const response = await fetch(`${running.url}/metrics`, { headers: basic('bbain:wrong') })
    expect(response.status).toBe(200)
  })
})

describe('metrics on a port of their own, restricted to networks', () => {
  it('leaves the API port without /metrics', async () => {
    const response = await fetch(`${ownPort.url}/metrics`)
    expect([response.status, await response.json()]).toEqual([404, { errors: 'Route not found' }])
  })

  it('serves an allowed address and refuses the others with 403', async () => {
    const port = new URL(ownPort.metricsUrl ?? '').port
    const allowed = await fetch(`http://[::1]:${port}/metrics`)
    expect(allowed.status).toBe(200)
    expect(parsePrometheusTextFormat(await allowed.text()).map((f) => f.name)).toContain('mailroom_http_requests_total')
    const refused = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect([refused.status, await refused.json()]).toEqual([403, { errors: 'Metrics are not served to this address' }])
    expect((await fetch(`http://[::1]:${port}/healthz`)).status).toBe(404)
  })
})
