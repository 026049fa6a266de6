import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'

/** Where the tour's screenshots go (docs/web-client-tour.md shows them). */
const TOUR = fileURLToPath(new URL('../../../../docs/web-client/', import.meta.url))

/**
 * A step of the journey, shot for the tour when MAILROOM_WEB_CLIENT_SCREENSHOTS=1 asks for it (a run that only
 * tests leaves the committed pictures as they are). The viewport only, not the whole page: small files.
 */
export async function tourScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.MAILROOM_WEB_CLIENT_SCREENSHOTS !== '1') return
  mkdirSync(TOUR, { recursive: true })
  await page.screenshot({ path: join(TOUR, `${name}.png`) })
}
