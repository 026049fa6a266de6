import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

const countContacts = async () =>
  Number(
    (
      await s.mailroom.db
        .selectFrom('contacts')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )

describe('contacts', () => {
  it('creates a contact with every field and reads it back', async () => {
    const body = {
      civility: 'title2',
      firstname: 'Annie',
      lastname: 'Capture',
      company: 'Piscine municipale',
      department: 'Sports',
      function: 'Directrice',
      addressNumber: '12',
      addressStreet: 'rue des Bains',
      addressAdditional1: 'Bâtiment B',
      addressAdditional2: 'Porte 3',
      addressPostcode: '99000',
      addressTown: 'Maarch-les-Bains',
      addressCountry: 'France',
      email: 'annie.capture@example.org',
      phone: '+33 1 02 03 04 05',
      communicationMeans: 'https://courrier.example.org',
      notes: 'Saisie par le poste de numérisation',
      externalId: { m2m: '21750001600019/PISCINE' },
    }
    const created = await s.call('POST', '/rest/contacts', { auth: 'cchaplin:maarch', body })
    expect(created.status).toBe(200)
    expect(created.json).toEqual({ id: expect.any(Number), warning: '' })
    const read = await s.call('GET', `/rest/contacts/${created.json.id}`, { auth: 'ddur:maarch' })
    expect(read.status).toBe(200)
    const { civility, communicationMeans, externalId, ...rest } = body
    expect(read.json).toMatchObject({
      ...rest,
      id: created.json.id,
      civility: { id: 'title2', label: 'Madame', abbreviation: 'Mme' },
      communicationMeans: 'https://courrier.example.org',
      externalId,
      customFields: [],
      creatorLabel: 'Charlie CHAPLIN',
      enabled: true,
      modificationDate: null,
      fillingRate: { rate: 100, thresholdLevel: 'third' },
    })
    expect(Number.isNaN(Date.parse(read.json.creationDate))).toBe(false)
  })

  it('refuses a duplicate e-mail address with 409 unless allowDuplicateMail=true', async () => {
    const body = { lastname: 'Doublon', email: 'JEAN.DUPONT@example.org' }
    const before = await countContacts()
    const refused = await s.call('POST', '/rest/contacts', { auth: 'cchaplin:maarch', body })
    expect(refused.status).toBe(409)
    expect(refused.json.errors).toContain('(id 1)')
    expect(await countContacts()).toBe(before)
    const allowed = await s.call('POST', '/rest/contacts?allowDuplicateMail=true', { auth: 'cchaplin:maarch', body })
    expect(allowed.status).toBe(200)
    expect(await countContacts()).toBe(before + 1)
  })

  it('lets one of many concurrent creates of one e-mail address through, the others get 409', async () => {
    const body = { lastname: 'Concurrent', email: 'Same.Time@example.org' }
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => s.call('POST', '/rest/contacts', { auth: 'cchaplin:maarch', body })),
    )
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409])
    const stored = await s.mailroom.db
      .selectFrom('contacts')
      .select('id')
      .where('email', '=', 'Same.Time@example.org')
      .execute()
    expect(stored).toHaveLength(1)
  })

  it('refuses 10,000-character fields with a 400 naming the field, and stores nothing', async () => {
    const before = await countContacts()
    const long = 'x'.repeat(10_000)
    for (const field of ['firstname', 'department', 'addressAdditional1', 'addressAdditional2', 'addressCountry']) {
      const r = await s.call('POST', '/rest/contacts', {
        auth: 'cchaplin:maarch',
        body: { lastname: 'Long', [field]: long },
      })
      expect([r.status, r.json]).toEqual([400, { errors: `Body ${field} length is not valid (1..256)` }])
      const u = await s.call('PUT', '/rest/contacts/2', {
        auth: 'cchaplin:maarch',
        body: { company: 'Alpha', [field]: long },
      })
      expect([u.status, u.json]).toEqual([400, { errors: `Body ${field} length is not valid (1..256)` }])
    }
    const every = Object.fromEntries(
      ['civility', 'firstname', 'lastname', 'company', 'notes', 'addressTown'].map((field) => [field, long]),
    )
    expect((await s.call('POST', '/rest/contacts', { auth: 'cchaplin:maarch', body: every })).status).toBe(400)
    const notes = await s.call('POST', '/rest/contacts', {
      auth: 'cchaplin:maarch',
      body: { lastname: 'Notes', notes: 'n'.repeat(65_537) },
    })
    expect([notes.status, notes.json]).toEqual([400, { errors: 'Body notes length is not valid (0..65536)' }])
    expect(await countContacts()).toBe(before)
    expect((await s.call('GET', '/rest/contacts/2', { auth: 'cchaplin:maarch' })).json.company).toBe('Société Alpha')
  })

  it('checks privileges: create and update need their service, the list admin_contacts', async () => {
    const denied = { errors: 'Service forbidden' }
    for (const [method, path] of [
      ['POST', '/rest/contacts'],
      ['PUT', '/rest/contacts/1'],
      ['GET', '/rest/contacts'],
    ] as const) {
      const r = await s.call(method, path, {
        auth: 'ddur:maarch',
        ...(method === 'GET' ? {} : { body: { lastname: 'Interdit' } }),
      })
      expect([method, r.status, r.json]).toEqual([method, 403, denied])
    }
    expect((await s.call('GET', '/rest/contacts', { auth: 'bbain:maarch' })).status).toBe(403)
    expect((await s.call('GET', '/rest/contacts', { auth: 'superadmin:superadmin' })).status).toBe(200)
  })

  it('answers 400 naming offset or limit when they are not whole numbers in range', async () => {
    for (const query of ['limit=-1', 'limit=abc', 'limit=1001', 'offset=-5', 'offset=1.5']) {
      const r = await s.call('GET', `/rest/contacts?${query}`, { auth: 'superadmin:superadmin' })
      expect(r.status).toBe(400)
      expect(r.json.errors).toMatch(new RegExp(`^Query ${query.split('=')[0]} must be an integer`))
    }
    const past = await s.call('GET', '/rest/contacts?offset=1000', { auth: 'superadmin:superadmin' })
    expect(past.json.contacts).toEqual([])
    expect(past.json.count).toBeGreaterThanOrEqual(3)
  })

  it('finds a contact by e-mail address or phone number, {} when none matches', async () => {
    const byMail = await s.call('GET', '/rest/getContactByMail?mail=Jean.Dupont%40example.org', {
      auth: 'cchaplin:maarch',
    })
    expect([byMail.status, byMail.json.id, byMail.json.lastname]).toEqual([200, 1, 'Dupont'])
    const byPhone = await s.call('GET', '/rest/getContactByPhone?phone=0102030405', { auth: 'cchaplin:maarch' })
    expect([byPhone.status, byPhone.json.id]).toEqual([200, 1])
    const dotted = await s.call('GET', '/rest/getContactByPhone?phone=01.02.03.04.05', { auth: 'cchaplin:maarch' })
    expect(dotted.json.id).toBe(1)
    for (const path of [
      '/rest/getContactByMail?mail=nobody%40example.org',
      '/rest/getContactByPhone?phone=0999999999',
    ]) {
      const none = await s.call('GET', path, { auth: 'cchaplin:maarch' })
      expect([none.status, none.json]).toEqual([200, {}])
    }
    const missing = await s.call('GET', '/rest/getContactByMail', { auth: 'cchaplin:maarch' })
    expect([missing.status, missing.json]).toEqual([400, { errors: 'Query mail is not set or empty' }])
    const wildcard = await s.call('GET', '/rest/getContactByMail?mail=%25', { auth: 'cchaplin:maarch' })
    expect(wildcard.json).toEqual({})
  })

  it('replaces every column on update: what the body leaves out becomes null', async () => {
    const created = await s.call('POST', '/rest/contacts', {
      auth: 'cchaplin:maarch',
      body: {
        lastname: 'Avant',
        firstname: 'Paul',
        email: 'paul.avant@example.org',
        communicationMeans: 'paul@example.org',
      },
    })
    const id = created.json.id
    const updated = await s.call('PUT', `/rest/contacts/${id}`, {
      auth: 'bbain:maarch',
      body: { company: 'Après', communicationMeans: 'not a means' },
    })
    expect([updated.status, updated.text]).toEqual([204, ''])
    const read = await s.call('GET', `/rest/contacts/${id}`, { auth: 'bbain:maarch' })
    expect(read.json).toMatchObject({
      lastname: null,
      firstname: null,
      company: 'Après',
      email: null,
      communicationMeans: null,
      customFields: null,
      creatorLabel: 'Charlie CHAPLIN',
    })
    expect(read.json.modificationDate).not.toBeNull()
    const unknown = await s.call('PUT', '/rest/contacts/99999', { auth: 'bbain:maarch', body: {} })
    expect(unknown.json).toEqual({ errors: 'Body is not set or empty' })
  })

  it('reads every contact a record names as sender or recipient', async () => {
    const named = await s.mailroom.db
      .selectFrom('resource_contacts')
      .select('item_id')
      .where('type', '=', 'contact')
      .distinct()
      .execute()
    const ids = new Set([1, 2, 3, ...named.map((row) => row.item_id)])
    for (const id of ids) {
      const r = await s.call('GET', `/rest/contacts/${id}`, { auth: 'ddur:maarch' })
      expect([id, r.status]).toEqual([id, 200])
    }
    const listed = await s.call('GET', '/rest/contacts?search=alpha', { auth: 'superadmin:superadmin' })
    expect(listed.json.contacts).toMatchObject([{ id: 2, company: 'Société Alpha' }])
  })

  it('takes search words as text, never as patterns', async () => {
    for (const search of ['%', '_', "' or 1=1 --", '\\']) {
      const r = await s.call('GET', `/rest/contacts?search=${encodeURIComponent(search)}`, {
        auth: 'superadmin:superadmin',
      })
      expect([search, r.status, r.json.count]).toEqual([search, 200, 0])
    }
  })

  it('refuses a search of more than 20 words with a 400, instead of searching the first 20', async () => {
    // 21 words the demo contact "Société Alpha" matches by its first only: cut at 20, it would be listed.
    const search = ['alpha', ...Array.from({ length: 19 }, () => 'alpha'), 'zzzz-absent'].join(' ')
    const r = await s.call('GET', `/rest/contacts?search=${encodeURIComponent(search)}`, {
      auth: 'superadmin:superadmin',
    })
    expect([r.status, r.json]).toEqual([400, { errors: 'Query search has more than 20 words' }])
    const twenty = await s.call(
      'GET',
      `/rest/contacts?search=${encodeURIComponent(search.replace(/ zzzz-absent$/, ''))}`,
      {
        auth: 'superadmin:superadmin',
      },
    )
    expect([twenty.status, twenty.json.contacts]).toMatchObject([200, [{ id: 2, company: 'Société Alpha' }]])
  })

  it('writes a history row for each create and update, as 20.10 does, and none for a refused body', async () => {
    const history = () =>
      s.mailroom.db
        .selectFrom('history')
        .select(['record_id', 'event_type', 'event_id', 'info', 'id_module', 'user_id'])
        .where('table_name', '=', 'contacts')
        .orderBy('id')
        .execute()
    const before = (await history()).length
    const created = await s.call('POST', '/rest/contacts', {
      auth: 'cchaplin:maarch',
      body: { firstname: 'Léa', lastname: 'Histoire', company: 'Archives' },
    })
    await s.call('PUT', `/rest/contacts/${created.json.id}`, { auth: 'cchaplin:maarch', body: { company: 'Archives' } })
    await s.call('PUT', `/rest/contacts/${created.json.id}`, { auth: 'cchaplin:maarch', body: { firstname: 'x' } })
    await s.call('PUT', '/rest/contacts/99999', { auth: 'cchaplin:maarch', body: { company: 'x' } })
    const rows = (await history()).slice(before)
    expect(rows).toEqual([
      {
        record_id: String(created.json.id),
        event_type: 'ADD',
        event_id: 'contactCreation',
        info: 'Contact créé : Léa Histoire (Archives)',
        id_module: 'contact',
        user_id: 2,
      },
      {
        record_id: String(created.json.id),
        event_type: 'UP',
        event_id: 'contactModification',
        info: 'Contact modifié : Archives',
        id_module: 'contact',
        user_id: 2,
      },
    ])
  })
})
