import { mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { CHROMIUM_PATH, chromiumMissing, launchChromium, type TestBrowser } from '@mailroom/testing'
import type { Page } from 'playwright-core'
import { PNG } from 'pngjs'
import { expect } from 'vitest'

/** True when the browser tests cannot run and MAILROOM_SKIP_BROWSER_TESTS=1 says to skip them. */
export function skipBrowserTests(): boolean {
  const missing = chromiumMissing()
  if (missing === null) return false
  if (process.env.MAILROOM_SKIP_BROWSER_TESTS === '1') return true
  throw new Error(
    `no browser at ${CHROMIUM_PATH}: run bash scripts/install-chromium.sh (or set MAILROOM_SKIP_BROWSER_TESTS=1)`,
  )
}

/** One browser for the whole suite, on a fresh profile folder (thrown away by close). */
export type Browser = TestBrowser

export async function launchBrowser(options: { locale?: string } = {}): Promise<Browser> {
  const browser = await launchChromium({
    locale: options.locale ?? 'en-GB',
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  })
  // Fail with the waited-for locator's name well before the test's own timeout.
  browser.context.setDefaultTimeout(60_000)
  return browser
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly help: string
  readonly nodes: readonly { readonly target: readonly string[] }[]
}

/**
 * Runs axe-core in the page (its source evaluated through the debugging protocol, which the page's
 * Content-Security-Policy does not block) and fails on any serious or critical violation.
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${axeSource}\n;undefined`)
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }
    ).axe
    const result = await axe.run(document, { resultTypes: ['violations'] })
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }))
  })
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(
    serious.map(
      (v) => `${where}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    ),
  ).toEqual([])
}

/**
 * Every Content-Security-Policy violation in the browser's pages and their workers, as it happens: Chromium's own
 * console report ("Refused to …") and the page's securitypolicyviolation event (added through the debugging
 * protocol, which the policy does not govern). The console must work under its policy without one.
 */
export function recordCspViolations(browser: Browser): string[] {
  const violations: string[] = []
  browser.context.on('console', (message) => {
    const text = message.text()
    if (/Content Security Policy|securitypolicyviolation/.test(text)) violations.push(text)
  })
  void browser.context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`securitypolicyviolation: ${event.effectiveDirective} ${event.blockedURI} at ${event.sourceFile}`)
    })
  })
  return violations
}

/** Pixels of a PNG darker than near-white: ink on the page. */
export function inkedPixels(png: Buffer): { readonly inked: number; readonly total: number } {
  const image = PNG.sync.read(png)
  let inked = 0
  for (let i = 0; i < image.data.length; i += 4) {
    if (image.data[i]! < 200 || image.data[i + 1]! < 200 || image.data[i + 2]! < 200) inked++
  }
  return { inked, total: image.width * image.height }
}

/** Where the screenshots linked from the docs go, when MAILROOM_CONSOLE_SCREENSHOTS=1 asks for them. */
const SCREENSHOTS = new URL('../../../docs/console/', import.meta.url).pathname

export async function documentScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.MAILROOM_CONSOLE_SCREENSHOTS !== '1') return
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
}
