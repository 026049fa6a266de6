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
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../../packages/testing/src/fixtures/files/index.js'
import {
  addArrivalModelFields,
  addCopyBasket,
  addPetiteEnfanceClerk,
  addYouthServiceColleague,
  type JourneyIds,
  type PetiteEnfanceClerk,
} from './web-client-journey-data.js'
import { webClientMaterial } from './web-client-material.js'
import { tourScreenshot } from './web-client-tour.js'

// Issue 54's journey, as the folder's README tells it, in Maarch 20.10's own client served by Mailroom: the
// sign-in page, bbain signs in, her baskets with their counts, "Courriers à traiter" lists a letter addressed to
// her, a click opens it on its processing page (locked), "Cloturer" closes it; "Rediriger" to another department,
// and to a colleague of her own department; a copy marked as read in "Courriers en copie". One browser, one server per database (this file runs in the
// PGlite and in the PostgreSQL project). Every /rest call the page makes that fails is logged and listed at the
// end: the routes still missing.

const missing = chromiumMissing()
if (missing) console.warn(missing)
const material = webClientMaterial()

const SUBJECTS = {
  close: 'Plainte au sujet de la piscine municipale',
  redirect: 'Demande de subvention du club de judo',
  copy: 'Invitation à l’inauguration du gymnase',
  person: 'Réservation de la salle des fêtes',
} as const

/** A /rest call the page made that failed (4xx other than an expected 401 before sign-in, 501, 5xx). */
interface FailedCall {
  readonly step: string
  readonly call: string
  readonly status: number
  readonly errors: string
}

describe.skipIf(missing !== null || material === null)("Maarch 20.10's web client: a clerk's journey", () => {
  let s: TestServer
  let browser: TestBrowser
  let page: Page
  let ids: JourneyIds
  let peClerk: PetiteEnfanceClerk
  const letters = { close: 0, redirect: 0, copy: 0, person: 0 }
  let colleague: { userId: number; auth: string }
  const failed: FailedCall[] = []
  let step = 'load'
  let lastRestAnswer = Date.now()
  const lang = material
    ? (JSON.parse(readFileSync(join(material.lang, 'lang-fr.json'), 'utf8')) as Record<string, string>)
    : {}

  /** Registered as the README says: by the web-service user (cchaplin), through POST /rest/resources. */
  async function register(subject: string, diffusionList: { id: number; type: string; mode: string }[]) {
    const r = await s.call('POST', '/rest/resources', {
      auth: demoAuth('cchaplin'),
      body: {
        modelId: 1,
        status: 'NEW',
        doctype: 103,
        subject,
        destination: 6,
        chrono: true,
        encodedFile: Buffer.from(makePdf()).toString('base64'),
        format: 'pdf',
        diffusionList,
      },
    })
    expect(r.status, r.text).toBe(200)
    return r.json.resId as number
  }

  beforeAll(async () => {
    s = await startTestServer({ http: { webClient: { clientDir: material!.dist, languagesDir: material!.lang } } })
    ids = await addCopyBasket(s.mailroom.db)
    peClerk = await addPetiteEnfanceClerk(s.mailroom)
    letters.close = await register(SUBJECTS.close, [{ id: 3, type: 'user', mode: 'dest' }])
    letters.redirect = await register(SUBJECTS.redirect, [{ id: 3, type: 'user', mode: 'dest' }])
    letters.person = await register(SUBJECTS.person, [{ id: 3, type: 'user', mode: 'dest' }])
    colleague = await addYouthServiceColleague(s.mailroom)
    letters.copy = await register(SUBJECTS.copy, [
      { id: 4, type: 'user', mode: 'dest' },
      { id: 3, type: 'user', mode: 'cc' },
    ])
    await addArrivalModelFields(s.mailroom.db)
    browser = await launchChromium({ locale: 'fr-FR', viewport: { width: 1280, height: 800 } })
    browser.context.setDefaultTimeout(30_000)
    page = await browser.context.newPage()
    page.on('response', async (response) => {
      const url = new URL(response.url())
      const status = response.status()
      if (url.pathname.startsWith('/rest/')) lastRestAnswer = Date.now()
      if (!url.pathname.startsWith('/rest/') || status < 400) return
      const errors = await response
        .json()
        .then((body: { errors?: unknown }) => String(body.errors ?? ''))
        .catch(() => '')
      failed.push({ step, call: `${response.request().method()} ${url.pathname}`, status, errors })
    })
  }, 180_000)

  afterAll(async () => {
    // The routes still missing, for whoever adds them next.
    if (failed.length > 0)
      console.warn(
        `the web client's journey met ${failed.length} failed /rest call(s):\n${failed
          .map((f) => `  [${f.step}] ${f.call} → ${f.status} ${f.errors}`)
          .join('\n')}`,
      )
    await browser?.close()
    await s?.close()
  })

  /** The line of a basket in the side panel: its name, then its count. */
  const basketLine = (name: string) => page.locator('.mat-list-item, a').filter({ hasText: name }).last()
  /** The count the side panel shows beside a basket's name. */
  const countOf = async (name: string) => (await basketLine(name).textContent())?.match(/(\d+)\s*$/)?.[1]

  it('shows the sign-in page', async () => {
    await page.goto(`${s.baseUrl}/dist/index.html`)
    await page.waitForURL(/#\/login/)
    await page.getByPlaceholder(lang.id!).waitFor()
    await page.getByRole('button', { name: lang.LOGIN! }).waitFor()
    await tourScreenshot(page, '1-sign-in')
    expect(failed).toEqual([])
  })

  it('signs bbain in: the home page lists her baskets with their counts', async () => {
    step = 'sign-in'
    await page.getByPlaceholder(lang.id!).fill('bbain')
    await page.getByPlaceholder(lang.password!).fill('maarch')
    await page.getByRole('button', { name: lang.LOGIN! }).click()
    await page.waitForURL(/#\/home/)
    await page.getByText('Barbara').first().waitFor()
    await expect.poll(() => countOf('Courriers à traiter')).toBe('3')
    expect(await countOf('Courriers en copie')).toBe('1')
    expect(await countOf('Courriers en retard')).toBe('0')
    await tourScreenshot(page, '2-home')
    expect(failed).toEqual([])
  })

  it('"Courriers à traiter" lists the letters addressed to her', async () => {
    step = 'basket'
    await basketLine('Courriers à traiter').click()
    await page.waitForURL(new RegExp(`#/basketList/users/3/groups/${ids.agentGroup}/baskets/${ids.myBasket}`))
    await page.getByText(SUBJECTS.close).waitFor()
    await page.getByText(SUBJECTS.redirect).waitFor()
    await page.getByText(SUBJECTS.person).waitFor()
    await page.getByText('3 Résultat(s)').waitFor()
    expect(await page.getByText(SUBJECTS.copy).count()).toBe(0)
    await tourScreenshot(page, '3-basket')
    expect(failed).toEqual([])
  })

  /** The calls of a step that answered 501: routes of 20.10 Mailroom does not serve yet. */
  const notServedIn = (name: string) => failed.filter((f) => f.step === name && f.status === 501).map((f) => f.call)

  /**
   * A step of the letter's page cannot run while the page's routes are not all served (other work, in progress):
   * it is skipped saying which, rather than failing. Any other failure (404, 4xx, 5xx) fails it.
   */
  function skipWhileNotServed(skip: (note: string) => void, name: string): void {
    const pending = notServedIn(name)
    if (pending.length === 0) return
    const note = `the letter's page needs routes Mailroom does not serve yet: ${[...new Set(pending)].join(', ')}`
    console.warn(`web client journey, step "${name}" skipped: ${note}`)
    skip(note)
  }

  async function lockOf(resId: number) {
    return s.mailroom.db
      .selectFrom('res_letterbox')
      .select(['locker_user_id', 'status', 'dest_user', 'destination'])
      .where('res_id', '=', resId)
      .executeTakeFirstOrThrow()
  }

  /** Waits until the page has asked nothing for a while: the reads a click started belong to its step. */
  const quiet = () => expect.poll(() => Date.now() - lastRestAnswer > 2_000, { timeout: 20_000 }).toBe(true)

  let letterPageOpens = false

  it('a click opens the letter on its processing page, locked for her', async (context) => {
    step = 'letter'
    await page.getByText(SUBJECTS.close).click()
    await page.waitForURL(/#\/process\//)
    // The page reads the letter; one of its reads not served yet (501) leaves it without its fields.
    const header = page.locator('.resourceInfo .title').getByText(SUBJECTS.close)
    await expect
      .poll(async () => notServedIn('letter').length > 0 || (await header.isVisible()), { timeout: 30_000 })
      .toBe(true)
    // Its other reads still arriving belong to this step.
    await quiet()
    skipWhileNotServed(context.skip, 'letter')
    // The lock the click took, read through the API: bblier (DGS, above PJS) sees it held by bbain.
    await expect.poll(async () => (await lockOf(letters.close)).locker_user_id).toBe(3)
    const locked = await s.call('PUT', '/rest/resourcesList/users/4/groups/5/baskets/4/locked', {
      auth: demoAuth('bblier'),
      body: { resources: [letters.close] },
    })
    expect(locked.json).toMatchObject({ countLockedResources: 1 })
    // What the page shows: the subject and status over its chrono and sender, the basket's default action.
    const info = await page.locator('.resourceInfo').textContent()
    expect(info).toContain('Nouveau courrier')
    expect(info).toMatch(/MAARCH\/\d{4}A\/\d+/)
    expect(info).toContain('Aucun contact associé')
    expect(await page.locator('.actions-indexing-form button.button-form-primary').textContent()).toContain(
      'Traiter courrier',
    )
    await tourScreenshot(page, '4-letter')
    expect(failed.filter((f) => f.step === 'letter')).toEqual([])
    letterPageOpens = true
  })

  /** Opens an action's dialog from the letter's page: chosen in its list, then "Valider". */
  async function openFromLetterPage(label: string) {
    const actions = page.locator('.actions-indexing-form')
    await actions.locator('button.button-form-primary').click()
    await page.locator('.mat-menu-panel').getByRole('menuitem', { name: label }).click()
    await actions.locator('button.button-form-primary').filter({ hasText: label }).waitFor()
    await actions.getByRole('button', { name: lang.validate! }).click()
    const dialog = page.locator('mat-dialog-container')
    await dialog.waitFor()
    return dialog
  }

  /** Confirms an action's dialog ("Valider") and waits until it is gone. */
  async function confirm(dialog: ReturnType<Page['locator']>) {
    await dialog.getByRole('button', { name: lang.validate! }).click()
    await dialog.waitFor({ state: 'detached' })
  }

  it('"Cloturer" closes it: status END, the history line, out of her basket', async (context) => {
    step = 'close'
    if (!letterPageOpens) context.skip("the letter's page did not open (see the step before)")
    const dialog = await openFromLetterPage('Cloturer')
    await dialog.getByText(/MAARCH\/\d{4}A\/\d+/).waitFor()
    await tourScreenshot(page, '5-action-dialog')
    await confirm(dialog)
    await page.waitForURL(/#\/basketList\//)
    await page.getByText('2 Résultat(s)').waitFor()
    expect(await page.getByText(SUBJECTS.close).count()).toBe(0)
    expect(await lockOf(letters.close)).toMatchObject({ status: 'END', locker_user_id: null })
    const history = await s.call('GET', `/rest/resources/${letters.close}/history`, { auth: demoAuth('bbain') })
    const lines = (history.json as { history: { eventType: string; info: string }[] }).history
    expect(lines.filter((line) => line.eventType === 'ACTION#20').map((line) => line.info)).toEqual([
      'Courriers à traiter : Cloturer',
    ])
    await tourScreenshot(page, '5-closed')
    expect(failed.filter((f) => f.step === 'close')).toEqual([])
  })

  it('"Rediriger" to another department: the letter leaves her basket for the other clerk’s', async (context) => {
    step = 'redirect'
    if (!letterPageOpens) context.skip("the letter's page did not open (see the step before)")
    await page.getByText(SUBJECTS.redirect).click()
    await page.waitForURL(/#\/process\//)
    const dialog = await openFromLetterPage('Rediriger')
    // To a department: the demo lets AGENT redirect from this basket to her entities and those below them only
    // (MY_ENTITIES, ENTITIES_BELOW: the tree greys out the others, DRH among them), so Petite Enfance (PE).
    await dialog.getByRole('button', { name: lang.toAService! }).click()
    // The tree first selects the letter's own department (PJS); a click before that would be undone.
    await dialog.locator('#jstree .jstree-clicked').waitFor()
    // Opened under hers (the tree shows it folded).
    await dialog.locator('#jstree .jstree-clicked').locator('xpath=..').locator('> .jstree-ocl').click()
    await dialog.locator('#jstree').getByText('Petite Enfance').click()
    // PE's template (GET /rest/listTemplates/entities/7) proposes its assignee, under the roles' labels (GET /rest/roles).
    await dialog.getByText('Sabrina SAPORTA').waitFor()
    await dialog.getByText('Attributaire').first().waitFor()
    await quiet()
    await tourScreenshot(page, '6-redirect-dialog')
    expect(failed.filter((f) => f.step === 'redirect')).toEqual([])
    await confirm(dialog)
    await page.waitForURL(/#\/basketList\//)
    await expect.poll(() => page.getByText(SUBJECTS.redirect).count()).toBe(0)
    const redirected = await lockOf(letters.redirect)
    expect(redirected).toMatchObject({ locker_user_id: null, destination: 'PE', dest_user: peClerk.userId })
    // In the Petite Enfance clerk's "Courriers à traiter", read back through the API as her.
    const hers = await s.call(
      'GET',
      `/rest/resourcesList/users/${peClerk.userId}/groups/${ids.agentGroup}/baskets/${ids.myBasket}`,
      { auth: peClerk.auth },
    )
    expect(hers.status, hers.text).toBe(200)
    expect(hers.json).toMatchObject({ count: 1, allResources: [letters.redirect] })
    expect(hers.json.resources.map((letter: { subject: string }) => letter.subject)).toEqual([SUBJECTS.redirect])
    await tourScreenshot(page, '6-redirected')
    expect(failed.filter((f) => f.step === 'redirect')).toEqual([])
  })

  it('"Rediriger" to a colleague of her department: the letter stays in PJS, assigned to him', async (context) => {
    step = 'redirect to a person'
    if (!letterPageOpens) context.skip("the letter's page did not open (see the step before)")
    await page.getByText(SUBJECTS.person).click()
    await page.waitForURL(/#\/process\//)
    const dialog = await openFromLetterPage('Rediriger')
    // The demo lets AGENT redirect from this basket to the users of her own departments (MY_ENTITIES, USERS).
    await dialog.getByRole('button', { name: lang.toAnUser! }).click()
    // The list of users opens by itself (GET /rest/resources/{id}/listInstance first); pick the colleague.
    await page.locator('mat-option').filter({ hasText: 'Jonas JAMET' }).click()
    // Still her department (GET …/users/{userId}/isDestinationChanging: false): the colleague as assignee.
    await dialog.getByText('Jonas JAMET').first().waitFor()
    await quiet()
    await tourScreenshot(page, '6b-redirect-to-a-person')
    expect(failed.filter((f) => f.step === 'redirect to a person')).toEqual([])
    await confirm(dialog)
    await page.waitForURL(/#\/basketList\//)
    await expect.poll(() => page.getByText(SUBJECTS.person).count()).toBe(0)
    expect(await lockOf(letters.person)).toMatchObject({
      locker_user_id: null,
      destination: 'PJS',
      dest_user: colleague.userId,
    })
    // In his "Courriers à traiter", read back through the API as him.
    const his = await s.call(
      'GET',
      `/rest/resourcesList/users/${colleague.userId}/groups/${ids.agentGroup}/baskets/${ids.myBasket}`,
      { auth: colleague.auth },
    )
    expect(his.status, his.text).toBe(200)
    expect(his.json).toMatchObject({ count: 1, allResources: [letters.person] })
    expect(failed.filter((f) => f.step === 'redirect to a person')).toEqual([])
  })

  it('a copy in "Courriers en copie", marked as read from the list, leaves it', async () => {
    step = 'copy'
    await page.goto(`${s.baseUrl}/dist/index.html#/home`)
    await basketLine('Courriers en copie').click()
    await page.waitForURL(new RegExp(`#/basketList/users/3/groups/${ids.agentGroup}/baskets/${ids.copyBasket}`))
    const row = page.locator('.mat-row').filter({ hasText: SUBJECTS.copy })
    await row.waitFor()
    await page.getByText('1 Résultat(s)').waitFor()
    await row.locator('mat-checkbox').click()
    await page.getByRole('button', { name: lang.actions! }).first().click()
    await page.locator('.mat-menu-panel').getByText('Marquer comme lu').click()
    const dialog = page.locator('mat-dialog-container')
    await dialog.getByText('Marquer comme lu').waitFor()
    await tourScreenshot(page, '7-copy-mark-as-read')
    await dialog.getByRole('button', { name: lang.validate! }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByText(SUBJECTS.copy).waitFor({ state: 'detached' })
    // Read, through the API: the basket no longer lists it, and bbain's mark is stored.
    const list = await s.call('GET', `/rest/resourcesList/users/3/groups/${ids.agentGroup}/baskets/${ids.copyBasket}`, {
      auth: demoAuth('bbain'),
    })
    expect(list.json.count).toBe(0)
    const marks = await s.mailroom.db
      .selectFrom('res_mark_as_read')
      .selectAll()
      .where('res_id', '=', letters.copy)
      .execute()
    expect(marks).toEqual([{ res_id: letters.copy, user_id: 3, basket_id: 'CopyMailBasket' }])
    await expect.poll(() => countOf('Courriers en copie')).toBe('0')
    expect(failed.filter((f) => f.step === 'copy')).toEqual([])
  })
})
