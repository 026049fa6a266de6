import type { MailroomObserver, OperationalStatistics } from '@mailroom/core'
import type { FullTextObserver } from '@mailroom/mailroom'
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client'

/** The server's metrics: what Mailroom reports as it works, and the readings taken at each scrape. */
export interface PrometheusMetrics {
  /** Given to createMailroom, the HTTP app and the converters: they call it, it counts. */
  readonly observer: MailroomObserver
  /** Given to createMailroom's full-text queue: each extraction finished, by outcome and method. */
  readonly fullTextObserver: FullTextObserver
  /** The metrics in Prometheus' text format, readings refreshed. */
  render(): Promise<{ contentType: string; body: string }>
}

/** Request latency buckets, seconds: from a cached entity read to a large upload or a long conversion. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120]
/** Conversion buckets, seconds: in-process images and text take milliseconds, LibreOffice seconds. */
const CONVERSION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60]
/** Extraction buckets, seconds: a text layer takes milliseconds, OCR seconds per page. */
const EXTRACTION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]

/**
 * Builds the registry. `statistics` is read once per scrape (one query); when it fails (database down) its
 * gauges are left out of that scrape and `mailroom_statistics_up` says 0, rather than repeating old values.
 */
export function createPrometheusMetrics(
  statistics: () => Promise<OperationalStatistics>,
  options: { databasePool: boolean },
): PrometheusMetrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const registers = [registry]

  const requests = new Counter({
    name: 'mailroom_http_requests_total',
    help: 'HTTP requests answered, by route template (unmatched: no route), method and status',
    labelNames: ['route', 'method', 'status'] as const,
    registers,
  })
  const requestSeconds = new Histogram({
    name: 'mailroom_http_request_duration_seconds',
    help: 'Time from a request received to its answer, by route template, method and status',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers,
  })
  const authFailures = new Counter({
    name: 'mailroom_authentication_failures_total',
    help: 'Authentications refused for wrong, unknown, expired or revoked credentials, by method (password, token, refresh)',
    labelNames: ['method'] as const,
    registers,
  })
  const authThrottled = new Counter({
    name: 'mailroom_authentication_throttled_total',
    help: 'Authentications refused because the account or the address is locked after repeated failures',
    labelNames: ['scope'] as const,
    registers,
  })
  const conversionQueue = new Gauge({
    name: 'mailroom_conversion_queue_length',
    help: 'Conversions to PDF running or waiting for their turn',
    registers,
  })
  const conversionSeconds = new Histogram({
    name: 'mailroom_conversion_duration_seconds',
    help: 'Conversions to PDF, waiting included, by route (image, text, office) and outcome (ok, failed)',
    labelNames: ['route', 'outcome'] as const,
    buckets: CONVERSION_BUCKETS,
    registers,
  })
  const conversionFailures = new Counter({
    name: 'mailroom_conversion_failures_total',
    help: 'Conversions to PDF that failed, by route',
    labelNames: ['route'] as const,
    registers,
  })
  const libreOfficeRestarts = new Counter({
    name: 'mailroom_libreoffice_restarts_total',
    help: 'Times the warm LibreOffice was started again after it died, hung or failed a conversion',
    registers,
  })
  const statisticsUp = new Gauge({
    name: 'mailroom_statistics_up',
    help: '1 when the readings below could be taken at this scrape, else 0',
    registers,
  })
  // Embedded PGlite is one in-process connection: no pool, so these are not registered at all there.
  const poolRegisters = options.databasePool ? registers : []
  const poolInUse = new Gauge({
    name: 'mailroom_db_pool_connections_in_use',
    help: 'PostgreSQL connections checked out',
    registers: poolRegisters,
  })
  const poolIdle = new Gauge({
    name: 'mailroom_db_pool_connections_idle',
    help: 'PostgreSQL connections open and idle',
    registers: poolRegisters,
  })
  const poolWaiting = new Gauge({
    name: 'mailroom_db_pool_waiting_requests',
    help: 'Queries waiting for a PostgreSQL connection',
    registers: poolRegisters,
  })
  const journalPending = new Gauge({
    name: 'mailroom_journal_pending_events',
    help: 'Digital-safe journal events committed but not yet sealed into their hash chain',
    registers,
  })
  const sealLag = new Gauge({
    name: 'mailroom_journal_seal_lag_seconds',
    help: 'Age of the oldest journal event not yet sealed (0 when none)',
    registers,
  })
  const documents = new Gauge({
    name: 'mailroom_documents_stored',
    help: 'Files the database references: records’ files, versions and renditions',
    registers,
  })
  const documentBytes = new Gauge({
    name: 'mailroom_documents_stored_bytes',
    help: 'Total size of those files, bytes',
    registers,
  })
  const fullTextJobs = new Gauge({
    name: 'mailroom_fulltext_jobs',
    help: 'Files of the full-text queue (every server), by state: pending, running, failed (failed for good)',
    labelNames: ['state'] as const,
    registers,
  })
  const fullTextLag = new Gauge({
    name: 'mailroom_fulltext_lag_seconds',
    help: 'Age of the oldest file waiting for its text to be extracted (0 when none)',
    registers,
  })
  const extractions = new Counter({
    name: 'mailroom_fulltext_extractions_total',
    help: 'Extractions this server finished, by outcome (indexed, retry, failed, lost) and method (plain, text-layer, ocr, mixed, none)',
    labelNames: ['outcome', 'method'] as const,
    registers,
  })
  const extractionSeconds = new Histogram({
    name: 'mailroom_fulltext_extraction_duration_seconds',
    help: 'Time to extract and index one file on this server, by outcome',
    labelNames: ['outcome'] as const,
    buckets: EXTRACTION_BUCKETS,
    registers,
  })
  const readings = [
    poolInUse,
    poolIdle,
    poolWaiting,
    journalPending,
    sealLag,
    documents,
    documentBytes,
    fullTextJobs,
    fullTextLag,
  ]

  async function refreshReadings(): Promise<void> {
    for (const gauge of readings) gauge.reset()
    try {
      const s = await statistics()
      if (s.databasePool) {
        poolInUse.set(s.databasePool.inUse)
        poolIdle.set(s.databasePool.idle)
        poolWaiting.set(s.databasePool.waiting)
      }
      journalPending.set(s.journal.pendingEvents)
      sealLag.set(s.journal.oldestPendingSeconds)
      documents.set(s.documents.count)
      documentBytes.set(s.documents.bytes)
      fullTextJobs.set({ state: 'pending' }, s.fulltext.pending)
      fullTextJobs.set({ state: 'running' }, s.fulltext.running)
      fullTextJobs.set({ state: 'failed' }, s.fulltext.failed)
      fullTextLag.set(s.fulltext.oldestPendingSeconds)
      statisticsUp.set(1)
    } catch {
      statisticsUp.set(0)
    }
  }

  const observer: MailroomObserver = {
    requestFinished({ route, method, status, seconds }) {
      const labels = { route, method, status: String(status) }
      requests.inc(labels)
      requestSeconds.observe(labels, seconds)
    },
    authenticationFailed: (method) => authFailures.inc({ method }),
    authenticationThrottled: (scope) => authThrottled.inc({ scope }),
    conversionStarted(route) {
      conversionQueue.inc()
      const stop = conversionSeconds.startTimer({ route })
      return (outcome) => {
        conversionQueue.dec()
        stop({ outcome })
        if (outcome === 'failed') conversionFailures.inc({ route })
      }
    },
    libreOfficeRestarted: () => libreOfficeRestarts.inc(),
  }

  const fullTextObserver: FullTextObserver = {
    jobFinished(outcome, method, seconds) {
      extractions.inc({ outcome, method })
      extractionSeconds.observe({ outcome }, seconds)
    },
  }

  return {
    observer,
    fullTextObserver,
    async render() {
      await refreshReadings()
      return { contentType: registry.contentType, body: await registry.metrics() }
    },
  }
}
