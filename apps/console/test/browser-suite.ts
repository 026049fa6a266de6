import type { TestServer } from '@mailroom/testing'
import { afterAll, beforeAll } from 'vitest'
import { type Browser, launchBrowser, recordCspViolations, skipBrowserTests } from './browser.js'
import { type SeededRecords, startConsoleServer } from './console-server.js'

/** What a file of browser flows shares: its test server, the records seeded, one Chromium, its CSP violations. */
export interface BrowserSuite {
  server: TestServer
  records: SeededRecords
  browser: Browser
  cspViolations: string[]
}

/**
 * Starts, before the file's tests, a console server (then `seed` on it) and one Chromium; closes both after.
 * `skip` says the tests cannot run (no browser, and MAILROOM_SKIP_BROWSER_TESTS=1).
 */
export function browserSuite(seed: (server: TestServer) => Promise<void> = async () => {}): {
  readonly skip: boolean
  readonly suite: BrowserSuite
} {
  const skip = skipBrowserTests()
  const suite = {} as BrowserSuite
  beforeAll(async () => {
    if (skip) return
    const started = await startConsoleServer()
    suite.server = started.server
    suite.records = started.records
    await seed(suite.server)
    suite.browser = await launchBrowser()
    suite.cspViolations = recordCspViolations(suite.browser)
  }, 120_000)
  afterAll(async () => {
    await suite.browser?.close()
    await suite.server?.close()
  })
  return { skip, suite }
}
