import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../testing/src/fixtures/files/index.js'
import { demoAuth, insertStandInRecord, startTestServer, type TestServer } from '../../../testing/src/index.js'

/*
 * The letter page's routes as a hostile clerk meets them: bbain (AGENT, PJS) against a letter of DRH (outside her
 * perimeter), ids that name nothing, huge ids, NULs; ddur (CONSULT, a perimeter of nothing) against bbain's letter.
 * No answer may tell a record outside the perimeter from one that does not exist. Then what the counts, folders,
 * following and technical facts show to whom.
 */

const PJS = 6
const DRH = 4
const PDF = Buffer.from(makePdf({ pages: 1 })).toString('base64')
const bbain = demoAuth('bbain')

let s: TestServer
let mine = 0
let drh = 0
let fileless = 0

const create = async (subject: string, destination: number) => {
  const created = await s.call('POST', '/rest/resources', {
    auth: 'cchaplin:maarch',
    body: {
      modelId: 1,
      status: 'NEW',
      subject,
      destination,
      encodedFile: PDF,
      format: 'pdf',
      externalId: { capture: 'X1' },
    },
  })
  expect(created.status).toBe(200)
  return created.json.resId as number
}

beforeAll(async () => {
  s = await startTestServer()
  mine = await create('Lettre de PJS', PJS)
  drh = await create('Dossier du personnel', DRH)
  fileless = await insertStandInRecord(s.mailroom.db, { destination: 'PJS', subject: 'Sans fichier' })
})
afterAll(async () => s?.close())

const ROUTES = (resId: string) => [
  `/rest/resources/${resId}`,
  `/rest/resources/${resId}?light=true`,
  `/rest/resources/${resId}/items`,
  `/rest/resources/${resId}/fields/externalId`,
  `/rest/resources/${resId}/fields/budget`,
  `/rest/resources/${resId}/fileInformation`,
  `/rest/resources/${resId}/versionsInformations`,
]

describe("the letter page's routes refuse what lies outside the perimeter, as 20.10 does, revealing nothing", () => {
  it("answers another entity's letter, unknown, huge, malformed and NUL ids alike: 403 Document out of perimeter", async () => {
    const ids = [String(drh), '999999999', '99999999999999999999999', '0', '-1', 'abc', '1.5', '1e3', '%20']
    for (const id of ids)
      for (const path of ROUTES(id)) {
        const response = await s.call('GET', path, { auth: bbain })
        expect([path, response.status, response.json]).toEqual([path, 403, { errors: 'Document out of perimeter' }])
      }
  })

  it("refuses a NUL in the path before any route reads it, on the clerk's letter as on another's", async () => {
    for (const id of [`${mine}%00`, `${drh}%00`, '%00'])
      for (const path of ROUTES(id)) {
        const response = await s.call('GET', path, { auth: bbain })
        expect([path, response.status, response.json]).toEqual([
          path,
          400,
          { errors: 'Request contains a NUL character, which cannot be stored' },
        ])
      }
  })

  it('refuses a clerk whose perimeter is empty, even on a letter others see', async () => {
    for (const path of ROUTES(String(mine))) {
      const response = await s.call('GET', path, { auth: demoAuth('ddur') })
      expect([path, response.status, response.json]).toEqual([path, 403, { errors: 'Document out of perimeter' }])
    }
  })

  it('refuses every field but destination, status and externalId, after the perimeter', async () => {
    for (const field of ['budget', 'subject', 'external_id', 'EXTERNALID', '__proto__', 'constructor', 'status%20']) {
      const response = await s.call('GET', `/rest/resources/${mine}/fields/${field}`, { auth: bbain })
      expect([field, response.status, response.json]).toEqual([field, 403, { errors: 'Field out of perimeter' }])
    }
  })

  it('asks for credentials first', async () => {
    const response = await s.call('GET', `/rest/resources/${mine}`, { auth: null })
    expect(response.status).toBe(401)
  })
})

describe("the letter page's routes on a letter in the perimeter", () => {
  it('reads the fields 20.10 reads: destination (its serial id with alt), status, externalId', async () => {
    const read = async (path: string) =>
      (await s.call('GET', `/rest/resources/${mine}/fields/${path}`, { auth: bbain })).json
    expect(await read('destination')).toEqual({ field: 'PJS' })
    expect(await read('destination?alt=true')).toEqual({ field: PJS })
    expect(await read('status')).toEqual({ field: 'NEW' })
    expect(await read('externalId')).toEqual({ field: { capture: 'X1' } })
  })

  it('answers light=0 and light= with the whole record, any other value with the light one', async () => {
    for (const [query, light] of [
      ['?light=0', false],
      ['?light=', false],
      ['', false],
      ['?light=1', true],
      ['?light=yes', true],
    ] as const) {
      const response = await s.call('GET', `/rest/resources/${mine}${query}`, { auth: bbain })
      expect([query, response.status, 'followed' in response.json, 'tags' in response.json]).toEqual([
        query,
        200,
        light,
        !light,
      ])
    }
  })

  it("counts only the linked records, notes and attachments the clerk's tabs would show", async () => {
    const db = s.mailroom.db
    await db
      .updateTable('res_letterbox')
      .set({ linked_resources: JSON.stringify([String(drh), String(fileless), 'not a number']) })
      .where('res_id', '=', mine)
      .execute()
    const note = async (text: string, restriction: string | null) => {
      const row = await db
        .insertInto('notes')
        .values({ identifier: mine, user_id: 2, note_text: text })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (restriction) await db.insertInto('note_entities').values({ note_id: row.id, item_id: restriction }).execute()
    }
    await note('pour tous', null)
    await note('pour PJS', 'PJS')
    await note('pour la DRH', 'DRH')
    const response = await s.call('GET', `/rest/resources/${mine}/items`, { auth: bbain })
    expect(response.status).toBe(200)
    expect(response.json).toMatchObject({ linkedResources: 1, notes: 2, attachments: 0, emails: 0 })
    const ppetit = await s.call('GET', `/rest/resources/${mine}/items`, { auth: 'superadmin:superadmin' })
    expect(ppetit.json).toMatchObject({ linkedResources: 2 })
  })

  it("shows the record's folders the clerk may see, its tags, and whether she follows it", async () => {
    const db = s.mailroom.db
    const folder = async (label: string, userId: number, entityId: number | null) => {
      const row = await db
        .insertInto('folders')
        .values({ label, user_id: userId })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (entityId !== null)
        await db.insertInto('entities_folders').values({ folder_id: row.id, entity_id: entityId }).execute()
      await db.insertInto('resources_folders').values({ folder_id: row.id, res_id: mine }).execute()
      return row.id
    }
    const own = await folder('Le mien', 3, null)
    const shared = await folder('Partagé avec PJS', 1, PJS)
    await folder('Partagé avec la DRH', 1, DRH)
    await folder('Celui de ddur', 6, null)
    await db.insertInto('users_followed_resources').values({ res_id: mine, user_id: 3 }).execute()
    const whole = await s.call('GET', `/rest/resources/${mine}`, { auth: bbain })
    expect(whole.json.folders).toEqual([own, shared].sort((a, b) => a - b))
    expect(whole.json.tags).toEqual([])
    expect((await s.call('GET', `/rest/resources/${mine}?light=true`, { auth: bbain })).json.followed).toBe(true)
    const root = await s.call('GET', `/rest/resources/${mine}?light=true`, { auth: 'superadmin:superadmin' })
    expect(root.json.followed).toBe(false)
  })

  it('shows technical facts only with view_technical_infos, never a path of the server', async () => {
    const clerk = await s.call('GET', `/rest/resources/${mine}/fileInformation`, { auth: bbain })
    expect(clerk.json).toEqual({ information: { canConvert: true, format: 'pdf' } })
    const root = await s.call('GET', `/rest/resources/${mine}/fileInformation`, { auth: 'superadmin:superadmin' })
    expect(root.json.information).toMatchObject({
      canConvert: true,
      format: 'pdf',
      typist: 2,
      typistLabel: 'Charlie CHAPLIN',
      filesize: Buffer.from(PDF, 'base64').length,
    })
    expect(root.json.information.fingerprint).toMatch(/^[0-9a-f]{64,128}$/)
    expect('docserverPathFile' in root.json.information).toBe(false)
  })

  it('answers a record without a file as 20.10: no versions, no format', async () => {
    const versions = await s.call('GET', `/rest/resources/${fileless}/versionsInformations`, { auth: bbain })
    expect(versions.json).toEqual({ DOC: [], PDF: [], SIGN: [], NOTE: [] })
    const file = await s.call('GET', `/rest/resources/${fileless}/fileInformation`, { auth: bbain })
    expect(file.json).toEqual({ information: { canConvert: false, format: null } })
  })

  it('lists a new version as the current DOC, with its PDF to come', async () => {
    const put = await s.call('PUT', `/rest/resources/${mine}`, {
      auth: 'cchaplin:maarch',
      body: { encodedFile: PDF, format: 'pdf' },
    })
    expect(put.status).toBe(200)
    const versions = await s.call('GET', `/rest/resources/${mine}/versionsInformations`, { auth: bbain })
    expect(versions.json).toEqual({ DOC: [1, 2], PDF: [1, 2], SIGN: [], NOTE: [], convert: true })
  })

  it('sizes the largest file from the body limit', async () => {
    const small = await startTestServer({ http: { bodyLimitBytes: 2 * 1024 * 1024 } })
    try {
      const response = await small.call('GET', '/rest/indexing/fileInformations', { auth: bbain })
      expect(response.json.informations).toMatchObject({ maximumSize: 1523712, maximumSizeLabel: '1.453 Mo' })
    } finally {
      await small.close()
    }
  })
})
