import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type BrowserContext, type BrowserContextOptions, chromium, type LaunchOptions } from 'playwright-core'

/** Debian's Chromium (scripts/install-chromium.sh), or MAILROOM_CHROMIUM; playwright-core never downloads one. */
export const CHROMIUM_PATH = process.env.MAILROOM_CHROMIUM || '/usr/bin/chromium'

/** Why browser tests cannot run here, or null when they can. */
export function chromiumMissing(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null
  return `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (run \`bash scripts/install-chromium.sh\`, or set MAILROOM_CHROMIUM)`
}

/** A headless Chromium with a throw-away profile, and how to close both. */
export interface TestBrowser {
  readonly context: BrowserContext
  close(): Promise<void>
}

/** What a test may choose of the browser context (locale, viewport, downloads…); the binary and flags are fixed. */
export type ChromiumOptions = Omit<BrowserContextOptions & LaunchOptions, 'executablePath' | 'args'>

/** Debian's Chromium, headless and offline, on a fresh profile folder that `close` removes. */
export async function launchChromium(options: ChromiumOptions = {}): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'mailroom-chromium-'))
  // A persistent context is how playwright takes a profile directory of our own (--user-data-dir).
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    // Offline and quiet: no updates, sync, QUIC or first-run pages reaching out while tests run.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout: 60_000,
    ...options,
  })
  return {
    context,
    async close() {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    },
  }
}
