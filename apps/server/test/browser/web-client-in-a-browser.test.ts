import { readFileSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { chromiumMissing, launchChromium, type TestBrowser } from '@mailroom/testing'
import { pino } from 'pino'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { type RunningServer, startServer } from '../../src/serve.js'
import { embeddedDemoDataDir } from '../demo-database.js'
import { webClientMaterial } from './web-client-material.js'

const missing = chromiumMissing()
if (missing) console.warn(missing)
const material = webClientMaterial()

/** What a page did that the test asserts on: CSP violations, Basic challenges, the /rest calls and their answers. */
interface PageWatch {
  readonly violations: string[]
  readonly basicChallenges: string[]
  readonly rest: { method: string; path: string; status: number }[]
}

function watch(page: Page): PageWatch {
  const watched: PageWatch = { violations: [], basicChallenges: [], rest: [] }
  page.on('console', (message) => {
    const text = message.text()
    if (/Content Security Policy|securitypolicyviolation/.test(text)) watched.violations.push(text)
  })
  page.on('response', (response) => {
    const url = new URL(response.url())
    const challenge = response.headers()['www-authenticate'] ?? ''
    if (/^basic/i.test(challenge)) watched.basicChallenges.push(url.pathname)
    if (url.pathname.startsWith('/rest/'))
      watched.rest.push({ method: response.request().method(), path: url.pathname, status: response.status() })
  })
  return watched
}

describe.skipIf(missing !== null || material === null)(
  "Maarch 20.10's web client served by Mailroom, in Chromium",
  () => {
    let dataDir: string
    let server: RunningServer
    let browser: TestBrowser
    const lang = material
      ? (JSON.parse(readFileSync(join(material.lang, 'lang-fr.json'), 'utf8')) as Record<string, string>)
      : {}

    beforeAll(async () => {
      dataDir = await embeddedDemoDataDir('mailroom-web-client-browser-')
      const env = {
        MAILROOM_DATA_DIR: dataDir,
        PORT: '0',
        MAILROOM_WEB_CLIENT_DIR: material!.dist,
        MAILROOM_WEB_CLIENT_LANG_DIR: material!.lang,
      }
      server = await startServer(loadConfig(env), pino({ level: 'silent' }))
      browser = await launchChromium({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } })
      browser.context.setDefaultTimeout(60_000)
      void browser.context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `securitypolicyviolation: ${event.effectiveDirective} ${event.blockedURI} at ${event.sourceFile}`,
          )
        })
      })
    }, 120_000)
    afterAll(async () => {
      await browser?.close()
      await server?.stop()
      if (dataDir) await rm(dataDir, { recursive: true, force: true })
    })

    it('shows its sign-in page, labelled from the language file, without a password box of the browser', async () => {
      const page = await browser.context.newPage()
      const watched = watch(page)
      try {
        await page.goto(`${server.url}/dist/index.html`)
        await page.waitForURL(/#\/login/)
        // The labels are the language file's (the client has none of its own), the message the sign-in parameter's.
        await page.getByPlaceholder(lang.id!).waitFor()
        await page.getByPlaceholder(lang.password!).waitFor()
        await page.getByRole('button', { name: lang.LOGIN! }).waitFor()
        await page.getByText(lang.forgotPassword!).waitFor()
        await page.getByText('Découvrez votre application via').waitFor()
        expect(watched.basicChallenges).toEqual([])
        expect(watched.violations).toEqual([])
        expect(watched.rest.filter((call) => call.status >= 400)).toEqual([])
        // A route that needs a session, asked by the page without one: refused, and challenged with Bearer.
        const refused = await page.evaluate(async () => {
          const answer = await fetch('../rest/pinnedFolders')
          return [answer.status, answer.headers.get('www-authenticate')]
        })
        expect(refused).toEqual([401, 'Bearer realm="mailroom"'])
      } finally {
        await page.close()
      }
    })

    it('signs bbain in and reaches the home route, showing their name, with no 401 loop', async () => {
      const page = await browser.context.newPage()
      const watched = watch(page)
      try {
        await page.goto(`${server.url}/dist/index.html#/login`)
        await page.getByPlaceholder(lang.id!).fill('bbain')
        await page.getByPlaceholder(lang.password!).fill('maarch')
        await page.getByRole('button', { name: lang.LOGIN! }).click()
        await page.waitForURL(/#\/home/)
        // The header shows the signed-in user's name (from the profile and the token's `user`).
        await page.getByText('Barbara').first().waitFor()
        await page.getByText('BAIN').first().waitFor()
        // The token the client keeps names the user as it reads it (user.id).
        const token = await page.evaluate(
          () => Object.entries(localStorage).find(([key]) => key.startsWith('MaarchCourrierToken_'))?.[1],
        )
        expect(JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString()).user).toMatchObject({
          id: 3,
          login: 'bbain',
          firstname: 'Barbara',
        })
        expect(watched.basicChallenges).toEqual([])
        expect(watched.violations).toEqual([])
        // Signed in, nothing is refused: no 401 sends the client into refreshing and signing out.
        expect(watched.rest.filter((call) => call.status === 401)).toEqual([])
        expect(watched.rest).toContainEqual({ method: 'POST', path: '/rest/authenticate', status: 204 })
        expect(watched.rest).toContainEqual({ method: 'GET', path: '/rest/currentUser/profile', status: 200 })
        expect(watched.rest).toContainEqual({ method: 'GET', path: '/rest/pinnedFolders', status: 200 })
      } finally {
        await page.close()
      }
    })
  },
)
