import { createHash } from 'node:crypto'
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readStoredFile, startTestServer, storedKey, type TestServer } from '../../../testing/src/index.js'

const PDF = new TextEncoder().encode(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
)
const PDF_BASE64 = Buffer.from(PDF).toString('base64')
const TEXT_BASE64 = Buffer.from('Bonjour, ceci est un courrier.\n').toString('base64')
const WS = 'cchaplin:maarch'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

const create = (body: unknown, auth = WS) => s.call('POST', '/rest/resources', { auth, body })
const view = async (resId: number) =>
  (await sql<Record<string, unknown>>`select * from res_view_letterbox where res_id = ${resId}`.execute(s.mailroom.db))
    .rows[0]!
const expectError = async (body: unknown, status: number, message: string, auth = WS) => {
  const r = await create(body, auth)
  expect([r.status, r.json], JSON.stringify(body).slice(0, 200)).toEqual([status, { errors: message }])
}
const today = () => new Date().toISOString().slice(0, 10)

describe('POST /rest/resources: current form', () => {
  it('answers exactly 200 {"resId": <int>} for the minimal body', async () => {
    const r = await create({ modelId: 1, status: 'NEW' })
    expect(r.status).toBe(200)
    expect(Object.keys(r.json)).toEqual(['resId'])
    expect(Number.isInteger(r.json.resId)).toBe(true)
    const row = await view(r.json.resId)
    expect(row).toMatchObject({
      status: 'NEW',
      category_id: 'incoming',
      typist: 2,
      alt_identifier: null,
      confidentiality: 'N',
      filename: null,
    })
  })

  it('stores every optional field, visible through the view and the linked tables', async () => {
    const r = await create({
      modelId: 1,
      status: 'COU',
      doctype: 102,
      subject: 'Demande de subvention',
      chrono: true,
      typist: 4,
      destination: 6,
      initiator: 7,
      confidentiality: true,
      documentDate: '2019-01-01 17:18:47',
      arrivalDate: '2019-01-02',
      departureDate: '2019-01-03 08:00:00+01:00',
      processLimitDate: '2099-01-01',
      priority: 'poiuytre1379nbvc',
      barcode: 'BC-123',
      encodedFile: PDF_BASE64,
      format: 'pdf',
      externalId: { emailMessageId: '<m1@host>' },
      customFields: { '1': 'REF-42', '2': '15-10-2020', '3': 'Mail' },
      senders: [
        { id: 1, type: 'contact' },
        { id: 3, type: 'user' },
      ],
      recipients: [{ id: 2, type: 'entity' }],
      diffusionList: [
        { id: 3, type: 'user', mode: 'dest' },
        { id: 4, type: 'entity', mode: 'cc' },
      ],
      folders: [2],
      tags: [1, 3],
    })
    expect(r.status).toBe(200)
    const resId = r.json.resId
    const row = await view(resId)
    expect(row).toMatchObject({
      type_id: 102,
      type_label: 'Convocation',
      subject: 'Demande de subvention',
      typist: 4,
      status: 'COU',
      destination: 'PJS',
      entity_label: 'Pôle Jeunesse et Sport',
      initiator: 'PE',
      confidentiality: 'Y',
      dest_user: 3,
      priority: 'poiuytre1379nbvc',
      barcode: 'BC-123',
      category_id: 'incoming',
      format: 'pdf',
      filesize: PDF.length,
      fingerprint: createHash('sha256').update(PDF).digest('hex'),
      external_id: { emailMessageId: '<m1@host>' },
      custom_fields: { '1': 'REF-42', '2': '2020-10-15', '3': 'Mail' },
    })
    expect(row.alt_identifier).toMatch(new RegExp(`^MAARCH/${new Date().getUTCFullYear()}A/\\d+$`))
    expect((row.doc_date as Date).toISOString()).toBe('2019-01-01T17:18:47.000Z')
    expect((row.admission_date as Date).toISOString()).toBe('2019-01-02T00:00:00.000Z')
    expect((row.departure_date as Date).toISOString()).toBe('2019-01-03T07:00:00.000Z')
    expect((row.process_limit_date as Date).toISOString()).toBe('2099-01-01T00:00:00.000Z')
    const db = s.mailroom.db
    expect(
      await db.selectFrom('res_letterbox').select('model_id').where('res_id', '=', resId).executeTakeFirst(),
    ).toEqual({ model_id: 1 })
    expect(
      await db
        .selectFrom('listinstance')
        .select(['item_id', 'item_type', 'item_mode', 'added_by_user', 'sequence', 'difflist_type'])
        .where('res_id', '=', resId)
        .orderBy('listinstance_id')
        .execute(),
    ).toEqual([
      {
        item_id: 3,
        item_type: 'user_id',
        item_mode: 'dest',
        added_by_user: 2,
        sequence: 0,
        difflist_type: 'entity_id',
      },
      {
        item_id: 4,
        item_type: 'entity_id',
        item_mode: 'cc',
        added_by_user: 2,
        sequence: 0,
        difflist_type: 'entity_id',
      },
    ])
    expect(
      await db
        .selectFrom('resource_contacts')
        .select(['item_id', 'type', 'mode'])
        .where('res_id', '=', resId)
        .orderBy('id')
        .execute(),
    ).toEqual([
      { item_id: 1, type: 'contact', mode: 'sender' },
      { item_id: 3, type: 'user', mode: 'sender' },
      { item_id: 2, type: 'entity', mode: 'recipient' },
    ])
    expect(
      (await db.selectFrom('resources_folders').select('folder_id').where('res_id', '=', resId).execute()).map(
        (f) => f.folder_id,
      ),
    ).toEqual([2])
    expect(
      (
        await db.selectFrom('resources_tags').select('tag_id').where('res_id', '=', resId).orderBy('tag_id').execute()
      ).map((t) => t.tag_id),
    ).toEqual([1, 3])
    const stored = await readStoredFile(
      s.documents,
      storedKey(s.documents, 'resources', String(row.path), String(row.filename)),
    )
    expect(new Uint8Array(stored)).toEqual(PDF)
  })

  it('formats chrono numbers per category: A, D, I, none for ged_doc', async () => {
    const year = new Date().getUTCFullYear()
    const chronoOf = async (modelId: number) =>
      (await view((await create({ modelId, status: 'NEW', chrono: true })).json.resId)).alt_identifier
    expect(await chronoOf(1)).toMatch(new RegExp(`^MAARCH/${year}A/\\d+$`))
    expect(await chronoOf(2)).toMatch(new RegExp(`^MAARCH/${year}D/\\d+$`))
    expect(await chronoOf(3)).toMatch(new RegExp(`^MAARCH/${year}I/\\d+$`))
    expect(await chronoOf(4)).toBeNull()
    const a = Number(String(await chronoOf(2)).split('/')[2])
    expect(Number(String(await chronoOf(2)).split('/')[2])).toBe(a + 1)
  })

  it('writes one history row naming who and what', async () => {
    const { resId } = (await create({ modelId: 1, status: 'NEW' }, 'ppetit:maarch')).json
    const rows = await s.mailroom.db
      .selectFrom('history')
      .selectAll()
      .where('table_name', '=', 'res_letterbox')
      .where('record_id', '=', String(resId))
      .execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      event_type: 'ADD',
      user_id: 5,
      info: 'Document added',
      id_module: 'resource',
      event_id: 'resourceCreation',
    })
  })
})

describe('POST /rest/resources: what real clients send (B1–B5)', () => {
  it('Open-Capture for MEM (B1): string ids, chrono "", senders {}, DD-MM-YYYY, arrivaldate ignored', async () => {
    const r = await create({
      encodedFile: PDF_BASE64,
      priority: 'poiuytre1357nbvc',
      status: 'INIT',
      chrono: '',
      doctype: '103',
      format: 'pdf',
      modelId: '1',
      typist: 2,
      subject: '',
      destination: 8,
      senders: {},
      documentDate: '15-10-2020',
      arrivaldate: '2021-03-15 10:22:33.123456',
      customFields: {},
    })
    expect(r.status).toBe(200)
    expect(await view(r.json.resId)).toMatchObject({
      type_id: 103,
      alt_identifier: null,
      subject: null,
      destination: 'COU',
      status: 'INIT',
    })
    expect(((await view(r.json.resId)).doc_date as Date).toISOString()).toBe('2020-10-15T00:00:00.000Z')
    expect((await view(r.json.resId)).admission_date).toBeNull()
  })

  it('Open-Capture IMAP (B1): html and txt bodies, offset dates, typist login', async () => {
    const html = Buffer.from('<html><body><p>Bonjour</p></body></html>').toString('base64')
    const r = await create({
      status: 'NEW',
      doctype: '103',
      format: 'html',
      encodedFile: html,
      modelId: '1',
      subject: 'Mail',
      documentDate: '2021-03-15 10:22:33+01:00',
      arrivalDate: '2021-03-15 10:22:33.123456',
      typist: 'bblier',
    })
    expect(r.status).toBe(200)
    expect(await view(r.json.resId)).toMatchObject({ typist: 4, format: 'html' })
    expect((await create({ status: 'NEW', modelId: 1, format: 'txt', encodedFile: TEXT_BASE64 })).status).toBe(200)
  })

  it('Open-Capture for Invoices (B2): YYYY-MM-DD dates, diffusion dest user', async () => {
    const r = await create({
      encodedFile: PDF_BASE64,
      priority: 'poiuytre1357nbvc',
      status: 'NEW',
      doctype: 101,
      format: 'pdf',
      modelId: 1,
      typist: 2,
      subject: 'Facture',
      destination: 6,
      senders: [{ id: 2, type: 'contact' }],
      documentDate: today(),
      processLimitDate: '2099-12-31',
      chrono: true,
      arrivalDate: today(),
      customFields: { '1': 'DEV-2021-0042' },
      diffusionList: [{ mode: 'dest', type: 'user', id: 3 }],
    })
    expect(r.status).toBe(200)
    expect(await view(r.json.resId)).toMatchObject({ dest_user: 3, custom_fields: { '1': 'DEV-2021-0042' } })
  })

  it('intelligent-mailroom (B3): upper-case format, ISO Z dates, confidentiality false', async () => {
    const r = await create({
      modelId: 1,
      status: 'INIT',
      subject: 'x'.repeat(255),
      chrono: true,
      confidentiality: false,
      destination: 3,
      doctype: 105,
      priority: 'poiuytre1391nbvc',
      documentDate: '2026-01-30T12:20:27.764000Z',
      arrivalDate: today(),
      senders: [{ id: 3, type: 'contact' }],
      externalId: { emailMessageId: '<abc@host>', automationCategory: 'complaint', automationMethod: 'llm' },
      encodedFile: PDF_BASE64,
      format: 'PDF',
    })
    expect(r.status).toBe(200)
    expect(await view(r.json.resId)).toMatchObject({
      format: 'pdf',
      confidentiality: 'N',
      external_id: { emailMessageId: '<abc@host>', automationCategory: 'complaint', automationMethod: 'llm' },
    })
  })

  it('E-Candidate (B4): every id as a string', async () => {
    const html = Buffer.from('<p>Offre - DUPONT Jean</p>').toString('base64')
    const r = await create({
      modelId: '1',
      doctype: '101',
      priority: 'poiuytre1357nbvc',
      destination: '6',
      status: 'NEW',
      encodedFile: html,
      format: 'html',
      subject: 'Offre - DUPONT Jean',
      externalId: { 'e-candidate': 77 },
      senders: [{ id: '1', type: 'contact' }],
      documentDate: '2021-05-04',
      chrono: true,
    })
    expect(r.status).toBe(200)
  })

  it("Maarch's own unit-test body (B5)", async () => {
    const r = await create({
      modelId: 1,
      status: 'NEW',
      encodedFile: TEXT_BASE64,
      format: 'txt',
      confidentiality: false,
      documentDate: '2019-01-01 17:18:47',
      arrivalDate: '2019-01-01 17:18:47',
      processLimitDate: '2029-01-01',
      doctype: 102,
      destination: 5,
    })
    expect(r.status).toBe(200)
  })

  it('accepts URL-safe base64 with line breaks', async () => {
    const bytes = new Uint8Array(3000).map((_, i) => (i * 7) % 256)
    bytes.set(PDF.subarray(0, 9))
    const encoded = Buffer.from(bytes)
      .toString('base64url')
      .replace(/(.{76})/g, '$1\r\n')
    const r = await create({ modelId: 1, status: 'NEW', encodedFile: encoded, format: 'pdf' })
    expect(r.status).toBe(200)
    expect((await view(r.json.resId)).fingerprint).toBe(createHash('sha256').update(bytes).digest('hex'))
  })
})

describe("POST /rest/resources: the model's disabled fields, followed, integrations", () => {
  it('forces the disabled fields of the model over what the client sent, never initiator', async () => {
    const db = s.mailroom.db
    const { id: modelId } = await db
      .insertInto('indexing_models')
      .values({ label: 'Arrivée verrouillée', category: 'incoming', owner: null, master: null })
      .returning('id')
      .executeTakeFirstOrThrow()
    const fields: [string, unknown][] = [
      ['subject', 'Objet imposé'],
      ['documentDate', '_TODAY'],
      ['destination', '#myPrimaryEntity'],
      ['indexingCustomField_3', 'Fax'],
      ['initiator', 7],
    ]
    for (const [identifier, value] of fields) {
      await db
        .insertInto('indexing_models_fields')
        .values({ model_id: modelId, identifier, enabled: false, default_value: JSON.stringify(value), unit: null })
        .execute()
    }
    const r = await create(
      {
        modelId,
        status: 'NEW',
        subject: 'Objet du client',
        documentDate: '2020-01-01',
        destination: 8,
        initiator: 8,
        customFields: { '3': 'Mail' },
      },
      'ppetit:maarch',
    )
    expect(r.status).toBe(200)
    const row = await view(r.json.resId)
    expect(row).toMatchObject({
      subject: 'Objet imposé',
      destination: 'COU',
      initiator: 'COU',
      custom_fields: { '3': 'Fax' },
    })
    expect((row.doc_date as Date).toISOString().slice(0, 10)).toBe(today())
  })

  it('adds the users_followed_resources row of the caller for followed: true', async () => {
    const { resId } = (await create({ modelId: 1, status: 'NEW', followed: true })).json
    expect(
      await s.mailroom.db
        .selectFrom('users_followed_resources')
        .select(['user_id', 'res_id'])
        .where('res_id', '=', resId)
        .execute(),
    ).toEqual([{ user_id: 2, res_id: resId }])
    await expectError({ modelId: 1, status: 'NEW', followed: 'maybe' }, 400, 'Body followed is not a boolean')
  })

  it('stores integrations as booleans only with a file (both false otherwise, as 20.10)', async () => {
    const integrationsOf = async (resId: number) =>
      (
        await s.mailroom.db
          .selectFrom('res_letterbox')
          .select('integrations')
          .where('res_id', '=', resId)
          .executeTakeFirstOrThrow()
      ).integrations
    const withFile = (
      await create({
        modelId: 1,
        status: 'NEW',
        encodedFile: PDF_BASE64,
        format: 'pdf',
        integrations: { inSignatureBook: 'true', inShipping: 'false' },
      })
    ).json.resId
    expect(await integrationsOf(withFile)).toEqual({ inSignatureBook: true, inShipping: false })
    const withoutFile = (
      await create({ modelId: 1, status: 'NEW', integrations: { inSignatureBook: true, inShipping: true } })
    ).json.resId
    expect(await integrationsOf(withoutFile)).toEqual({ inSignatureBook: false, inShipping: false })
    await expectError(
      { modelId: 1, status: 'NEW', encodedFile: PDF_BASE64, format: 'pdf', integrations: [true] },
      400,
      'Body integrations is not an object',
    )
  })
})

describe('POST /rest/resources: earlier form (type_id / category_id)', () => {
  it('creates through the same use case: category → model, entity code → destination, columns renamed', async () => {
    const r = await create({
      status: 'NEW',
      format: 'pdf',
      encodedFile: PDF_BASE64,
      type_id: 104,
      category_id: 'outgoing',
      subject: 'Ancien',
      destination: 'DSI',
      priority: 'poiuytre1357nbvc',
      doc_date: '2020-02-03',
      chrono: true,
      alt_identifier: 'MINE/1',
      exp_contact_id: 2,
      externalId: { legacy: 1 },
    })
    expect(r.status).toBe(200)
    const row = await view(r.json.resId)
    expect(row).toMatchObject({
      type_id: 104,
      category_id: 'outgoing',
      subject: 'Ancien',
      destination: 'DSI',
      priority: 'poiuytre1357nbvc',
      external_id: { legacy: 1 },
    })
    expect(row.alt_identifier).toMatch(/^MAARCH\/\d{4}D\/\d+$/)
    expect((row.doc_date as Date).toISOString()).toBe('2020-02-03T00:00:00.000Z')
    expect(
      await s.mailroom.db
        .selectFrom('resource_contacts')
        .select(['item_id', 'type', 'mode'])
        .where('res_id', '=', r.json.resId)
        .execute(),
    ).toEqual([{ item_id: 2, type: 'contact', mode: 'sender' }])
  })

  it('requires status, format, encodedFile, type_id and category_id', async () => {
    const full = { status: 'NEW', format: 'pdf', encodedFile: PDF_BASE64, type_id: 101, category_id: 'incoming' }
    for (const field of ['status', 'format', 'encodedFile', 'type_id', 'category_id']) {
      const { [field]: _, ...body } = full as Record<string, unknown>
      if (field === 'type_id' || field === 'category_id') continue // without either, the body is not the earlier form
      await expectError(body, 400, 'Data is not set or empty')
    }
    await expectError({ ...full, type_id: '' }, 400, 'Data is not set or empty')
    await expectError({ ...full, category_id: null }, 400, 'Data is not set or empty')
    await expectError({ ...full, type_id: 'abc' }, 400, 'Body type_id is empty or not an integer')
    await expectError({ ...full, category_id: 12 }, 400, 'Body category_id is empty or not a string')
    await expectError({ ...full, category_id: 'registeredMail' }, 400, 'Body category_id does not exist')
    await expectError({ ...full, destination: 'NOPE' }, 400, 'Body destination does not exist')
    await expectError({ ...full, type_id: 999 }, 400, 'Body doctype does not exist')
  })

  it('reads a numeric priority as the order of a priority (demo: Normal 1, Urgent 2, Très urgent 3)', async () => {
    const full = { status: 'NEW', format: 'pdf', encodedFile: PDF_BASE64, type_id: 101, category_id: 'incoming' }
    for (const [priority, id] of [
      [1, 'poiuytre1357nbvc'],
      [2, 'poiuytre1379nbvc'],
      ['3', 'poiuytre1391nbvc'],
      [' 2 ', 'poiuytre1379nbvc'],
    ] as const) {
      const r = await create({ ...full, priority })
      expect(r.status, String(priority)).toBe(200)
      expect((await view(r.json.resId)).priority, String(priority)).toBe(id)
    }
    await expectError({ ...full, priority: 4 }, 400, 'Body priority does not exist')
    await expectError({ ...full, priority: '0' }, 400, 'Body priority does not exist')
    await expectError({ ...full, priority: 'nope' }, 400, 'Body priority does not exist')
    // The current form keeps priority ids: a number is still refused there.
    await expectError({ modelId: 1, status: 'NEW', priority: 2 }, 400, 'Body priority is not a string')
    await expectError({ modelId: 1, status: 'NEW', priority: '2' }, 400, 'Body priority does not exist')
  })
})

describe('POST /rest/resources: errors', () => {
  it('refuses a missing modelId or status with Data is not set or empty', async () => {
    await expectError({ status: 'NEW' }, 400, 'Data is not set or empty')
    await expectError({ modelId: 1 }, 400, 'Data is not set or empty')
    await expectError({ modelId: 1, status: '' }, 400, 'Data is not set or empty')
    await expectError({ modelId: null, status: 'NEW' }, 400, 'Data is not set or empty')
    await expectError({}, 400, 'Data is not set or empty')
    const r = await s.call('POST', '/rest/resources', { auth: WS })
    expect([r.status, r.json]).toEqual([400, { errors: 'Data is not set or empty' }])
  })

  it('gives each wrong value its reference message, in the reference order', async () => {
    const ok = { modelId: 1, status: 'NEW' }
    const cases: [Record<string, unknown>, string][] = [
      [{ doctype: 'x' }, 'Body doctype is empty or not an integer'],
      [{ modelId: 'one' }, 'Body modelId is empty or not an integer'],
      [{ status: 12 }, 'Body status is empty or not a string'],
      [{ doctype: 999 }, 'Body doctype does not exist'],
      [{ doctype: '999', modelId: 99 }, 'Body doctype does not exist'],
      [{ modelId: 99 }, 'Body modelId does not exist'],
      // Past PostgreSQL's integer no model can exist: refused as a malformed id, before any statement.
      [{ modelId: 99999999999 }, 'Body modelId is empty or not an integer'],
      [{ modelId: 2 ** 31 }, 'Body modelId is empty or not an integer'],
      [{ encodedFile: PDF_BASE64 }, 'Body format is empty or not a string'],
      [{ encodedFile: TEXT_BASE64, format: 'docx' }, 'Format with this mimeType is not allowed : docx text/plain'],
      [{ encodedFile: PDF_BASE64, format: 'exe' }, 'Format with this mimeType is not allowed : exe application/pdf'],
      [{ encodedFile: 'not*base64', format: 'pdf' }, 'Body encodedFile is not valid base64'],
      [{ customFields: 'x' }, 'Body customFields is not an array'],
      [{ customFields: { '99': 'x' } }, 'Body customFields : One or more custom fields do not exist'],
      [{ folders: 3 }, 'Body folders is not an array'],
      [{ folders: [1] }, 'Body folders : One or more folders do not exist or are out of perimeter'],
      [{ folders: [99] }, 'Body folders : One or more folders do not exist or are out of perimeter'],
      [{ tags: [1, 9] }, 'Body tags : One or more tags do not exist'],
      [{ senders: 'x' }, 'Body senders is not an array'],
      [{ senders: ['x'] }, 'Body senders[0] is not an array'],
      [{ senders: [{ id: 'a', type: 'contact' }] }, 'Body senders[0][id] is empty or not an integer'],
      [{ senders: [{ id: 1, type: 'robot' }] }, 'Body senders[0] type is not valid'],
      [
        {
          senders: [
            { id: 1, type: 'contact' },
            { id: 99, type: 'contact' },
          ],
        },
        'Body senders[1] id does not exist',
      ],
      [{ senders: [{ id: 99, type: 'user' }] }, 'Body senders[0] id does not exist'],
      [{ recipients: [{ id: 99, type: 'entity' }] }, 'Body recipients[0] id does not exist'],
      [{ diffusionList: 'x' }, 'Body diffusionList is not an array'],
      [
        {
          diffusionList: [
            { id: 3, type: 'user', mode: 'dest' },
            { id: 4, type: 'user', mode: 'dest' },
          ],
        },
        'Body diffusionList has multiple dest',
      ],
      [{ diffusionList: [{ id: 99, type: 'user', mode: 'dest' }] }, 'Body diffusionList[0] id does not exist'],
      [{ diffusionList: [{ id: 3, type: 'user', mode: 'cc' }] }, 'Body diffusion has no dest'],
      [
        { diffusionList: [{ id: 'x', type: 'user', mode: 'dest' }] },
        'Body diffusionList[0][id] is empty or not an integer',
      ],
      [{ customFields: { '3': 'Pigeon' } }, 'Body customFields[3] has wrong value'],
      [{ customFields: { '2': 'hier' } }, 'Body customFields[2] is not a date'],
      [{ customFields: { '1': { a: 1 } } }, 'Body customFields[1] is not a string'],
      [{ initiator: 99 }, 'Body initiator does not exist'],
      [{ destination: 99 }, 'Body destination does not exist'],
      [{ destination: 'PJS' }, 'Body destination is empty or not an integer'],
      [{ documentDate: 'yesterday' }, 'Body documentDate is not a date'],
      [{ documentDate: '2999-01-01' }, 'Body documentDate cannot be a date in the future'],
      [{ arrivalDate: '31-02-2020' }, 'Body arrivalDate is not a date'],
      [{ arrivalDate: '2999-01-01' }, 'Body arrivalDate is not a valid date'],
      [{ departureDate: 5 }, 'Body departureDate is not a date'],
      [{ documentDate: '2020-01-02', departureDate: '2020-01-01' }, 'Body departureDate is not a valid date'],
      [{ processLimitDate: '2001-01-01' }, 'Body processLimitDate is not a valid date'],
      [{ processLimitDate: '2001-13-01' }, 'Body processLimitDate is not a date'],
      [{ priority: 3 }, 'Body priority is not a string'],
      [{ priority: 'nope' }, 'Body priority does not exist'],
      [{ status: 'NOPE' }, 'Body status does not exist'],
      [{ typist: 99 }, 'Body typist does not exist'],
      [{ typist: 'nobody' }, 'Body typist does not exist'],
      [{ subject: ['x'] }, 'Body subject is not a string'],
      [{ chrono: 'maybe' }, 'Body chrono is not a boolean'],
      [{ confidentiality: {} }, 'Body confidentiality is not a boolean'],
      [{ externalId: 'x' }, 'Body externalId is not an object'],
    ]
    for (const [patch, message] of cases) await expectError({ ...ok, ...patch }, 400, message)
  })

  it('lets a future documentDate through for outgoing mail only', async () => {
    expect((await create({ modelId: 2, status: 'NEW', documentDate: '2999-01-01' })).status).toBe(200)
  })

  it('refuses a body that is not an object', async () => {
    await expectError([1, 2], 400, 'Body must be a JSON object')
  })
})

describe('POST /rest/resources: who may index', () => {
  it('refuses a user without an indexing group with 403 Service forbidden, before anything else', async () => {
    await expectError({ modelId: 1, status: 'NEW' }, 403, 'Service forbidden', 'ddur:maarch')
    await expectError({}, 403, 'Service forbidden', 'ddur:maarch')
  })

  it('lets cchaplin, ppetit and superadmin index for any entity', async () => {
    for (const auth of [WS, 'ppetit:maarch', 'superadmin:superadmin']) {
      for (const destination of [1, 4, 7, 8])
        expect((await create({ modelId: 1, status: 'NEW', destination, initiator: destination }, auth)).status).toBe(
          200,
        )
    }
  })

  it('lets bbain (AGENT, PJS) index for PJS and PE only', async () => {
    const bbain = 'bbain:maarch'
    expect((await create({ modelId: 1, status: 'NEW', destination: 6 }, bbain)).status).toBe(200)
    expect((await create({ modelId: 1, status: 'NEW', destination: 7, initiator: 6 }, bbain)).status).toBe(200)
    for (const destination of [1, 3, 4, 8])
      await expectError(
        { modelId: 1, status: 'NEW', destination },
        400,
        'Body destination is out of your indexing parameters',
        bbain,
      )
    await expectError(
      { modelId: 1, status: 'NEW', initiator: 4 },
      400,
      'Body initiator does not belong to your entities',
      bbain,
    )
    // bbain is the typist, so the record is in bbain's perimeter even outside PJS.
    const { resId } = (await create({ modelId: 1, status: 'NEW' }, bbain)).json
    expect((await view(resId)).typist).toBe(3)
  })

  it('checks the folder perimeter: bblier may file into the folder he owns', async () => {
    expect((await create({ modelId: 1, status: 'NEW', folders: [1, 2] }, 'bblier:maarch')).status).toBe(200)
  })
})

describe('POST /rest/resources: chrono merged into office files (reference §2.2)', () => {
  const P = '[res_letterbox.alt_identifier]'
  // A minimal .docx: the content types naming the main part (what the sniffer reads) and the body.
  const docx = (paragraph: string) =>
    zipSync({
      '[Content_Types].xml': strToU8(
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      'word/document.xml': strToU8(
        `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p>${paragraph}</w:p></w:body></w:document>`,
      ),
    })
  const storedFile = async (resId: number) => {
    const row = await view(resId)
    return {
      row,
      bytes: new Uint8Array(
        await readStoredFile(s.documents, storedKey(s.documents, 'resources', String(row.path), String(row.filename))),
      ),
    }
  }
  const body = (bytes: Uint8Array) => strFromU8(unzipSync(bytes)['word/document.xml']!)

  it('replaces the placeholder, even split over runs, by the chrono in the stored file', async () => {
    const file = docx(`<w:r><w:t>Réf. [res_letterbox.</w:t></w:r><w:r><w:t>alt_identifier]</w:t></w:r>`)
    const r = await create({
      modelId: 1,
      status: 'NEW',
      chrono: true,
      format: 'docx',
      encodedFile: Buffer.from(file).toString('base64'),
    })
    expect(r.status).toBe(200)
    const { row, bytes } = await storedFile(r.json.resId)
    expect(row.alt_identifier).toMatch(/^MAARCH\/\d{4}A\/\d+$/)
    expect(body(bytes)).toContain(`<w:r><w:t>Réf. ${row.alt_identifier}</w:t></w:r><w:r><w:t></w:t></w:r>`)
    expect(row.fingerprint).toBe(createHash('sha256').update(bytes).digest('hex'))
    expect(Number(row.filesize)).toBe(bytes.length)
  })

  it('does the same for the earlier form, and keeps a file without the placeholder as sent', async () => {
    const earlier = await create({
      status: 'NEW',
      format: 'docx',
      encodedFile: Buffer.from(docx(`<w:r><w:t>${P}</w:t></w:r>`)).toString('base64'),
      type_id: 104,
      category_id: 'outgoing',
      chrono: true,
    })
    expect(earlier.status).toBe(200)
    const merged = await storedFile(earlier.json.resId)
    expect(body(merged.bytes)).toContain(`<w:t>${merged.row.alt_identifier}</w:t>`)
    const plain = docx('<w:r><w:t>Sans champ</w:t></w:r>')
    const kept = await create({
      modelId: 1,
      status: 'NEW',
      chrono: true,
      format: 'docx',
      encodedFile: Buffer.from(plain).toString('base64'),
    })
    expect((await storedFile(kept.json.resId)).bytes).toEqual(plain)
  })
})
