import { demoAuth, type TestServer } from '@mailroom/testing'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../packages/testing/src/fixtures/files/index.js'
import {
  type Browser,
  documentScreenshot,
  expectAccessible,
  inkedPixels,
  launchBrowser,
  recordCspViolations,
  skipBrowserTests,
} from './browser.js'
import { type SeededRecords, startConsoleServer } from './console-server.js'

// One browser and one server for every flow of the console (each flow opens its own tab: its own session).
const skip = skipBrowserTests()
let browser: Browser
let server: TestServer
let records: SeededRecords
let cspViolations: string[] = []

beforeAll(async () => {
  if (skip) return
  ;({ server, records } = await startConsoleServer())
  browser = await launchBrowser()
  cspViolations = recordCspViolations(browser)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

async function openConsole(hash = '#/search'): Promise<Page> {
  const page = await browser.context.newPage()
  await page.goto(`${server.baseUrl}/console${hash ? `/${hash}` : ''}`)
  return page
}

async function signIn(page: Page, login: string, password = 'maarch'): Promise<void> {
  await page.getByLabel('Login').fill(login)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByText(`Signed in as ${login}`).waitFor()
}

describe.skipIf(skip)('console: sign in, languages, session', () => {
  it('signs in with the server’s answer, keeps the session across a reload, renews an expired token and signs out', async () => {
    const page = await openConsole()
    await page.getByRole('heading', { level: 1, name: 'Sign in to Mailroom' }).waitFor()
    await expectAccessible(page, 'sign-in')
    await documentScreenshot(page, 'sign-in')

    await page.getByLabel('Login').fill('bbain')
    await page.getByLabel('Password').fill('wrong password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Authentication Failed')

    await signIn(page, 'bbain')
    await page.getByRole('heading', { level: 1, name: 'Search records' }).waitFor()
    expect(await page.getByRole('link', { name: 'Organisation' }).count()).toBe(0)
    await page.reload()
    await page.getByText('Signed in as bbain').waitFor()

    // A bearer token the server refuses (as after 30 minutes): the console renews it with the refresh token.
    await page.evaluate(() => {
      const stored = JSON.parse(sessionStorage.getItem('mailroom.session')!)
      sessionStorage.setItem('mailroom.session', JSON.stringify({ ...stored, token: 'expired.token.value' }))
    })
    await page.reload()
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('.count').textContent()).toBe('3 record(s)')
    const renewed = await page.evaluate(() => JSON.parse(sessionStorage.getItem('mailroom.session')!).token as string)
    expect(renewed).not.toBe('expired.token.value')

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('heading', { level: 1, name: 'Sign in to Mailroom' }).waitFor()
    expect(await page.evaluate(() => sessionStorage.getItem('mailroom.session'))).toBeNull()
    await page.close()
  })

  it('signs in with the keyboard alone; a new page puts the focus on its heading; the skip button reaches the content', async () => {
    const page = await openConsole()
    await page.getByRole('heading', { level: 1, name: 'Sign in to Mailroom' }).waitFor()
    const focused = () => page.evaluate('document.activeElement.id || document.activeElement.textContent')
    // The page's heading has the focus; then login, password, and Enter submits.
    expect(await focused()).toBe('Sign in to Mailroom')
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('login')
    await page.keyboard.type('ppetit')
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('password')
    await page.keyboard.type('maarch')
    await page.keyboard.press('Enter')
    await page.getByText('Signed in as ppetit').waitFor()
    // A new page puts the focus on its heading, so the next Tab is in its content.
    await expect.poll(focused).toBe('Search records')
    await page.keyboard.press('Tab')
    expect(await focused()).toBe('filter-status')
    // The skip button is the document's first focusable element and puts the focus in the content.
    expect(await page.evaluate("document.querySelector('a[href], button, input, select, textarea').textContent")).toBe(
      'Skip to content',
    )
    await page.getByRole('button', { name: 'Skip to content' }).focus()
    await page.keyboard.press('Enter')
    expect(await focused()).toBe('main')
    await page.close()
  })

  it('speaks French when the browser prefers it, and switches language on demand', async () => {
    const page = await browser.context.newPage()
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['fr-FR', 'fr'] }))
    await page.goto(`${server.baseUrl}/console/#/search`)
    await page.getByRole('heading', { level: 1, name: 'Connexion à Mailroom' }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('fr')
    await page.getByLabel('Identifiant').fill('bbain')
    await page.getByLabel('Mot de passe').fill('maarch')
    await page.getByRole('button', { name: 'Se connecter' }).click()
    await page.getByRole('heading', { level: 1, name: 'Rechercher des courriers' }).waitFor()
    await expectAccessible(page, 'search (fr)')
    await page.getByLabel('Langue').selectOption('en')
    await page.getByRole('heading', { level: 1, name: 'Search records' }).waitFor()
    expect(await page.getAttribute('html', 'lang')).toBe('en')
    await page.evaluate(() => localStorage.removeItem('mailroom.language'))
    await page.close()
  })
})

describe.skipIf(skip)('console: search and records as bbain', () => {
  it('writes the clause from the filters, shows the count, sorts and shows the server’s clause error', async () => {
    const page = await openConsole()
    await signIn(page, 'bbain')
    await page.getByLabel('Words of the subject').fill('piscine')
    // The statuses are a list of the server's (GET /rest/statuses): label and code.
    await page.getByRole('option', { name: 'Nouveau courrier (NEW)' }).waitFor({ state: 'attached' })
    await page.getByLabel('Status', { exact: true }).selectOption('NEW')
    expect(await page.getByLabel('Clause').inputValue()).toBe("status = 'NEW' and subject ilike '%piscine%'")
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 record(s)')
    expect(await page.locator('table.results tbody tr').count()).toBe(1)

    await page.getByRole('button', { name: 'Clear' }).click()
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('.count').textContent()).toBe('3 record(s)')
    await page.getByRole('button', { name: 'Sort by Subject' }).click()
    await expect.poll(() => page.locator('th[aria-sort="ascending"]').textContent()).toContain('Subject')
    const subjects = await page.locator('table.results tbody tr td:nth-child(4)').allTextContents()
    expect(subjects).toEqual(['Convocation conseil des sports', 'Demande de subvention piscine', 'Réclamation gymnase'])
    await expectAccessible(page, 'search results')
    await documentScreenshot(page, 'search')

    // Two records change status in one request; an unknown status changes none (all or nothing).
    // Sorted by subject, the rows are records 3, 1, 2.
    const [first, second] = records.inPerimeter.slice(1)
    await page.getByLabel(`Select record ${first}`).check()
    await page.getByLabel(`Select record ${second}`).check()
    await page.getByRole('heading', { level: 2, name: 'Change the status of the selected records (2)' }).waitFor()
    await page.getByLabel('New status').fill('NOPE')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => page.locator('.status-change [role=alert]').textContent()).toBe('status not found')
    expect(await page.locator('table.results tbody tr td:nth-child(5)').allTextContents()).toEqual([
      'NEW',
      'NEW',
      'NEW',
    ])
    await page.getByLabel('New status').fill('VAL')
    await page.getByLabel('History message').fill('À valider ensemble')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect
      .poll(() => page.locator('.status-change [role=status]').textContent())
      .toBe('Status changed to VAL for 2 record(s).')
    await expect
      .poll(() => page.locator('table.results tbody tr td:nth-child(5)').allTextContents())
      .toEqual(['VAL', 'NEW', 'VAL'])
    await expectAccessible(page, 'search with a selection')

    await page.getByLabel('Clause').fill('foo = 1')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect
      .poll(() => page.locator('#clause-error').textContent())
      .toBe('Bad Request: clause is not valid: unknown column "foo" at position 1')
    expect(await page.getByLabel('Clause').getAttribute('aria-invalid')).toBe('true')
    await page.close()
  })

  it('adds an attachment to a record and lists it; a refused file shows the server message', async () => {
    const [resId] = records.inPerimeter
    const page = await openConsole()
    await signIn(page, 'bbain')
    await page.goto(`${server.baseUrl}/console/#/record/${resId}`)
    await page.getByRole('heading', { level: 2, name: 'Attachments' }).waitFor()
    await page.getByLabel('Attachment type').selectOption('simple_attachment')
    await page.getByLabel('Title').fill('Devis de la piscine')
    await page
      .getByLabel('File to attach')
      .setInputFiles({ name: 'devis.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf()) })
    await page.getByRole('button', { name: 'Attach', exact: true }).click()
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Attachment' }).textContent())
      .toMatch(/^Attachment \d+ added\.$/)
    await expect.poll(() => page.locator('#attachments-title + ul').textContent()).toContain('Devis de la piscine')
    await page
      .getByLabel('File to attach')
      .setInputFiles({ name: 'devis.exe', mimeType: 'application/pdf', buffer: Buffer.from(makePdf()) })
    await page.getByRole('button', { name: 'Attach', exact: true }).click()
    await expect
      .poll(() => page.getByRole('alert').textContent())
      .toBe('Format with this mimeType is not allowed : exe application/pdf')
  })

  it('opens a record: the watermarked PDF drawn, its fields, versions and history; a status change shows in the history', async () => {
    const [resId] = records.inPerimeter
    const page = await openConsole()
    await signIn(page, 'bbain')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.getByRole('link', { name: String(resId), exact: true }).click()
    await page.getByRole('heading', { level: 1, name: `Record ${resId}` }).waitFor()
    const canvas = page.getByRole('img', { name: `Watermarked PDF of record ${resId}, page 1` })
    await page.locator('canvas[data-drawn="1"]').waitFor()
    const { inked, total } = inkedPixels(await canvas.screenshot())
    expect(total).toBeGreaterThan(100_000)
    expect(inked).toBeGreaterThan(300)
    await page.getByText('Version 1').waitFor()
    await expect.poll(() => page.locator('.fields').textContent()).toContain('Demande de subvention piscine')

    await page.getByLabel('New status').fill('COU')
    await page.getByLabel('History message').fill('Pris en charge par le service des sports')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect
      .poll(() => page.getByRole('status').filter({ hasText: 'Status changed' }).textContent())
      .toBe('Status changed to COU.')
    await expect
      .poll(() => page.locator('table.history').textContent())
      .toContain('Pris en charge par le service des sports')
    await expect.poll(() => page.locator('.fields').textContent()).toContain('COU')

    await page.getByLabel('New status').fill('NOPE')
    await page.getByRole('button', { name: 'Apply' }).click()
    await expect.poll(() => page.locator('.status-change [role=alert]').textContent()).toBe('status not found')
    await expectAccessible(page, 'record')
    await documentScreenshot(page, 'record')

    // A tablet held upright: one column, nothing wider than the screen, every control still reachable.
    await page.setViewportSize({ width: 768, height: 1024 })
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(768)
    await expectAccessible(page, 'record (tablet)')
    await documentScreenshot(page, 'record-tablet')
    await page.close()
  })

  it('adds a restricted note and links another record from the record page; the history shows both', async () => {
    const [resId, other] = records.inPerimeter
    const page = await openConsole()
    await signIn(page, 'bbain')
    await page.goto(`${server.baseUrl}/console/#/record/${resId}`)
    await page.getByRole('heading', { level: 1, name: `Record ${resId}` }).waitFor()
    await page.getByLabel('New note').fill('Rappeler la famille')
    await page.getByLabel('Only for the entities (ids, optional)').fill('PJS')
    await page.getByRole('button', { name: 'Add the note' }).click()
    await expect.poll(() => page.locator('ul.notes').textContent()).toContain('Rappeler la famille')
    await expect.poll(() => page.locator('ul.notes').textContent()).toContain('only for PJS')

    await page.getByLabel('Records to link (numbers)').fill(String(other))
    await page.getByRole('button', { name: 'Link', exact: true }).click()
    const remove = page.getByRole('button', { name: `Remove the link with record ${other}` })
    await remove.waitFor()
    await expect.poll(() => page.locator('table.history').textContent()).toContain('Liaison ajoutée')
    await expect.poll(() => page.locator('table.history').textContent()).toContain('Annotation ajoutée')
    await expectAccessible(page, 'record notes and links')
    await remove.click()
    await expect.poll(() => page.locator('ul.links').count()).toBe(0)
    await page.close()
  })

  it('shows the server’s refusal for a record outside the perimeter', async () => {
    const page = await openConsole()
    await signIn(page, 'bbain')
    await page.goto(`${server.baseUrl}/console/#/record/${records.outside}`)
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Document out of perimeter')
    expect(await page.locator('canvas').count()).toBe(0)
    await expectAccessible(page, 'record out of perimeter')
    await page.close()
  })
})

describe.skipIf(skip)('console: creation, digital safe, organisation', () => {
  it('creates a record with a chosen file for a user who can index; ddur, who cannot, is offered no form', async () => {
    const page = await openConsole('#/create')
    await signIn(page, 'bbain')
    await page.getByRole('heading', { level: 1, name: 'New record' }).waitFor()
    await page
      .locator('#file')
      .setInputFiles({ name: 'courrier.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf()) })
    await page.getByText(/File: courrier\.pdf/).waitFor()
    // Destination and document type are lists of the server's entities and types.
    await page.getByRole('option', { name: /Petite Enfance \(PE\)/ }).waitFor({ state: 'attached' })
    await page.getByLabel('Destination', { exact: true }).selectOption('7')
    await page.getByLabel('Document type', { exact: true }).selectOption('103')
    await page.getByLabel('Subject').fill('Inscription crèche')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    const created = await page.getByRole('status').filter({ hasText: 'created' }).textContent({ timeout: 60_000 })
    const resId = Number(/Record (\d+) created\./.exec(created ?? '')?.[1])
    expect(resId).toBeGreaterThan(records.outside)
    await expectAccessible(page, 'create')
    const stored = await server.call('POST', '/rest/res/list', {
      body: { select: 'subject, destination, alt_identifier', clause: `res_id = ${resId}` },
    })
    expect(stored.json.resources[0]).toMatchObject({
      subject: 'Inscription crèche',
      destination: 'PE',
      alt_identifier: expect.stringMatching(/^MAARCH\/\d{4}A\/\d+$/),
    })
    await page.close()

    // ddur's group cannot index (GET /rest/currentUser/profile): no New record link, no form.
    const ddur = await openConsole('#/create')
    await signIn(ddur, 'ddur')
    await expect.poll(() => ddur.getByRole('alert').textContent()).toBe('Your groups cannot create records.')
    expect(await ddur.getByRole('link', { name: 'New record' }).count()).toBe(0)
    expect(await ddur.getByRole('button', { name: 'Create', exact: true }).count()).toBe(0)
    await expectAccessible(ddur, 'create refused')
    const count = await server.call('POST', '/rest/res/list', {
      auth: 'superadmin:superadmin',
      body: { select: 'res_id', clause: "subject = 'Essai'" },
    })
    expect(count.json.count).toBe(0)
    await ddur.close()
  })

  it('reads the digital safe’s journal with its filters for superadmin, and shows the server’s refusal of a safe that does not exist', async () => {
    const page = await openConsole('#/journal')
    await signIn(page, 'superadmin', 'superadmin')
    await page.getByLabel('Digital safe', { exact: true }).fill('21750001600019')
    await page.getByRole('button', { name: 'Read' }).click()
    await page.getByRole('heading', { level: 2, name: /event\(s\)/ }).waitFor()
    expect(await page.locator('table.journal tbody tr').count()).toBeGreaterThanOrEqual(4)
    await page.getByText('Every operation succeeded').waitFor()
    // The server's verification of the hash chain, said plainly: every event of the safe, up to its head.
    await page.getByText(/^Chain verified \(\d+ events\)$/).waitFor()
    const head = await server.mailroom.db
      .selectFrom('journal_heads')
      .select('last_sequence')
      .where('safe', '=', '21750001600019')
      .executeTakeFirstOrThrow()
    expect(await page.getByRole('status').filter({ hasText: 'Chain' }).textContent()).toBe(
      `Chain verified (${head.last_sequence} events)`,
    )
    expect(await page.locator('.chain code').textContent()).toMatch(/^[0-9a-f]{64}$/)
    await expectAccessible(page, 'journal')
    await documentScreenshot(page, 'journal')

    await page.getByLabel('Archive identifier').fill('x')
    await page.getByLabel('From date').fill('2026-01-01')
    await page.getByRole('button', { name: 'Read' }).click()
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/archiveId/)
    await page.close()

    // bbain's group (AGENT) may read the demo safe too; a safe that does not exist gets the server's answer.
    const bbain = await openConsole('#/journal')
    await signIn(bbain, 'bbain')
    await bbain.getByLabel('Digital safe', { exact: true }).fill('21750001600019')
    await bbain.getByRole('button', { name: 'Read' }).click()
    await bbain.getByRole('heading', { level: 2, name: /event\(s\)/ }).waitFor()
    await bbain.getByLabel('Digital safe', { exact: true }).fill('NOPE')
    await bbain.getByRole('button', { name: 'Read' }).click()
    await expect.poll(() => bbain.getByRole('alert').textContent()).toBe("Organization NOPE doesn't exist")
    await bbain.close()
  })

  it('shows superadmin the organisation read-only with its export; bbain gets the server’s refusal', async () => {
    const page = await openConsole('#/organisation')
    await signIn(page, 'superadmin', 'superadmin')
    await page.getByRole('heading', { level: 2, name: 'Entities' }).waitFor()
    await page.getByRole('link', { name: 'Organisation' }).waitFor()
    await expect.poll(() => page.locator('.tree').first().textContent()).toContain('Ville de Maarch-les-Bains')
    expect(await page.locator('table tbody tr').count()).toBe(6)
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Export (JSON)' }).click()
    const exported = JSON.parse(
      await (await (await download).createReadStream())
        .toArray()
        .then((chunks) => Buffer.concat(chunks).toString('utf8')),
    )
    expect(exported.entities.map((e: { id: string }) => e.id)).toContain('PJS')
    await expectAccessible(page, 'organisation')
    await documentScreenshot(page, 'organisation')
    await page.close()

    const bbain = await openConsole('#/organisation')
    await signIn(bbain, 'bbain')
    await expect.poll(() => bbain.getByRole('alert').textContent()).toMatch(/.+/)
    expect(await bbain.getByRole('heading', { level: 2, name: 'Entities' }).count()).toBe(0)
    await bbain.close()
  })
})

describe.skipIf(skip)('console: the capture workflow of a clerk (lists, sender, notes, attachments, links)', () => {
  it('bbain picks model, status, type, destination, priority and sender from lists, creates, then adds a note, an attachment and a link', async () => {
    const page = await openConsole('#/create')
    await signIn(page, 'bbain')
    await page.getByRole('heading', { level: 1, name: 'New record' }).waitFor()
    await page.getByRole('option', { name: 'Très urgent (4 d)' }).waitFor({ state: 'attached' })
    // Every list is the server's: indexing models, statuses, document types (grouped), entities, priorities.
    await page.getByLabel('Indexing model').selectOption('1')
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Nouveau courrier (NEW)' })
    await page.getByLabel('Document type', { exact: true }).selectOption({ label: 'Réclamation (105)' })
    await page.getByLabel('Destination', { exact: true }).selectOption('6')
    await page.getByLabel('Priority').selectOption({ label: 'Urgent (8 d)' })
    // bbain may not list contacts (no admin_contacts): the sender is looked up by its number.
    await page.getByLabel('Sender').fill('dupont')
    await page.getByText('Searching contacts by name needs the admin_contacts right').waitFor()
    await page.getByLabel('Sender').fill('1')
    await page.getByRole('button', { name: /^Jean Dupont .*#1$/ }).click()
    await page.getByText(/^Jean Dupont .*#1$/).waitFor()
    await page
      .locator('#file')
      .setInputFiles({ name: 'reclamation.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf()) })
    await page.getByLabel('Subject').fill('Réclamation bruit du gymnase')
    await expectAccessible(page, 'create with lists')
    await documentScreenshot(page, 'create')
    await page.getByRole('button', { name: 'Create', exact: true }).click()
    const created = await page.getByRole('status').filter({ hasText: 'created' }).textContent({ timeout: 60_000 })
    const resId = Number(/Record (\d+) created\./.exec(created ?? '')?.[1])
    const stored = await server.call('POST', '/rest/res/list', {
      body: { select: 'subject, destination, type_id, priority, status', clause: `res_id = ${resId}` },
    })
    expect(stored.json.resources[0]).toMatchObject({
      subject: 'Réclamation bruit du gymnase',
      destination: 'PJS',
      type_id: 105,
      priority: 'poiuytre1379nbvc',
      status: 'NEW',
    })
    const senders = await server.mailroom.db
      .selectFrom('resource_contacts')
      .select(['item_id', 'type', 'mode'])
      .where('res_id', '=', resId)
      .execute()
    expect(senders).toEqual([{ item_id: 1, type: 'contact', mode: 'sender' }])

    // The search page offers the same lists, and narrows to a sender's records.
    await page.getByRole('link', { name: 'Search', exact: true }).click()
    await page.getByRole('heading', { level: 1, name: 'Search records' }).waitFor()
    await page.getByRole('option', { name: 'Urgent (8 d)' }).waitFor({ state: 'attached' })
    await page.getByLabel('Priority').selectOption({ label: 'Urgent (8 d)' })
    expect(await page.getByLabel('Clause').inputValue()).toBe("priority = 'poiuytre1379nbvc'")
    await page.getByLabel('Sender').fill('1')
    await page.getByRole('button', { name: /^Jean Dupont .*#1$/ }).click()
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 record(s)')
    expect(await page.locator('table.results tbody tr td:nth-child(2)').allTextContents()).toEqual([String(resId)])
    await expectAccessible(page, 'search with lists')

    // The record page: a note, an attachment and a link, each listed once added.
    await page.getByRole('link', { name: String(resId), exact: true }).click()
    await page.getByRole('heading', { level: 1, name: `Record ${resId}` }).waitFor()
    await page.getByText('No note.').waitFor()
    await page.getByLabel('New note').fill('Rappeler le plaignant avant vendredi')
    await page.getByRole('button', { name: 'Add the note' }).click()
    await page.getByRole('status').filter({ hasText: 'Note added.' }).waitFor()
    await expect.poll(() => page.locator('.notes').textContent()).toContain('Rappeler le plaignant avant vendredi')
    expect(await page.locator('.notes').textContent()).toContain('Barbara')

    await page.getByText('No attachment.').waitFor()
    await page
      .getByLabel('File to attach')
      .setInputFiles({ name: 'accuse.pdf', mimeType: 'application/pdf', buffer: Buffer.from(makePdf()) })
    await page.getByLabel('Title').fill('Accusé de réception')
    await page.getByLabel('Attachment type').selectOption('simple_attachment')
    await page.getByRole('button', { name: 'Attach', exact: true }).click()
    await page
      .getByRole('status')
      .filter({ hasText: /^Attachment \d+ added\.$/ })
      .waitFor({ timeout: 60_000 })
    await expect.poll(() => page.locator('.attachments').textContent()).toContain('Accusé de réception')
    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'Original file of Accusé de réception' }).click()
    const original = await (await (await download).createReadStream()).toArray()
    expect(Buffer.concat(original).subarray(0, 5).toString('latin1')).toBe('%PDF-')

    const [other] = records.inPerimeter
    await page.getByText('No linked record.').waitFor()
    await page.getByLabel('Records to link (numbers)').fill(String(other))
    await page.getByRole('button', { name: 'Link', exact: true }).click()
    await page.getByRole('status').filter({ hasText: '1 record(s) linked.' }).waitFor()
    await page
      .locator('.links')
      .getByRole('link', { name: `Record ${other}` })
      .waitFor()
    expect(await page.locator('.links').textContent()).toContain('Demande de subvention piscine')
    await expectAccessible(page, 'record with notes, attachments and links')
    await documentScreenshot(page, 'record-capture')

    // The link shows from the other side too, and can be removed there.
    await page
      .locator('.links')
      .getByRole('link', { name: `Record ${other}` })
      .click()
    await page.getByRole('heading', { level: 1, name: `Record ${other}` }).waitFor()
    await page
      .locator('.links')
      .getByRole('link', { name: `Record ${resId}` })
      .waitFor()
    await page.getByRole('button', { name: `Remove the link with record ${resId}` }).click()
    await page.getByText('No linked record.').waitFor()
    await page.close()
  })

  it('offers ddur (no add_links) the notes and links of a record shared with him, but no link form', async () => {
    // ppetit links it to a second record ddur may read (links show only within the reader's perimeter).
    const resId = records.sharedWithDdur
    const second = await server.call('POST', '/rest/resources', {
      auth: demoAuth('ppetit'),
      body: {
        modelId: 1,
        status: 'NEW',
        subject: 'Réponse au plan de formation',
        destination: 4,
        diffusionList: [{ id: 6, type: 'user', mode: 'dest' }],
      },
    })
    expect(second.status).toBe(200)
    const link = await server.call('POST', `/rest/resources/${resId}/linkedResources`, {
      auth: demoAuth('ppetit'),
      body: { linkedResources: [second.json.resId, records.outside] },
    })
    expect(link.status).toBe(204)
    const page = await openConsole(`#/record/${resId}`)
    await signIn(page, 'ddur')
    await page.getByRole('heading', { level: 1, name: `Record ${resId}` }).waitFor()
    await page.getByRole('heading', { level: 2, name: 'Linked records' }).waitFor()
    await page
      .locator('.links')
      .getByRole('link', { name: `Record ${second.json.resId}` })
      .waitFor()
    expect(await page.locator('.links').textContent()).toContain('Réponse au plan de formation')
    expect(await page.locator('.links').textContent()).not.toContain('Dossier du personnel')
    expect(await page.getByLabel('Records to link (numbers)').count()).toBe(0)
    expect(await page.getByRole('button', { name: /Remove the link/ }).count()).toBe(0)
    // Notes are for everyone who may read the record.
    await page.getByLabel('New note').waitFor()
    await expectAccessible(page, 'record without add_links')
    await page.close()
  })

  // Last of the file: it adds records to bbain's perimeter, which the counts of the flows above do not expect.
  it('finds letters by the words in their files from the words box, with the passage marked, within the perimeter', async () => {
    const letter = (destination: number) =>
      server.call('POST', '/rest/resources', {
        auth: demoAuth('ppetit'),
        body: {
          modelId: 1,
          status: 'NEW',
          subject: 'Courrier du 12 mars',
          destination,
          encodedFile: Buffer.from("La toiture du gymnase fuit depuis l'orage de mardi.").toString('base64'),
          format: 'txt',
        },
      })
    const inside = await letter(6)
    const outside = await letter(4)
    expect([inside.status, outside.status]).toEqual([200, 200])
    // The test server extracts nothing in the background: the queue is drained here, as a server's worker would.
    expect(await server.mailroom.fulltext.drain()).toBeGreaterThanOrEqual(2)

    const page = await openConsole()
    await signIn(page, 'bbain')
    await page.getByLabel('Words in the letters (their files, scans included)').fill('toiture')
    expect(await page.getByLabel('Clause').inputValue()).toBe("fulltext('toiture')")
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await expect.poll(() => page.locator('.count').textContent()).toBe('1 record(s)')
    const row = page.locator('table.results tbody tr')
    expect(await row.locator('td:nth-child(2)').textContent()).toBe(String(inside.json.resId))
    expect(await row.locator('.excerpt mark').allTextContents()).toEqual(['toiture'])
    expect(await row.locator('.excerpt').textContent()).toContain('du gymnase fuit')
    await expectAccessible(page, 'full-text search results')
    await page.close()
  })
})

describe.skipIf(skip)('console: under its Content-Security-Policy', () => {
  // After every flow above (sign-in, search, the PDF drawn by pdf.js and its worker, forms, lists): no inline
  // style or script, no WebAssembly, nothing the server's policy refuses was needed.
  it('ran every flow without a single violation of the policy', async () => {
    const page = await openConsole()
    const policy = (await page.request.get(`${server.baseUrl}/console/`)).headers()['content-security-policy']
    expect(policy).not.toMatch(/unsafe/)
    await page.close()
    expect(cspViolations).toEqual([])
  })
})
