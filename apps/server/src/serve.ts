import { existsSync } from 'node:fs'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createHttpApp, createHttpServer, type MetricsEndpoint } from '@mailroom/http-koa'
import { createMailroom, hasUsers, type Mailroom } from '@mailroom/mailroom'
import type { Logger } from 'pino'
import { documentStoreChoice, type ServerConfig } from './config.js'
import { createContentRuntime, loadContentSettings, loadConversionSettings } from './content-settings.js'
import { demoDecision } from './demo-policy.js'
import { databaseHeldError } from './embedded/database-held-error.js'
import { claimDatabaseLock, type HeldDatabaseLock } from './embedded/database-lock.js'
import { openOperatorChannel } from './embedded/operator-channel.js'
import { createMetricsServer } from './metrics/metrics-server.js'
import { addressFilter } from './metrics/metrics-settings.js'
import { createPrometheusMetrics } from './metrics/prometheus-metrics.js'

/** A running server and how to stop it gracefully. */
export interface RunningServer {
  readonly url: string
  /** The web console's address, when it is served. */
  readonly consoleUrl: string | null
  readonly server: Server
  readonly mailroom: Mailroom
  /** URL of the metrics' own port (MAILROOM_METRICS_PORT); undefined when they are on the server's port or off. */
  readonly metricsUrl?: string
  /** Stops accepting, finishes requests in flight, closes the database. */
  stop(): Promise<void>
}

/**
 * The embedded database's lock for a server: PGlite is one process's database, so a server holds it while it
 * runs (and commands send it their changes). Throws a DatabaseHeldError naming the process that holds it.
 */
async function holdEmbeddedDatabase(config: ServerConfig): Promise<HeldDatabaseLock | undefined> {
  if (config.database.kind !== 'pglite') return undefined
  const claim = await claimDatabaseLock(config.dataDir, 'serve')
  if (!claim.taken) throw databaseHeldError('serve', claim.holder, config.dataDir)
  return claim.lock
}

/** Opens Mailroom (migrations, demo data when due) and serves it over HTTP. */
export async function startServer(config: ServerConfig, log: Logger): Promise<RunningServer> {
  const lock = await holdEmbeddedDatabase(config)
  try {
    return await serveHolding(config, log, lock)
  } catch (error) {
    lock?.release()
    throw error
  }
}

async function serveHolding(
  config: ServerConfig,
  log: Logger,
  lock: HeldDatabaseLock | undefined,
): Promise<RunningServer> {
  const contentSettings = loadContentSettings()
  const conversionSettings = loadConversionSettings()
  // The statistics read the Mailroom built below: the metrics exist first so every part can report to them.
  let statisticsOf: Mailroom | undefined
  const metrics = config.metrics.enabled
    ? createPrometheusMetrics(
        () => (statisticsOf ? statisticsOf.statistics() : Promise.reject(new Error('not started'))),
        {
          databasePool: config.database.kind === 'postgres',
        },
      )
    : undefined
  // Without metrics nothing observes: no per-request route lookup, no counters.
  const observer = metrics?.observer
  const conversion = createContentRuntime(observer, conversionSettings)
  const mailroom = await createMailroom({
    database: config.database,
    ...documentStoreChoice(config),
    secret: config.secret,
    previousSecrets: config.previousSecrets,
    passwordPolicy: config.passwordPolicy,
    converter: conversion.converter,
    content: contentSettings,
    search: { maxResults: config.searchMaxResults },
    fulltext: { ...config.fulltext, ...(metrics ? { observer: metrics.fullTextObserver } : {}) },
    throttle: config.throttle,
    ...(config.directory ? { directory: config.directory } : {}),
    ...(config.oidc ? { oidc: config.oidc } : {}),
    ...(observer ? { observer } : {}),
    logger: log,
  }).catch(async (error: unknown) => {
    await conversion.close()
    throw error
  })
  statisticsOf = mailroom
  if (!conversion.office)
    log.warn('LibreOffice not found: office documents will answer Conversion error until it is installed')
  try {
    const demo = demoDecision({ demo: config.demo, host: config.host, empty: !(await hasUsers(mailroom.db)) })
    if (demo.warning) log.warn(demo.warning)
    if (demo.load && (await mailroom.loadDemo())) log.info('demo dataset loaded')
    const consoleDir =
      config.consoleDir !== null && existsSync(join(config.consoleDir, 'index.html')) ? config.consoleDir : undefined
    if (config.consoleDir !== null && consoleDir === undefined)
      log.warn(
        `web console not served: no index.html in ${config.consoleDir} (build it with pnpm build, or set MAILROOM_CONSOLE_DIR)`,
      )
    const webClientDir = config.webClient.clientDir
    if (webClientDir !== undefined && !existsSync(join(webClientDir, 'index.html')))
      log.warn(
        `web client: no index.html in ${webClientDir} (MAILROOM_WEB_CLIENT_DIR): /dist/ answers 404 until it has one`,
      )
    const metricsEndpoint: MetricsEndpoint | undefined = metrics && {
      render: metrics.render,
      allows: addressFilter(config.metrics.allow),
    }
    let shuttingDown = false
    const app = createHttpApp({
      services: mailroom,
      logger: log,
      bodyLimitBytes: config.bodyLimitBytes,
      trustProxy: config.trustProxy,
      proxyHeader: config.proxyHeader,
      ...(consoleDir === undefined ? {} : { consoleDir }),
      webClient: config.webClient,
      ...(observer ? { observer } : {}),
      lifecycle: { shuttingDown: () => shuttingDown },
      ...(metricsEndpoint && config.metrics.port === null ? { metrics: metricsEndpoint } : {}),
      bodyIdleTimeoutMs: config.arrival.bodyIdleMs,
      ...(config.cors ? { cors: config.cors } : {}),
      securityHeaders: config.securityHeaders,
    })
    const server = createHttpServer(app, {
      headersTimeoutMs: config.arrival.headersMs,
      requestTimeoutMs: config.arrival.receiveMs,
    })
    const url = await listen(server, config.port, config.host)
    const metricsServer =
      metricsEndpoint && config.metrics.port !== null ? createMetricsServer(metricsEndpoint) : undefined
    const metricsUrl =
      metricsServer &&
      (await listen(metricsServer, config.metrics.port ?? 0, config.metrics.host ?? config.host).catch(
        async (error: unknown) => {
          await new Promise((resolve) => server.close(resolve))
          throw error
        },
      ))
    const operatorChannel = lock
      ? await openOperatorChannel(config.dataDir, mailroom, log).catch(async (error: unknown) => {
          metricsServer?.close()
          await new Promise((resolve) => server.close(resolve))
          throw error
        })
      : null
    lock?.update({ url, operatorSocket: operatorChannel?.socket ?? null })
    let stopping: Promise<void> | undefined
    return {
      url,
      consoleUrl: consoleDir === undefined ? null : `${url}/console/`,
      server,
      mailroom,
      ...(metricsUrl ? { metricsUrl } : {}),
      stop() {
        stopping ??= (async () => {
          // From now on /readyz answers 503, so balancers stop sending new work while requests finish.
          shuttingDown = true
          metricsServer?.close()
          metricsServer?.closeAllConnections()
          await new Promise<void>((resolve) => {
            server.close(() => resolve())
            // Keep-alive connections become idle once their response is sent: close them as they do,
            // and cut whatever still hangs after the grace period.
            const sweep = setInterval(() => server.closeIdleConnections(), 50)
            const deadline = setTimeout(() => server.closeAllConnections(), 30_000)
            server.once('close', () => {
              clearInterval(sweep)
              clearTimeout(deadline)
            })
            server.closeIdleConnections()
          })
          // Commands in flight finish; those that come later find the lock free and open the database.
          await operatorChannel?.close()
          await mailroom.close()
          await conversion.close()
          lock?.release()
        })()
        return stopping
      },
    }
  } catch (error) {
    await mailroom.close().catch(() => {})
    await conversion.close().catch(() => {})
    throw error
  }
}

/** Listens and resolves with the URL actually bound (port 0 picks a free one). */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => resolve())
  })
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return `http://${shown}:${address.port}`
}
