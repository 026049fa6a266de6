import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  chromiumMissing,
  demoAuth,
  launchChromium,
  startTestServer,
  type TestBrowser,
  type TestServer,
} from '@mailroom/testing'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../../packages/testing/src/fixtures/files/index.js'
import { addArrivalModelFields } from './web-client-journey-data.js'
import { webClientMaterial } from './web-client-material.js'

// Maarch 20.10's own client renders some server text as HTML (`[innerHTML]`): in a basket's list, the display
// values (a sender's name) and, in its side panel, the letter's chrono and subject; elsewhere the same text as
// text. A letter whose subject, sender and note are markup must show, in every place, exactly what was written,
// and never become markup: no element of it in the page. Runs in the PGlite and the PostgreSQL projects.

const missing = chromiumMissing()
if (missing) console.warn(missing)
const material = webClientMaterial()

/**
 * Markup a capture tool or a clerk may write (`mk` marks its elements, were any made); `&amp;` is text that only
 * looks like a character reference. The subject fits the 50 characters the side panel shows of it.
 */
const SUBJECT = '<b class=mk>Zorglub</b> <img src=x> &amp;'
const SENDER = '<b class=mk>Dupont</b> & Fils'
const NOTE = '<b class=mk>Rappeler</b> <img src=x class=mk> demain'

/** What a page shows, without the invisible word joiners the server adds where text would read as markup. */
const shown = (text: string | null) => (text ?? '').replaceAll('\u2060', '').replace(/\s+/g, ' ').trim()

describe.skipIf(missing !== null || material === null)(
  "Maarch 20.10's web client shows markup that callers write as text",
  () => {
    let s: TestServer
    let browser: TestBrowser
    let page: Page
    let resId: number
    const lang = material
      ? (JSON.parse(readFileSync(join(material.lang, 'lang-fr.json'), 'utf8')) as Record<string, string>)
      : {}

    beforeAll(async () => {
      s = await startTestServer({ http: { webClient: { clientDir: material!.dist, languagesDir: material!.lang } } })
      const contact = await s.call('POST', '/rest/contacts', { auth: demoAuth('cchaplin'), body: { lastname: SENDER } })
      expect(contact.status, contact.text).toBe(200)
      const letter = await s.call('POST', '/rest/resources', {
        auth: demoAuth('cchaplin'),
        body: {
          modelId: 1,
          status: 'NEW',
          doctype: 103,
          subject: SUBJECT,
          destination: 6,
          chrono: true,
          senders: [{ id: contact.json.id, type: 'contact' }],
          encodedFile: Buffer.from(makePdf()).toString('base64'),
          format: 'pdf',
          diffusionList: [{ id: 3, type: 'user', mode: 'dest' }],
        },
      })
      expect(letter.status, letter.text).toBe(200)
      resId = letter.json.resId
      const note = await s.call('POST', '/rest/notes', { auth: demoAuth('bbain'), body: { resId, value: NOTE } })
      expect(note.status, note.text).toBe(200)
      await addArrivalModelFields(s.mailroom.db)
      browser = await launchChromium({ locale: 'fr-FR', viewport: { width: 1280, height: 800 } })
      browser.context.setDefaultTimeout(30_000)
      page = await browser.context.newPage()
    }, 180_000)

    afterAll(async () => {
      await browser?.close()
      await s?.close()
    })

    /** No element the caller's text carries is in the page: it was shown as text everywhere. */
    async function expectNoMarkupOfTheirs(): Promise<void> {
      expect(await page.locator('.mk, img[src="x"]').count()).toBe(0)
    }

    /** A locator's text, as shown. */
    const textOf = async (locator: Locator) => shown(await locator.textContent())

    it("bbain's basket lists the letter: its subject and its sender as written", async () => {
      await page.goto(`${s.baseUrl}/dist/index.html`)
      await page.getByPlaceholder(lang.id!).fill('bbain')
      await page.getByPlaceholder(lang.password!).fill('maarch')
      await page.getByRole('button', { name: lang.LOGIN! }).click()
      await page.waitForURL(/#\/home/)
      await page.locator('.mat-list-item, a').filter({ hasText: 'Courriers à traiter' }).last().click()
      await page.waitForURL(/#\/basketList\//)
      const row = page.locator('.mat-row').filter({ hasText: 'Zorglub' })
      await row.waitFor()
      const text = await textOf(row)
      expect(text).toContain(SUBJECT)
      expect(text).toContain(SENDER)
      await expectNoMarkupOfTheirs()
    })

    it('its side panel shows the chrono and subject, and the note, as written', async () => {
      const row = page.locator('.mat-row').filter({ hasText: 'Zorglub' })
      await row.locator(`button[title="${lang.notes}"]`).click()
      const panel = page.locator('app-panel-list')
      await panel.locator('app-notes-list').getByText('demain').waitFor()
      const chrono = (await s.call('GET', `/rest/resources/${resId}?light=true`, { auth: demoAuth('bbain') })).json
        .chrono
      expect(await textOf(panel)).toContain(`${chrono}${SUBJECT}`)
      expect(await textOf(panel.locator('app-notes-list .noteTextContent'))).toBe(NOTE)
      await expectNoMarkupOfTheirs()
    })

    it("the letter's page shows the subject, the sender and the note as written", async () => {
      await page
        .locator('.mat-row')
        .filter({ hasText: 'Zorglub' })
        .getByText(/Zorglub/)
        .first()
        .click()
      await page.waitForURL(/#\/process\//)
      const header = page.locator('.resourceInfo')
      await expect.poll(async () => textOf(header)).toContain(SUBJECT)
      await expect.poll(async () => textOf(header)).toContain(SENDER)
      // The news feed's last notes, then the notes' tab.
      await expect.poll(async () => textOf(page.locator('app-note-resume'))).toContain(NOTE)
      await page.getByText(lang.notesAlt!, { exact: true }).first().click()
      const note = page.locator('app-notes-list .noteTextContent')
      await note.waitFor()
      expect(await textOf(note)).toBe(NOTE)
      await expectNoMarkupOfTheirs()
    })
  },
)
