import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createHttpApp, createHttpServer } from '@mailroom/http-koa'
import { createMailroom, hasUsers, type Mailroom } from '@mailroom/mailroom'
import type { Logger } from 'pino'
import type { ServerConfig } from './config.js'
import { createContentRuntime, loadContentSettings } from './content-settings.js'
import { demoDecision } from './demo-policy.js'

/** A running server and how to stop it gracefully. */
export interface RunningServer {
  readonly url: string
  readonly server: Server
  readonly mailroom: Mailroom
  /** Stops accepting, finishes requests in flight, closes the database. */
  stop(): Promise<void>
}

/** Opens Mailroom (migrations, demo data when due) and serves it over HTTP. */
export async function startServer(config: ServerConfig, log: Logger): Promise<RunningServer> {
  const contentSettings = loadContentSettings()
  const conversion = createContentRuntime()
  const mailroom = await createMailroom({
    database: config.database,
    docserverDir: config.docserverDir,
    secret: config.secret,
    previousSecrets: config.previousSecrets,
    passwordPolicy: config.passwordPolicy,
    converter: conversion.converter,
    content: contentSettings,
    search: { maxResults: config.searchMaxResults },
    logger: log,
  }).catch(async (error: unknown) => {
    await conversion.close()
    throw error
  })
  if (!conversion.office) log.warn('LibreOffice not found: office documents will answer Conversion error until it is installed')
  try {
    const demo = demoDecision({ demo: config.demo, host: config.host, empty: !(await hasUsers(mailroom.db)) })
    if (demo.warning) log.warn(demo.warning)
    if (demo.load && (await mailroom.loadDemo())) log.info('demo dataset loaded')
    const app = createHttpApp({
      services: mailroom,
      logger: log,
      bodyLimitBytes: config.bodyLimitBytes,
      bodyIdleTimeoutMs: config.arrival.bodyIdleMs,
      trustProxy: config.trustProxy,
      ...(config.cors ? { cors: config.cors } : {}),
    })
    const server = createHttpServer(app, { headersTimeoutMs: config.arrival.headersMs, requestTimeoutMs: config.arrival.receiveMs })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(config.port, config.host, () => resolve())
    })
    const address = server.address() as AddressInfo
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    const url = `http://${host}:${address.port}`
    let stopping: Promise<void> | undefined
    return {
      url,
      server,
      mailroom,
      stop() {
        stopping ??= (async () => {
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
          await mailroom.close()
          await conversion.close()
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
