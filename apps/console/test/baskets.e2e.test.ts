import { demoAuth, giveBasketsToGroupMembers } from '@mailroom/testing'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { documentScreenshot, expectAccessible } from './browser.js'
import { browserSuite } from './browser-suite.js'
import { createRecord } from './console-server.js'

/** A subject a browser would run if the console wrote it as markup. */
const HOSTILE_SUBJECT = `<img src=x onerror="document.title='owned'"><script>window.owned=1</script> Plainte piscine`
/** A sender's name in markup, and text that only looks like a character reference. */
const HOSTILE_SENDER = '<b>Dupont</b> &amp; Fils'

// Issue 53's console: bbain (AGENT, Pôle Jeunesse et Sport) processes a letter of her "Courriers à traiter"
// while bblier (RESPONSABLE, DGS, above PJS) sees it in his "Courriers de ma direction", held by her.
let assigned: number
const { skip, suite } = browserSuite(async (server) => {
  // The one letter of bbain's "Courriers à traiter": assigned to her (dest_user), with a subject of markup.
  // Its sender as a capture tool writes one; the server sends both made inert for Maarch's client, the SDK as written.
  const sender = await server.call('POST', '/rest/contacts', {
    auth: demoAuth('cchaplin'),
    body: { lastname: HOSTILE_SENDER },
  })
  assigned = await createRecord(server, HOSTILE_SUBJECT, 6, 103, {
    diffusionList: [{ id: 3, type: 'user', mode: 'dest' }],
    senders: [{ id: sender.json.id, type: 'contact' }],
  })
  // The demo organisation gives baskets to groups but writes no member preference: give them, as 20.10 does.
  await giveBasketsToGroupMembers(server.mailroom.db)
})

/** The demo's serial ids: bblier (4) in RESPONSABLE (5), his DepartmentBasket (4). */
const BBLIER_DEPARTMENT = { userId: 4, groupId: 5, basketId: 4 }
const basketPath = (b: typeof BBLIER_DEPARTMENT) =>
  `/rest/resourcesList/users/${b.userId}/groups/${b.groupId}/baskets/${b.basketId}`

/** A tab of its own (its own session: the console keeps it in sessionStorage), signed in. */
async function signedIn(login: string, before?: (page: Page) => Promise<void>): Promise<Page> {
  const page = await suite.browser.context.newPage()
  await before?.(page)
  await page.goto(`${suite.server.baseUrl}/console/`)
  await page.getByLabel('Login').fill(login)
  await page.getByLabel('Password').fill('maarch')
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText(`Signed in as ${login}`).waitFor()
  await page.getByRole('heading', { level: 1, name: 'My baskets' }).waitFor()
  return page
}

/** A basket's line on the home page: its name and count. */
function basketLine(page: Page, name: string) {
  return page.getByRole('listitem').filter({ has: page.getByRole('link', { name, exact: true }) })
}

async function lockOf(resId: number) {
  return suite.server.mailroom.db
    .selectFrom('res_letterbox')
    .select(['locker_user_id', 'status'])
    .where('res_id', '=', resId)
    .executeTakeFirstOrThrow()
}

async function expectNothingRan(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { owned?: number }).owned)).toBeUndefined()
  expect(await page.title()).not.toBe('owned')
  expect(await page.locator('main img').count()).toBe(0)
}

describe.skipIf(skip)('console: baskets, a letter held while open, an action run', () => {
  it('bbain processes her letter: home with counts, the list, the letter held, “Cloturer”, the letter gone', async () => {
    const lockCalls: string[] = []
    const bbain = await signedIn('bbain', async (page) => {
      // A clock of the test's: the lock's renewal (every 50 s) is seen without waiting.
      await page.clock.install()
      page.on('request', (request) => {
        if (request.method() === 'PUT' && /\/baskets\/\d+\/(lock|unlock)$/.test(request.url()))
          lockCalls.push(request.url().replace(/.*\//, ''))
      })
    })

    // Her home: her group, its baskets with their counts.
    await expectBbainHome(bbain)
    await expectAccessible(bbain, 'baskets home')
    await documentScreenshot(bbain, 'baskets-home')

    // The basket's list: the letter's chrono, its subject as text, its status and the group's items.
    await bbain.getByRole('link', { name: 'Courriers à traiter', exact: true }).click()
    await bbain.getByRole('heading', { level: 1, name: 'Courriers à traiter' }).waitFor()
    await bbain.getByRole('heading', { level: 2, name: '1 letter(s)' }).waitFor()
    const row = bbain.getByRole('row').filter({ hasText: 'Plainte piscine' })
    expect(await row.locator('.subject').textContent()).toBe(HOSTILE_SUBJECT)
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('Nouveau courrier')
    const items = await row.locator('.items li').allTextContents()
    expect(items).toContain('Assignee: Barbara BAIN (Pôle Jeunesse et Sport)')
    expect(items).toContain('Type: Demande de documents')
    expect(items).toContain(`Senders: ${HOSTILE_SENDER}`)
    await expectNothingRan(bbain)
    await expectAccessible(bbain, 'basket list')
    await documentScreenshot(bbain, 'baskets-list')

    // Opened, the letter is hers: locked in the database, its actions offered.
    const chrono = (await row.getByRole('link').textContent()) as string
    expect(chrono).toMatch(/^MAARCH\/\d{4}A\/\d+$/)
    await row.getByRole('link', { name: `Open ${chrono}` }).click()
    await bbain.getByRole('heading', { level: 1, name: `Letter ${chrono}` }).waitFor()
    await bbain.getByText('You hold this letter while it is open').waitFor()
    await expect.poll(async () => (await lockOf(assigned)).locker_user_id).toBe(3)
    expect(await bbain.locator('.fields dd').nth(1).textContent()).toBe(HOSTILE_SUBJECT)
    const actions = bbain.getByRole('region', { name: 'Actions' })
    await actions.getByRole('button', { name: 'Cloturer' }).waitFor()
    expect(await actions.getByRole('button').allTextContents()).toEqual(['Traiter courrier', 'Cloturer'])
    await actions.getByText('Rediriger (not available in the console)').waitFor()
    await expectNothingRan(bbain)
    await expectAccessible(bbain, 'letter')
    await documentScreenshot(bbain, 'baskets-letter')

    // 50 seconds later the console has locked it again (20.10's lock lasts a minute).
    const locksBefore = lockCalls.filter((call) => call === 'lock').length
    expect(locksBefore).toBe(1)
    await bbain.clock.fastForward(50_000)
    await expect.poll(() => lockCalls.filter((call) => call === 'lock').length).toBe(2)

    // The colleague, in a tab and a session of his own.
    const bblier = await signedIn('bblier')
    await basketLine(bblier, 'Courriers de ma direction').waitFor()
    await bblier.getByRole('link', { name: 'Courriers de ma direction', exact: true }).click()
    await bblier.getByRole('heading', { level: 1, name: 'Courriers de ma direction' }).waitFor()
    const seen = bblier.getByRole('row').filter({ hasText: 'Plainte piscine' })
    await seen.getByText('Being processed by Barbara BAIN').waitFor()
    expect(await seen.getAttribute('class')).toBe('locked')
    await expectNothingRan(bblier)
    await expectAccessible(bblier, 'basket list, a letter locked')
    await documentScreenshot(bblier, 'baskets-locked-for-colleague')
    // Opened by him: read, not held, no action to run.
    await seen.getByRole('link', { name: `Open ${chrono}` }).click()
    await bblier.getByRole('heading', { level: 1, name: `Letter ${chrono}` }).waitFor()
    await bblier.getByText('Barbara BAIN is processing this letter: you may read it, not act on it.').waitFor()
    const hisActions = bblier.getByRole('region', { name: 'Actions' })
    await hisActions.getByRole('button', { name: 'Traiter courrier' }).waitFor()
    expect(await hisActions.getByRole('button', { name: 'Traiter courrier' }).isDisabled()).toBe(true)
    expect((await lockOf(assigned)).locker_user_id).toBe(3)
    await documentScreenshot(bblier, 'baskets-letter-locked-for-colleague')
    // Nor through the interface: his basket's "Cloturer" leaves a letter she holds as it is.
    const his = await suite.server.call('PUT', `${basketPath(BBLIER_DEPARTMENT)}/actions/20`, {
      auth: demoAuth('bblier'),
      body: { resources: [assigned] },
    })
    expect(his.json).toEqual({ success: 'No resource to process' })
    expect((await lockOf(assigned)).status).toBe('NEW')

    // bbain closes it with a note: back to her list, the letter gone, the count down.
    await actions.getByRole('button', { name: 'Cloturer' }).click()
    await bbain.getByLabel('Note (optional)').fill('Réponse donnée par téléphone <b>le jour même</b>')
    await documentScreenshot(bbain, 'baskets-run-action')
    await bbain.getByRole('button', { name: 'Run “Cloturer”' }).click()
    await bbain.getByRole('heading', { level: 1, name: 'Courriers à traiter' }).waitFor()
    await bbain
      .getByRole('status')
      .filter({ hasText: `“Cloturer” done on ${chrono}.` })
      .waitFor()
    await bbain.getByRole('heading', { level: 2, name: '0 letter(s)' }).waitFor()
    await bbain.getByText('No letter in this basket.').waitFor()
    await documentScreenshot(bbain, 'baskets-done')
    await bbain.getByRole('link', { name: 'Back to my baskets' }).click()
    await expect
      .poll(() => basketLine(bbain, 'Courriers à traiter').locator('.basket-count').textContent())
      .toBe('0 letter(s)')

    // What the server holds: status END, no lock, 20.10's history line and the note.
    expect(await lockOf(assigned)).toEqual({ locker_user_id: null, status: 'END' })
    const history = await suite.server.call('GET', `/rest/resources/${assigned}/history`, { auth: demoAuth('bbain') })
    expect(history.status).toBe(200)
    const events = (history.json as { history: { eventType: string; info: string; login?: string }[] }).history
    expect(events.filter((e) => e.eventType === 'ACTION#20').map((e) => e.info)).toEqual([
      'Courriers à traiter : Cloturer',
    ])
    const notes = await suite.server.call('GET', `/rest/resources/${assigned}/notes`, { auth: demoAuth('bbain') })
    expect(JSON.stringify(notes.json)).toContain('Réponse donnée par téléphone <b>le jour même</b>')

    // Left, the letter was unlocked by the page; an action's own run had cleared the lock already.
    expect(lockCalls).toContain('unlock')
    await bblier.close()
    await bbain.close()
  })

  it('the colleague’s lock is let go when he leaves the letter; his list pages by 5', async () => {
    const bblier = await signedIn('bblier')
    await bblier.getByRole('link', { name: 'Courriers de ma direction', exact: true }).click()
    await bblier.getByRole('heading', { level: 1, name: 'Courriers de ma direction' }).waitFor()
    const total = await suite.server.call('GET', basketPath(BBLIER_DEPARTMENT), { auth: demoAuth('bblier') })
    const count = (total.json as { count: number }).count
    expect(count).toBeGreaterThan(5)
    await bblier.getByRole('heading', { level: 2, name: `${count} letter(s)` }).waitFor()

    const other = suite.records.inPerimeter[0]!
    const row = bblier.getByRole('row').filter({ hasText: 'Demande de subvention piscine' })
    await row.getByRole('link').click()
    await bblier.getByText('You hold this letter while it is open').waitFor()
    await expect.poll(async () => (await lockOf(other)).locker_user_id).toBe(4)
    await bblier.getByRole('link', { name: 'Back to the basket' }).click()
    await bblier.getByRole('heading', { level: 1, name: 'Courriers de ma direction' }).waitFor()
    await expect.poll(async () => (await lockOf(other)).locker_user_id).toBeNull()

    await bblier.getByLabel('Letters per page').selectOption('5')
    await bblier.getByText(`Page 1 of ${Math.ceil(count / 5)}`).waitFor()
    // The page's label follows the choice at once; its rows when the server's page arrives.
    const rows = bblier.locator('table.letters tbody tr')
    await expect.poll(() => rows.count()).toBe(5)
    await bblier.getByRole('button', { name: 'Next' }).click()
    await bblier.getByText(`Page 2 of ${Math.ceil(count / 5)}`).waitFor()
    await expect.poll(() => rows.count()).toBe(Math.min(5, count - 5))
    await bblier.close()
  })

  it('says so for an address that names no basket, and shows the server’s refusal of one not hers', async () => {
    const bbain = await signedIn('bbain')
    await bbain.goto(`${suite.server.baseUrl}/console/#/basket/3/4/x`)
    await bbain.getByText('This address names no basket.').waitFor()
    // bblier's basket, asked for by bbain: 20.10's listControl refusal, in its words.
    await bbain.goto(`${suite.server.baseUrl}/console/#/basket/4/5/4`)
    const refusal = await suite.server.call('GET', basketPath(BBLIER_DEPARTMENT), { auth: demoAuth('bbain') })
    expect(refusal.status).toBe(403)
    await bbain
      .getByRole('alert')
      .filter({ hasText: (refusal.json as { errors: string }).errors })
      .waitFor()
    await bbain.close()
  })

  it('ran without a Content-Security-Policy violation', () => {
    expect(suite.cspViolations).toEqual([])
  })
})

async function expectBbainHome(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 2, name: 'Utilisateur' }).waitFor()
  await expect
    .poll(() => basketLine(page, 'Courriers à traiter').locator('.basket-count').textContent())
    .toBe('1 letter(s)')
  expect(await basketLine(page, 'Courriers en retard').locator('.basket-count').textContent()).toBe('0 letter(s)')
  expect(await page.locator('.baskets svg.swatch rect').first().getAttribute('fill')).toBe('#666666')
}
