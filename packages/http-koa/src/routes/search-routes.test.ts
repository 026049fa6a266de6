import { VIEW_COLUMN_NAMES } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INJECTION_CORPUS } from '../../../testing/src/fixtures/injection-corpus.js'
import {
  DEMO_USERS,
  naiveVisible,
  type SeededRecord,
  seedSearchDataset,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'
import { mergeSearchParameters } from './search-routes.js'

let s: TestServer
let records: SeededRecord[]

beforeAll(async () => {
  s = await startTestServer()
  records = await seedSearchDataset(s.mailroom.db, s.documents)
})
afterAll(async () => s?.close())

const LIST = '/rest/res/list'

function user(login: string) {
  const found = DEMO_USERS.find((u) => u.login === login)
  if (!found) throw new Error(login)
  return found
}

function auth(login: string): string {
  return `${login}:${user(login).password}`
}

function visibleIds(login: string): number[] {
  return records.filter((r) => naiveVisible(user(login), r)).map((r) => r.resId)
}

async function list(body: unknown, login = 'bbain') {
  return s.call('POST', LIST, { auth: auth(login), body })
}

function ids(json: { resources: { res_id: number }[] }): number[] {
  return json.resources.map((r) => r.res_id)
}

describe('POST /rest/res/list: the bodies of real clients (B8.11, B6)', () => {
  const chrono = () => records.find((r) => r.chrono !== null && r.status !== 'DEL' && r.destination === 'PJS')!
  it('select res_id, clause 1=1 (Open-Capture)', async () => {
    const r = await list({ select: 'res_id', clause: '1=1', limit: 1000 }, 'superadmin')
    expect(r.status).toBe(200)
    expect(r.json.count).toBe(records.length)
    expect(r.json.resources[0]).toEqual({ res_id: records[0]!.resId })
  })

  it("chrono equality with status <> 'DEL'", async () => {
    const target = chrono()
    const r = await list({ select: 'res_id', clause: `alt_identifier='${target.chrono}' AND status <> 'DEL'` })
    expect([r.status, r.json]).toEqual([200, { resources: [{ res_id: target.resId }], count: 1 }])
  })

  it('category, chrono and status', async () => {
    const target = chrono()
    const r = await list({
      select: 'res_id',
      clause: `category_id='${target.category}' AND alt_identifier='${target.chrono}' AND status <> 'DEL'`,
      limit: 1,
    })
    expect([r.status, r.json]).toEqual([200, { resources: [{ res_id: target.resId }], count: 1 }])
    const wrong = await list({
      select: 'res_id',
      clause: `category_id='nothing' AND alt_identifier='${target.chrono}' AND status <> 'DEL'`,
    })
    expect([wrong.status, wrong.json]).toEqual([200, { resources: [], count: 0 }])
  })

  it('a custom field through ->>', async () => {
    const r = await list(
      { select: 'res_id', clause: "status <> 'END' AND custom_fields ->> '3' = 'Mail'", limit: 1000 },
      'superadmin',
    )
    const expected = records.filter((x) => x.status !== 'END' && x.customFields['3'] === 'Mail').map((x) => x.resId)
    expect(r.status).toBe(200)
    expect(ids(r.json)).toEqual(expected)
    expect(expected.length).toBeGreaterThan(0)
  })

  it('external_id::text like', async () => {
    const target = records.find((x) => x.externalId.msgid === '<m7@example.org>')!
    const r = await list({ select: 'res_id', clause: "external_id::text like '%<m7@example.org>%'" }, 'superadmin')
    expect([r.status, r.json]).toEqual([200, { resources: [{ res_id: target.resId }], count: 1 }])
  })

  it('select sve_start_date alone gives res_id and a null sve_start_date', async () => {
    const r = await list({ select: 'sve_start_date', clause: '1=1', limit: 1 }, 'superadmin')
    expect([r.status, r.json]).toEqual([
      200,
      { resources: [{ res_id: records[0]!.resId, sve_start_date: null }], count: 1 },
    ])
  })

  it('select *, withFile, orderBy res_id (MININT, B6)', async () => {
    const r = await list({ select: '*', clause: '1=1', withFile: true, orderBy: ['res_id'] })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^application\/json/)
    const visible = visibleIds('bbain')
    expect(r.json.count).toBe(Math.min(100, visible.length))
    expect(ids(r.json)).toEqual(visible.slice(0, 100))
    for (const resource of r.json.resources) {
      const seeded = records.find((x) => x.resId === resource.res_id)!
      expect(Object.keys(resource)).toEqual([...VIEW_COLUMN_NAMES, 'fileBase64Content'])
      expect(resource.fileBase64Content).toBe(seeded.file ? Buffer.from(seeded.file).toString('base64') : null)
    }
  })
})

describe('POST /rest/res/list: checks and their messages', () => {
  const cases: [string, unknown, string][] = [
    ['no body', undefined, 'Bad Request: select is not valid'],
    ['select missing', { clause: '1=1' }, 'Bad Request: select is not valid'],
    ['select empty', { select: '', clause: '1=1' }, 'Bad Request: select is not valid'],
    ['select blank', { select: '   ', clause: '1=1' }, 'Bad Request: select is not valid'],
    ['select "0"', { select: '0', clause: '1=1' }, 'Bad Request: select is not valid'],
    ['select an array', { select: ['res_id'], clause: '1=1' }, 'Bad Request: select is not valid'],
    ['select a number', { select: 1, clause: '1=1' }, 'Bad Request: select is not valid'],
    ['clause missing', { select: 'res_id' }, 'Bad Request: clause is not valid'],
    ['clause empty', { select: 'res_id', clause: '' }, 'Bad Request: clause is not valid'],
    ['clause a boolean', { select: 'res_id', clause: true }, 'Bad Request: clause is not valid'],
    [
      'withFile "true"',
      { select: 'res_id', clause: '1=1', withFile: 'true' },
      'Bad Request: withFile parameter is not a boolean',
    ],
    [
      'withFile 1',
      { select: 'res_id', clause: '1=1', withFile: 1 },
      'Bad Request: withFile parameter is not a boolean',
    ],
    [
      'orderBy a string',
      { select: 'res_id', clause: '1=1', orderBy: 'res_id' },
      'Bad Request: orderBy parameter not valid',
    ],
    ['limit "5"', { select: 'res_id', clause: '1=1', limit: '5' }, 'Bad Request: limit parameter not valid'],
    ['limit 1.5', { select: 'res_id', clause: '1=1', limit: 1.5 }, 'Bad Request: limit parameter not valid'],
    ['limit -1', { select: 'res_id', clause: '1=1', limit: -1 }, 'Bad Request: limit parameter not valid'],
    ['offset -1', { select: 'res_id', clause: '1=1', offset: -1 }, 'Bad Request: offset parameter not valid'],
    [
      'an unknown column',
      { select: 'res_id', clause: 'dundermifflin_clients.branch = 1' },
      'Bad Request: clause is not valid: unknown table "dundermifflin_clients" at position 1',
    ],
    [
      'an unknown select column',
      { select: 'res_id, password', clause: '1=1' },
      'Bad Request: select is not valid: unknown column "password" at position 9',
    ],
    [
      'a sub-query',
      { select: 'res_id', clause: 'res_id in (select res_id from res_letterbox)' },
      'Bad Request: clause is not valid: unknown table "res_letterbox" at position 31',
    ],
    [
      'a comment',
      { select: 'res_id', clause: '1=1 -- x' },
      'Bad Request: clause is not valid: comments are not allowed: "--" at position 5',
    ],
    [
      'an unknown orderBy function',
      { select: 'res_id', clause: '1=1', orderBy: ['pg_sleep(1)'] },
      'Bad Request: orderBy parameter not valid: unknown function "pg_sleep" at position 1',
    ],
    ['a wrong date (database)', { select: 'res_id', clause: "creation_date > 'not a date'" }, 'Request is not valid'],
    ['a type mismatch (database)', { select: 'res_id', clause: 'status = 1' }, 'Request is not valid'],
    ['a division by zero (database)', { select: 'res_id', clause: 'res_id / 0 = 1' }, 'Request is not valid'],
    ['a bad LIKE escape (database)', { select: 'res_id', clause: "subject like '%\\'" }, 'Request is not valid'],
    [
      'an overflowing number (database)',
      { select: 'res_id', clause: 'typist = 2147483647 + 1' },
      'Request is not valid',
    ],
  ]
  it.each(cases)('%s → 400', async (_name, body, message) => {
    const r = await list(body)
    expect([r.status, r.json]).toEqual([400, { errors: message }])
  })

  it('refuses without credentials', async () => {
    const r = await s.call('POST', LIST, { auth: null, body: { select: 'res_id', clause: '1=1' } })
    expect([r.status, r.json]).toEqual([401, { errors: 'Authentication Failed' }])
  })
})

describe('POST /rest/res/list: columns and values', () => {
  it('returns exactly the requested columns, in order, with JSON-native values', async () => {
    const target = records.find((x) => x.chrono === 'MAARCH/2025A/1')!
    const r = await list(
      {
        select:
          'subject, res_id,typist , creation_date,custom_fields,external_id,retention_frozen,binding,closing_date,filesize,alt_identifier,res_id',
        clause: `res_id = ${target.resId}`,
      },
      'superadmin',
    )
    expect(r.status).toBe(200)
    const resource = r.json.resources[0]
    expect(Object.keys(resource)).toEqual([
      'subject',
      'res_id',
      'typist',
      'creation_date',
      'custom_fields',
      'external_id',
      'retention_frozen',
      'binding',
      'closing_date',
      'filesize',
      'alt_identifier',
    ])
    expect(resource).toEqual({
      subject: "Courrier 1 l'été",
      res_id: target.resId,
      typist: target.typist,
      creation_date: target.creationDate,
      custom_fields: target.customFields,
      external_id: target.externalId,
      retention_frozen: false,
      binding: true,
      closing_date: null,
      filesize: null,
      alt_identifier: 'MAARCH/2025A/1',
    })
    expect(resource.creation_date).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
    expect(r.json.count).toBe(1)
  })

  it('select * names every view column', async () => {
    const r = await list({ select: '*', clause: '1=1', limit: 1 }, 'superadmin')
    expect(Object.keys(r.json.resources[0])).toEqual([...VIEW_COLUMN_NAMES])
    expect(Object.keys(r.json.resources[0])).toContain('doctypes_first_level_label')
    expect(Object.keys(r.json.resources[0])).not.toContain('fileBase64Content')
    expect(typeof r.json.resources[0].type_id).toBe('number')
  })

  it('orders by expressions and pages with offset', async () => {
    const all = (await list({ select: 'res_id', clause: '1=1', orderBy: ['res_id DESC'], limit: 1000 }, 'superadmin'))
      .json
    expect(ids(all)).toEqual(records.map((x) => x.resId).reverse())
    const page = await list(
      { select: 'res_id', clause: '1=1', orderBy: ['res_id DESC'], limit: 5, offset: 5 },
      'superadmin',
    )
    expect(ids(page.json)).toEqual(ids(all).slice(5, 10))
    expect(page.json.count).toBe(5)
    const beyond = await list({ select: 'res_id', clause: '1=1', offset: 100000 }, 'superadmin')
    expect([beyond.status, beyond.json]).toEqual([200, { resources: [], count: 0 }])
  })

  it('returns every match when no limit (or limit 0) is given, and honours a limit as given', async () => {
    const r = await list({ select: 'res_id', clause: '1=1' }, 'superadmin')
    expect(records.length).toBeGreaterThan(100)
    expect(r.json.count).toBe(records.length)
    expect(ids(r.json)).toEqual(records.map((x) => x.resId))
    expect((await list({ select: 'res_id', clause: '1=1', limit: 0 }, 'superadmin')).json.count).toBe(records.length)
    expect((await list({ select: 'res_id', clause: '1=1', limit: 7 }, 'superadmin')).json.count).toBe(7)
  })

  it('merges query-string parameters, the body winning', async () => {
    const r = await s.call('POST', `${LIST}?select=res_id&clause=${encodeURIComponent("status = 'NEW'")}`, {
      auth: auth('superadmin'),
    })
    expect(r.status).toBe(200)
    expect(ids(r.json)).toEqual(records.filter((x) => x.status === 'NEW').map((x) => x.resId))
    const overridden = await s.call('POST', `${LIST}?select=res_id&clause=1=0`, {
      auth: auth('superadmin'),
      body: { clause: "status = 'COU'" },
    })
    expect(ids(overridden.json)).toEqual(records.filter((x) => x.status === 'COU').map((x) => x.resId))
    const stringLimit = await s.call('POST', `${LIST}?limit=5`, {
      auth: auth('superadmin'),
      body: { select: 'res_id', clause: '1=1' },
    })
    expect([stringLimit.status, stringLimit.json]).toEqual([400, { errors: 'Bad Request: limit parameter not valid' }])
  })
})

describe('POST /rest/res/list: perimeter', () => {
  it.each(DEMO_USERS.map((u) => u.login))('gives %s exactly the contract perimeter', async (login) => {
    const r = await list({ select: 'res_id', clause: '1=1', limit: 1000 }, login)
    expect(r.status).toBe(200)
    expect(ids(r.json)).toEqual(visibleIds(login))
  })

  it('bbain sees PJS and PE destinations, records typed by bbain and records on bbain’s diffusion list', () => {
    const visible = new Set(visibleIds('bbain'))
    expect(records.filter((x) => x.destination === 'PE').every((x) => visible.has(x.resId))).toBe(true)
    expect(records.filter((x) => x.typist === 3).every((x) => visible.has(x.resId))).toBe(true)
    expect(
      records.some((x) => visible.has(x.resId) && x.destination !== 'PJS' && x.destination !== 'PE' && x.typist !== 3),
    ).toBe(true)
    expect(records.some((x) => !visible.has(x.resId))).toBe(true)
  })

  it('ddur (group clause 1=0) sees only typed and diffusion-list records', async () => {
    const r = await list({ select: 'res_id, typist', clause: '1=1', limit: 1000 }, 'ddur')
    for (const resource of r.json.resources) {
      const seeded = records.find((x) => x.resId === resource.res_id)!
      expect(
        seeded.typist === 6 ||
          seeded.diffusion.some((d) => (d.type === 'user_id' && d.id === 6) || (d.type === 'entity_id' && d.id === 4)),
      ).toBe(true)
    }
    expect(r.json.count).toBeGreaterThan(0)
  })

  it.each(['1=1 OR 1=1', 'true or true', "status <> 'X' OR 1=1", '(1=1) OR (1=1)', 'NOT (1=0) OR res_id > 0'])(
    '%s cannot escape bbain’s perimeter',
    async (clause) => {
      const r = await list({ select: 'res_id', clause, limit: 1000 })
      expect([r.status, ids(r.json)]).toEqual([200, visibleIds('bbain')])
    },
  )
})

describe('POST /rest/res/list: files', () => {
  it('returns the original bytes, null for a record without file and for a missing file', async () => {
    const withFiles = records.filter((x) => x.file !== null)
    const missing = records.find((x) => x.fileMissing)!
    const none = records.find((x) => x.file === null && !x.fileMissing)!
    const wanted = [...withFiles.map((x) => x.resId), missing.resId, none.resId]
    const r = await list(
      { select: 'res_id, filesize', clause: `res_id in (${wanted.join(',')})`, withFile: true, limit: 1000 },
      'superadmin',
    )
    expect(r.status).toBe(200)
    expect(r.json.count).toBe(wanted.length)
    for (const resource of r.json.resources) {
      const seeded = records.find((x) => x.resId === resource.res_id)!
      expect(Object.keys(resource)).toEqual(['res_id', 'filesize', 'fileBase64Content'])
      if (seeded.file)
        expect(Buffer.from(resource.fileBase64Content, 'base64').equals(Buffer.from(seeded.file))).toBe(true)
      else expect(resource.fileBase64Content).toBeNull()
    }
    expect(withFiles.some((x) => x.file!.length > 3 * 64 * 1024)).toBe(true)
  })

  it('does not add res_id to the answer when it was not selected', async () => {
    const target = records.find((x) => x.file !== null && x.file.length > 0)!
    const r = await list({ select: 'subject', clause: `res_id = ${target.resId}`, withFile: true }, 'superadmin')
    expect(r.json).toEqual({
      resources: [{ subject: expect.any(String), fileBase64Content: Buffer.from(target.file!).toString('base64') }],
      count: 1,
    })
  })

  it('services.search.list gives the same answer in one piece', async () => {
    const actor = await s.mailroom.auth.authenticatePassword('superadmin', 'superadmin')
    const body = {
      select: 'res_id',
      clause: 'filesize is not null or docserver_id is not null',
      withFile: true,
      limit: 1000,
    }
    const direct = await s.mailroom.search.list(actor, body)
    const viaHttp = await list(body, 'superadmin')
    expect(direct).toEqual(viaHttp.json)
  })
})

describe('POST /rest/res/list: injection corpus (perimeter-limited bbain)', () => {
  it(`every one of the ${INJECTION_CORPUS.length} payloads is refused with 400 or stays inside the perimeter`, async () => {
    expect(INJECTION_CORPUS.length).toBeGreaterThanOrEqual(300)
    const visible = new Set(visibleIds('bbain'))
    let refused = 0
    for (const clause of INJECTION_CORPUS) {
      const r = await list({ select: 'res_id', clause, limit: 1000 })
      if (r.status === 400) {
        expect(typeof r.json?.errors, clause).toBe('string')
        refused++
        continue
      }
      expect(r.status, clause).toBe(200)
      for (const id of ids(r.json)) expect(visible.has(id), `${clause} returned ${id}`).toBe(true)
    }
    expect(refused).toBeGreaterThan(INJECTION_CORPUS.length / 2)
  })
})

describe('mergeSearchParameters', () => {
  it('lets the body win, reads name[] as an array and ignores non-object bodies', () => {
    expect(
      mergeSearchParameters({ select: 'a', clause: 'b', 'orderBy[]': ['x', 'y'], limit: ['1', '2'] }, { clause: 'c' }),
    ).toEqual({
      select: 'a',
      clause: 'c',
      orderBy: ['x', 'y'],
      limit: '2',
    })
    expect({ ...mergeSearchParameters({ select: 'a' }, ['x']) }).toEqual({ select: 'a' })
    const polluted = mergeSearchParameters({}, JSON.parse('{"__proto__": {"select": "res_id"}}'))
    expect(polluted.select).toBeUndefined()
  })
})
