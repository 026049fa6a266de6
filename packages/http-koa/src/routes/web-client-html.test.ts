import { errorMessage } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addModelCustomField,
  demoAuth,
  seedBaskets,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * What callers write reaches Maarch 20.10's web client, which renders some fields as HTML (`[innerHTML]`): in the
 * letter lists (a basket's list, a search) the chrono, barcode, subject and display values, made inert by the
 * server (a word joiner after each `<` or `&` that would start markup); everywhere else the client shows the text
 * as text, and the routes answer it as written. A capture tool (cchaplin) files a letter whose every written field
 * is hostile; bbain (AGENT, PJS) reads it.
 */

const J = '\u2060'
const SUBJECT = `<img src=x onerror=alert(1)></script> l'école &amp; "la piscine"`
const SUBJECT_INERT = `<${J}img src=x onerror=alert(1)><${J}/script> l'école &${J}amp; "la piscine"`
const SENDER = '<b>Dupont</b> & Fils'
const SENDER_INERT = `<${J}b>Dupont<${J}/b> & Fils`
const BARCODE = '<svg/onload=alert(2)>'
const REFERENCE = "<a href='javascript:alert(3)'>réf</a>"
const CHRONO = 'MAARCH/2026A/<!--x-->'
const NOTE = '<b>gras</b> &lt;script&gt; </textarea>'
const AGENT = 4

let s: TestServer
let resId: number
let contactId: number
let fieldId: number
let myBasket: number
const bbain = demoAuth('bbain')
const cchaplin = demoAuth('cchaplin')

beforeAll(async () => {
  s = await startTestServer()
  const db = s.mailroom.db
  fieldId = await addModelCustomField(db, { label: '<i>Référence</i>', type: 'string' })
  const contact = await s.call('POST', '/rest/contacts', { auth: cchaplin, body: { lastname: SENDER } })
  expect(contact.status, contact.text).toBe(200)
  contactId = contact.json.id
  const created = await s.call('POST', '/rest/resources', {
    auth: cchaplin,
    body: {
      modelId: 1,
      status: 'NEW',
      subject: SUBJECT,
      barcode: BARCODE,
      destination: 6,
      senders: [{ id: contactId, type: 'contact' }],
      customFields: { [fieldId]: REFERENCE },
      diffusionList: [{ id: 3, type: 'user', mode: 'dest' }],
      format: 'txt',
      encodedFile: 'Qm9uam91cg==',
    },
  })
  expect(created.status, created.text).toBe(200)
  resId = created.json.resId
  // The letter's page shows the fields of its model only (20.10): the demo's model 1 has no subject field.
  await db.insertInto('indexing_models_fields').values({ model_id: 1, identifier: 'subject', unit: 'mail' }).execute()
  // A chrono as an imported installation may hold one.
  await db.updateTable('res_letterbox').set({ alt_identifier: CHRONO }).where('res_id', '=', resId).execute()
  const note = await s.call('POST', '/rest/notes', { auth: bbain, body: { resId, value: NOTE } })
  expect(note.status, note.text).toBe(200)
  const baskets = await seedBaskets(db, [
    {
      basketId: 'MyBasket',
      name: 'Courriers à traiter',
      clause: "subject like '%piscine%'",
      groups: [
        {
          groupId: 'AGENT',
          listDisplay: {
            templateColumns: 5,
            subInfos: [
              { value: 'getSenders', cssClasses: [], icon: 'fa-book' },
              { value: 'getBarcode', cssClasses: [], icon: 'fa-barcode' },
              { value: `indexingCustomField_${fieldId}`, cssClasses: [], icon: 'fa-hashtag' },
              { value: 'getCategory', cssClasses: [], icon: 'fa-exchange-alt' },
              { value: 'getCreationAndProcessLimitDates', cssClasses: [], icon: 'fa-calendar' },
            ],
          },
          listEvent: 'processDocument',
        },
      ],
    },
  ])
  myBasket = baskets.get('MyBasket')!
})
afterAll(async () => s?.close())

describe("the letter lists 20.10's web client renders as HTML", () => {
  it('a basket’s list answers the chrono, barcode, subject and display values inert; labels and the rest as written', async () => {
    const list = await s.call('GET', `/rest/resourcesList/users/3/groups/${AGENT}/baskets/${myBasket}`, {
      auth: bbain,
    })
    expect(list.status, list.text).toBe(200)
    const row = list.json.resources.find((r: { resId: number }) => r.resId === resId)
    expect(row).toMatchObject({
      chrono: `MAARCH/2026A/<${J}!--x-->`,
      barcode: `<${J}svg/onload=alert(2)>`,
      subject: SUBJECT_INERT,
      statusLabel: 'Nouveau courrier',
    })
    expect(row.display).toEqual([
      { value: 'getSenders', cssClasses: [], icon: 'fa-book', displayValue: [SENDER_INERT] },
      { value: 'getBarcode', cssClasses: [], icon: 'fa-barcode', displayValue: `<${J}svg/onload=alert(2)>` },
      {
        value: `indexingCustomField_${fieldId}`,
        cssClasses: [],
        icon: 'fa-hashtag',
        displayLabel: '<i>Référence</i>',
        displayValue: `<${J}a href='javascript:alert(3)'>réf<${J}/a>`,
      },
      { value: 'getCategory', cssClasses: [], icon: 'fa-exchange-alt', displayValue: 'incoming' },
      {
        value: 'getCreationAndProcessLimitDates',
        cssClasses: [],
        icon: 'fa-calendar',
        displayValue: { creationDate: expect.stringMatching(/^\d{4}-\d\d-\d\d /), processLimitDate: null },
      },
    ])
  })

  it('a search by criteria answers the same fields inert', async () => {
    const found = await s.call('POST', '/rest/search', { auth: bbain, body: { meta: { values: 'piscine' } } })
    expect(found.status, found.text).toBe(200)
    const row = found.json.resources.find((r: { resId: number }) => r.resId === resId)
    expect(row).toMatchObject({
      chrono: `MAARCH/2026A/<${J}!--x-->`,
      barcode: `<${J}svg/onload=alert(2)>`,
      subject: SUBJECT_INERT,
    })
    expect(row.display.find((item: { value: string }) => item.value === 'getSenders').displayValue).toEqual([
      SENDER_INERT,
    ])
  })

  it('finds the letter by what the caller wrote, not by its inert form', async () => {
    const byText = await s.call('POST', '/rest/search', { auth: bbain, body: { meta: { values: '&amp;' } } })
    expect(byText.json.allResources).toContain(resId)
    const list = await s.call(
      'GET',
      `/rest/resourcesList/users/3/groups/${AGENT}/baskets/${myBasket}?search=${encodeURIComponent('<img')}`,
      { auth: bbain },
    )
    expect(list.json.allResources).toEqual([resId])
  })
})

describe('the routes whose text the client shows as text answer it as written', () => {
  it("the letter's page, its notes, the contact and the last letters seen", async () => {
    const letter = await s.call('GET', `/rest/resources/${resId}?light=true`, { auth: bbain })
    expect(letter.status, letter.text).toBe(200)
    expect(letter.json).toMatchObject({ subject: SUBJECT, chrono: CHRONO })
    const notes = await s.call('GET', `/rest/resources/${resId}/notes`, { auth: bbain })
    expect(notes.json.notes.map((n: { value: string }) => n.value)).toEqual([NOTE])
    const contact = await s.call('GET', `/rest/contacts/${contactId}`, { auth: bbain })
    expect(contact.json.lastname).toBe(SENDER)
    const lock = await s.call('PUT', `/rest/resourcesList/users/3/groups/${AGENT}/baskets/${myBasket}/lock`, {
      auth: bbain,
      body: { resources: [resId] },
    })
    expect(lock.status, lock.text).toBe(204)
    const last = await s.call('GET', '/rest/home/lastRessources', { auth: bbain })
    expect(last.json.lastResources.find((r: { res_id: number }) => r.res_id === resId)).toMatchObject({
      subject: SUBJECT,
      alt_identifier: CHRONO,
    })
  })
})

describe('GET /rest/home', () => {
  it('answers the home page message allow-listed: the client inserts it without a sanitiser', async () => {
    const db = s.mailroom.db
    await db.deleteFrom('parameters').where('id', '=', 'homepage_message').execute()
    await db
      .insertInto('parameters')
      .values({
        id: 'homepage_message',
        param_value_string: '<p onclick="alert(1)">Bienvenue <b>ici</b><script>alert(2)</script><img src=x></p>',
      })
      .execute()
    const home = await s.call('GET', '/rest/home', { auth: bbain })
    expect(home.json.homeMessage).toBe('<p>Bienvenue <b>ici</b></p>')
  })
})

describe('NUL characters are refused before anything is stored', () => {
  const refused = { errors: errorMessage('NUL_CHARACTER') }

  it('in a subject, a contact’s name or a note', async () => {
    const letter = await s.call('POST', '/rest/resources', {
      auth: cchaplin,
      rawBody: JSON.stringify({ modelId: 1, status: 'NEW', subject: 'a\u0000<b>', destination: 6 }),
    })
    expect([letter.status, letter.json]).toEqual([400, refused])
    const contact = await s.call('POST', '/rest/contacts', {
      auth: cchaplin,
      rawBody: JSON.stringify({ lastname: '<b>\u0000</b>' }),
    })
    expect([contact.status, contact.json]).toEqual([400, refused])
    const note = await s.call('POST', '/rest/notes', {
      auth: bbain,
      rawBody: JSON.stringify({ resId, value: '\u0000<img src=x>' }),
    })
    expect([note.status, note.json]).toEqual([400, refused])
    const notes = await s.call('GET', `/rest/resources/${resId}/notes`, { auth: bbain })
    expect(notes.json.notes).toHaveLength(1)
  })
})
