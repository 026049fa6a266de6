import { existsSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { chromiumMissing, launchChromium, type TestBrowser } from '@mailroom/testing'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../../packages/testing/src/fixtures/files/index.js'
import { loadConfig } from '../../src/config.js'
import { type RunningServer, startServer } from '../../src/serve.js'
import { embeddedDemoDataDir } from '../demo-database.js'
import { type PortalServer, startPortal } from './portal-page.js'

const SDK_BUNDLE = fileURLToPath(new URL('../../../../packages/sdk/dist/index.js', import.meta.url))
const missing = chromiumMissing()
if (missing) console.warn(missing)

describe.skipIf(missing !== null)('a page of another origin, in Chromium, through the SDK', () => {
  let dataDir: string
  let server: RunningServer
  let listed: PortalServer
  let unlisted: PortalServer
  let browser: TestBrowser
  beforeAll(async () => {
    if (!existsSync(SDK_BUNDLE))
      throw new Error(
        `${SDK_BUNDLE} is missing: build the SDK first (pnpm exec turbo run build --filter=@mailroom/sdk)`,
      )
    dataDir = await embeddedDemoDataDir('mailroom-cors-browser-')
    const page = {
      apiUrl: () => server.url,
      sdkBundle: SDK_BUNDLE,
      encodedFile: Buffer.from(makePdf({ pages: 1 })).toString('base64'),
    }
    listed = await startPortal(page)
    unlisted = await startPortal(page)
    const env = { MAILROOM_DATA_DIR: dataDir, PORT: '0', MAILROOM_CORS_ORIGINS: listed.origin }
    server = await startServer(loadConfig(env), pino({ level: 'silent' }))
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    await listed?.close()
    await unlisted?.close()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  async function run(origin: string) {
    const page = await browser.context.newPage()
    try {
      await page.goto(`${origin}/`)
      await page.locator('#status:not(:empty)').waitFor({ timeout: 60_000 })
      const text = async (id: string) => (await page.textContent(`#${id}`)) ?? ''
      return {
        token: await text('token'),
        created: await text('created'),
        found: await text('found'),
        pdf: await text('pdf'),
        exposed: await text('exposed'),
        status: await text('status'),
      }
    } finally {
      await page.close()
    }
  }

  it('signs in, creates a record with a file, finds it and gets its PDF as a Blob from a listed origin', async () => {
    const shown = await run(listed.origin)
    expect(shown.status).toBe('done')
    expect(shown.token).toBe('received')
    expect(shown.created).toMatch(/^\d+$/)
    expect(shown.found).toBe(`Portal letter from another origin #${shown.created}`)
    expect(shown.pdf).toBe('application/pdf %PDF- large')
    expect(shown.exposed).toBe('X-Request-Id Content-Disposition')
  })

  it('is blocked by the browser from an origin not listed: the page shows the failure, nothing was done', async () => {
    const shown = await run(unlisted.origin)
    expect(shown.status).toMatch(/^failed: MailroomNetworkError: /)
    expect(shown.token).toBe('')
    const check = await fetch(`${server.url}/rest/authenticate`, {
      method: 'POST',
      headers: { origin: unlisted.origin, 'content-type': 'application/json' },
      body: '{"login":"bbain","password":"maarch"}',
    })
    expect([check.status, check.headers.get('access-control-allow-origin')]).toEqual([204, null])
  })
})
