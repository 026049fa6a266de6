import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../../testing/src/fixtures/files/index.js'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'
import { JSON_NESTING_LIMIT } from '../../../testing/src/test-core-internals.js'

/**
 * The requests of issue 51 that answered 500 on both databases, each with the answer it gets now: deep JSON
 * bodies, ids past PostgreSQL's integer, NULs and control characters in credentials, nested external ids and
 * custom field values. hostile-values.test.ts sends their kin to every route.
 */
const TOO_DEEP = { errors: `Body nests arrays and objects deeper than ${JSON_NESTING_LIMIT} levels` }
const NUL = { errors: 'Request contains a NUL character, which cannot be stored' }
const FAILED = { errors: 'Authentication Failed' }
const THROTTLED = { errors: 'Too many failed authentications from this address, try again later' }
const PDF = Buffer.from(makePdf({ pages: 1 })).toString('base64')

const deepArray = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
const deepObject = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`
const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` })

let s: TestServer
let recordId: number
beforeAll(async () => {
  s = await startTestServer({
    mailroom: { throttle: { maxFailuresPerLoginAndAddress: 3, maxFailuresPerAddress: 6, firstDelayMs: 1 } },
    http: { trustProxy: ['loopback'] },
  })
  const created = await s.call('POST', '/rest/resources', {
    auth: 'cchaplin:maarch',
    body: { modelId: 1, status: 'NEW', subject: 'issue 51', destination: 1, encodedFile: PDF, format: 'pdf' },
  })
  expect(created.status).toBe(200)
  recordId = created.json.resId
})
afterAll(async () => s?.close())

const post = (path: string, rawBody: string, auth = 'cchaplin:maarch') =>
  s.call('POST', path, { auth, rawBody, headers: { 'content-type': 'application/json' } })

describe('JSON bodies nested past the bound', () => {
  it('refuses an array 200,000 deep and an object 100,000 deep holding a NUL with 400, on every route with a body', async () => {
    for (const path of ['/rest/resources', '/rest/contacts', '/rest/res/list', '/rest/authenticate']) {
      for (const body of [deepArray(200_000, '"\\u0000"'), deepObject(100_000, '"\\u0000"')]) {
        const answer = await post(path, body)
        expect([answer.status, answer.json], path).toEqual([400, TOO_DEEP])
      }
    }
  })

  it('refuses one level past the bound, and reads the bound itself (its NUL is then refused as one)', async () => {
    expect((await post('/rest/res/list', deepArray(JSON_NESTING_LIMIT + 1, '1'))).json).toEqual(TOO_DEEP)
    expect((await post('/rest/res/list', deepObject(JSON_NESTING_LIMIT + 1, '1'))).json).toEqual(TOO_DEEP)
    const atBound = await post('/rest/res/list', deepArray(JSON_NESTING_LIMIT, '"\\u0000"'))
    expect([atBound.status, atBound.json]).toEqual([400, NUL])
    const nulKey = await post('/rest/res/list', deepObject(JSON_NESTING_LIMIT - 1, '{"k\\u0000":1}'))
    expect([nulKey.status, nulKey.json]).toEqual([400, NUL])
  })

  it('refuses customFields nested 5,000 deep with a NUL, and an externalId nested 10,000 deep', async () => {
    const customFields = await post(
      '/rest/resources',
      `{"modelId":1,"status":"NEW","customFields":{"1":${deepArray(5_000, '"\\u0000"')}}}`,
    )
    expect([customFields.status, customFields.json]).toEqual([400, TOO_DEEP])
    for (const path of ['/rest/resources', '/rest/contacts']) {
      const answer = await post(
        path,
        `{"modelId":1,"status":"NEW","lastname":"X","externalId":${deepObject(10_000, '1')}}`,
      )
      expect([answer.status, answer.json], path).toEqual([400, TOO_DEEP])
    }
  })
})

describe('values the interface defines as flat', () => {
  it('refuses an externalId whose values are not flat, for records and contacts, and stores nothing', async () => {
    const before = await s.mailroom.db
      .selectFrom('contacts')
      .select(s.mailroom.db.fn.countAll().as('n'))
      .executeTakeFirst()
    for (const externalId of [{ a: { b: 1 } }, { a: [1] }]) {
      const record = await s.call('POST', '/rest/resources', {
        auth: 'cchaplin:maarch',
        body: { modelId: 1, status: 'NEW', subject: 'x', destination: 1, externalId },
      })
      expect([record.status, record.json]).toEqual([
        400,
        { errors: 'Body externalId values must be strings, numbers, booleans or null' },
      ])
      const contact = await s.call('POST', '/rest/contacts', {
        auth: 'cchaplin:maarch',
        body: { lastname: 'Plat', externalId },
      })
      expect([contact.status, contact.json]).toEqual([
        400,
        { errors: 'Body externalId values must be strings, numbers, booleans or null' },
      ])
    }
    const after = await s.mailroom.db
      .selectFrom('contacts')
      .select(s.mailroom.db.fn.countAll().as('n'))
      .executeTakeFirst()
    expect(after).toEqual(before)
    const flat = await s.call('POST', '/rest/contacts', {
      auth: 'cchaplin:maarch',
      body: { lastname: 'Plat', externalId: { crm: 'C-12', rank: 3, active: true } },
    })
    expect(flat.status).toBe(200)
  })

  it('refuses a custom field value nested deeper than a list of flat objects, where it is kept as sent', async () => {
    // A type whose values Mailroom keeps as the client sent them (20.10's addresses); the others are typed.
    const exported = await s.mailroom.organisation.export()
    await s.mailroom.organisation.apply({
      version: 1,
      customFields: [...(exported.customFields ?? []), { id: 51, label: 'Adresse', type: 'banAutocomplete' }],
    })
    for (const value of [[[1]], [{ a: { b: 1 } }], { a: 1 }]) {
      const answer = await s.call('POST', '/rest/resources', {
        auth: 'cchaplin:maarch',
        body: { modelId: 1, status: 'NEW', subject: 'x', destination: 1, customFields: { '51': value } },
      })
      expect([answer.status, answer.json], JSON.stringify(value)).toEqual([
        400,
        { errors: 'Body customFields[51] nests deeper than a list of values or of flat objects' },
      ])
    }
    const flat = await s.call('POST', '/rest/resources', {
      auth: 'cchaplin:maarch',
      body: { modelId: 1, status: 'NEW', subject: 'x', destination: 1, customFields: { '51': [{ town: 'Paris' }] } },
    })
    expect(flat.status).toBe(200)
  })
})

describe('ids past the column', () => {
  it('answers GET /rest/notes/2147483648 as any malformed note id', async () => {
    for (const id of ['2147483648', '9007199254740991', '99999999999999999999']) {
      const answer = await s.call('GET', `/rest/notes/${id}`, { auth: 'bbain:maarch' })
      expect([answer.status, answer.json], id).toEqual([400, { errors: 'Route id is not an integer' }])
    }
  })

  it('refuses a recipientId at 2^31 or 2^53 − 1 naming the field, and stores no attachment', async () => {
    const count = async () =>
      (await s.mailroom.db.selectFrom('res_attachments').select(s.mailroom.db.fn.countAll().as('n')).executeTakeFirst())
        ?.n
    const before = await count()
    for (const recipientId of [2 ** 31, 2 ** 53 - 1, '2147483648']) {
      const answer = await s.call('POST', '/rest/attachments', {
        auth: 'cchaplin:maarch',
        body: {
          resIdMaster: recordId,
          type: 'response_project',
          encodedFile: PDF,
          format: 'pdf',
          recipientId,
          recipientType: 'contact',
        },
      })
      expect([answer.status, answer.json], String(recipientId)).toEqual([
        400,
        { errors: 'Body recipientId is not an integer' },
      ])
    }
    expect(await count()).toEqual(before)
  })

  it('takes the caller as typist of an attachment whose typist is past the column, as for an unknown user', async () => {
    for (const typist of [2 ** 31, 2 ** 53 - 1]) {
      const answer = await s.call('POST', '/rest/attachments', {
        auth: 'cchaplin:maarch',
        body: { resIdMaster: recordId, type: 'response_project', encodedFile: PDF, format: 'pdf', typist },
      })
      expect(answer.status).toBe(200)
      const row = await s.mailroom.db
        .selectFrom('res_attachments')
        .select('typist')
        .where('res_id', '=', answer.json.id)
        .executeTakeFirstOrThrow()
      const cchaplin = await s.mailroom.db
        .selectFrom('users')
        .select('id')
        .where('user_id', '=', 'cchaplin')
        .executeTakeFirstOrThrow()
      expect(Number(row.typist)).toBe(cchaplin.id)
    }
  })

  it('refuses a record typist and a status resId past their columns with the routes’ messages', async () => {
    const record = await s.call('POST', '/rest/resources', {
      auth: 'cchaplin:maarch',
      body: { modelId: 1, status: 'NEW', subject: 'x', destination: 1, typist: 2 ** 31 },
    })
    expect([record.status, record.json]).toEqual([400, { errors: 'Body typist is empty or not an integer' }])
    const contact = await s.call('GET', '/rest/contacts/2147483648', { auth: 'bbain:maarch' })
    expect([contact.status, contact.json]).toEqual([400, { errors: 'Route id is not an integer' }])
    const version = await s.call('GET', `/rest/resources/${recordId}/content/2147483648`, { auth: 'cchaplin:maarch' })
    expect([version.status, version.json]).toEqual([400, { errors: 'Parameter version must be greater than 0' }])
  })
})

describe('NULs and control characters in credentials', () => {
  it('answers a NUL in the HTTP Basic login or password 401, as a wrong password', async () => {
    for (const credentials of ['bbain\0:maarch', 'bbain:maarch\0', '\0:\0', 'bbain\u0001:maarch', 'bbain:ma\narch']) {
      const answer = await s.call('GET', '/rest/entities/PJS', {
        auth: null,
        headers: { 'x-forwarded-for': '203.0.113.50', ...basic(credentials) },
      })
      expect([answer.status, answer.json], JSON.stringify(credentials)).toEqual([401, FAILED])
    }
  })

  it('answers control characters in the login body of POST /rest/authenticate 401; a NUL there is a 400 body', async () => {
    for (const body of [
      { login: 'bbain\u0001', password: 'maarch' },
      { login: 'bbain', password: 'maarch\t' },
    ]) {
      const answer = await s.call('POST', '/rest/authenticate', {
        auth: null,
        body,
        headers: { 'x-forwarded-for': '203.0.113.49' },
      })
      expect([answer.status, answer.json], JSON.stringify(body)).toEqual([401, FAILED])
    }
    const nul = await s.call('POST', '/rest/authenticate', {
      auth: null,
      body: { login: 'bbain\0', password: 'maarch' },
    })
    expect([nul.status, nul.json]).toEqual([400, NUL])
  })

  it('counts them as failures: the throttle refuses the address past its limit, as for wrong passwords', async () => {
    const from = { 'x-forwarded-for': '203.0.113.51' }
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await s.call('GET', '/rest/entities/PJS', {
        auth: null,
        headers: { ...from, ...basic('ppetit\0:x') },
      })
      expect([answer.status, answer.json]).toEqual([401, FAILED])
    }
    const refused = await s.call('GET', '/rest/entities/PJS', {
      auth: null,
      headers: { ...from, ...basic('ppetit\0:x') },
    })
    expect([refused.status, refused.json]).toEqual([429, THROTTLED])
    // Only what was sent is refused: the user's own password, from the same address, still signs in.
    const own = await s.call('GET', '/rest/entities/PJS', { auth: 'ppetit:maarch', headers: from })
    expect(own.status).toBe(200)
  })
})
