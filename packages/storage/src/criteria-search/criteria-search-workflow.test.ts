import type { Actor, CriteriaSearchResponse } from '@mailroom/core'
import { isDomainError } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'

/**
 * The criteria of 20.10's search form that read the diffusion list (`role_*`, `groupSign`), the senders'
 * addresses (`senderDepartment`), registered mail and custom fields (`indexingCustomField_*`), on a few records
 * made for them. Demo users: bbain (3, entity PJS 6), ppetit (5), ddur (6, perimeter 1=0).
 */
let t: TestMailroom
const actors = new Map<string, Actor>()
const r = { a: 0, b: 0, c: 0, d: 0, outside: 0 }
/** The demo group of ppetit (RESPONSABLE) and of bbain (AGENT), by serial id. */
let ppetitGroup = 0
let bbainGroup = 0

async function record(subject: string, destination: string, customFields: Record<string, unknown> = {}) {
  const { rows } = await sql<{ res_id: number }>`insert into res_letterbox
      (subject, type_id, typist, category_id, model_id, status, destination, custom_fields)
    values (${subject}, 101, 1, 'incoming', 1, 'NEW', ${destination}, ${JSON.stringify(customFields)}::jsonb)
    returning res_id`.execute(t.mailroom.db)
  return Number(rows[0]!.res_id)
}

async function entry(
  resId: number,
  item: { id: number; type: 'user_id' | 'entity_id' },
  mode: string,
  extra: { signatory?: boolean; requested?: boolean; processed?: boolean; delegate?: number; circuit?: boolean } = {},
) {
  await sql`insert into listinstance (res_id, item_id, item_type, item_mode, difflist_type, signatory,
      requested_signature, process_date, delegate)
    values (${resId}, ${item.id}, ${item.type}, ${mode}, ${extra.circuit ? 'VISA_CIRCUIT' : 'entity_id'},
      ${extra.signatory ?? false}, ${extra.requested ?? false}, ${extra.processed ? sql`now()` : null},
      ${extra.delegate ?? null})`.execute(t.mailroom.db)
}

async function sender(resId: number, postcode: string | null, company: string) {
  const { rows } = await sql<{ id: number }>`insert into contacts (company, lastname, address_postcode)
    values (${company}, 'Contact', ${postcode}) returning id`.execute(t.mailroom.db)
  await sql`insert into resource_contacts (res_id, item_id, type, mode)
    values (${resId}, ${rows[0]!.id}, 'contact', 'sender')`.execute(t.mailroom.db)
  return Number(rows[0]!.id)
}

let contactAlpha = 0

beforeAll(async () => {
  t = await createTestMailroom()
  const db = t.mailroom.db
  for (const [login, password] of [
    ['superadmin', 'superadmin'],
    ['bbain', 'maarch'],
    ['ddur', 'maarch'],
  ] as const)
    actors.set(login, (await t.mailroom.auth.authenticatePassword(login, password))!)
  const groupOf = async (userId: number) =>
    Number(
      (
        await db
          .selectFrom('usergroup_content')
          .select('group_id')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).group_id,
    )
  ppetitGroup = await groupOf(5)
  bbainGroup = await groupOf(3)
  await sql`insert into custom_fields (id, label, type, "values") values
    (901, 'Référence', 'string', '[]'), (902, 'Montant', 'integer', '[]'), (903, 'Nature', 'select', '["Fax", "Courriel"]'),
    (904, 'Échéance', 'date', '[]'), (905, 'Canaux', 'checkbox', '["Fax", "Courriel", "Oral"]'),
    (906, 'Adresse', 'banAutocomplete', '[]'), (907, 'Tiers', 'contact', '[]')`.execute(db)
  // a: bbain is dest, PJS in copy, ppetit signatory, sender in the Bouches-du-Rhône.
  r.a = await record('a', 'PJS', {
    '901': 'REF-2026-Été',
    '902': 1500,
    '903': 'Fax',
    '904': '2026-03-15',
    '905': ['Fax', 'Oral'],
    '906': [{ id: '13055_1234', label: 'Marseille' }],
  })
  await entry(r.a, { id: 3, type: 'user_id' }, 'dest')
  await entry(r.a, { id: 6, type: 'entity_id' }, 'cc')
  await entry(r.a, { id: 5, type: 'user_id' }, 'sign', { signatory: true, circuit: true })
  contactAlpha = await sender(r.a, '13001', 'Alpha Conseil')
  // b: ppetit dest (bbain as delegate), a visa by ddur still to do, sender in Paris.
  r.b = await record('b', 'PJS', { '901': 'Autre référence', '902': '80', '903': 'Courriel', '904': 'pas une date' })
  await entry(r.b, { id: 5, type: 'user_id' }, 'dest', { delegate: 3 })
  await entry(r.b, { id: 6, type: 'user_id' }, 'visa', { circuit: true })
  await sender(r.b, '75002', 'Beta')
  // c: no dest; ddur's visa done (requested signature, processed); a sender without postcode; a contact field.
  r.c = await record('c', 'PJS', { '907': [{ id: contactAlpha, type: 'contact' }] })
  await entry(r.c, { id: 6, type: 'user_id' }, 'visa', { circuit: true, requested: true, processed: true })
  await sender(r.c, null, 'Gamma')
  // d: nothing.
  r.d = await record('d', 'PJS')
  // outside bbain's perimeter (DRH), bbain in copy of nothing there, ppetit dest.
  r.outside = await record('outside', 'DSI', { '901': 'REF-2026-Été' })
  await entry(r.outside, { id: 5, type: 'user_id' }, 'dest')
  await sender(r.outside, '13100', 'Delta')
}, 120_000)
afterAll(async () => t?.cleanup())

function search(login: string, body: unknown): Promise<CriteriaSearchResponse> {
  return t.mailroom.criteriaSearch.search(actors.get(login)!, body, { limit: '100' })
}

async function found(body: unknown, login = 'superadmin'): Promise<number[]> {
  const answer = await search(login, body)
  return [...answer.allResources].sort((x, y) => x - y)
}

async function refusal(body: unknown): Promise<string> {
  const error = await search('superadmin', body).catch((e) => e)
  return isDomainError(error) ? `${error.kind}: ${error.message}` : String(error)
}

const EARLY_EMPTY = { resources: [], count: 0, allResources: [] }

describe('role_* criteria (the diffusion list)', () => {
  it('finds the records where a user or an entity holds the role, a user also as delegate', async () => {
    expect(await found({ role_dest: { values: [{ id: 3, type: 'user' }] } })).toEqual([r.a, r.b])
    expect(await found({ role_dest: { values: [{ id: 5, type: 'user' }] } })).toEqual([r.b, r.outside])
    expect(await found({ role_cc: { values: [{ id: 6, type: 'entity' }] } })).toEqual([r.a])
    // The entity 6 is PJS; user 6 (ddur) is no entity: types are not mixed.
    expect(
      await found({
        role_cc: {
          values: [
            { id: '6', type: 'user' },
            { id: 3, type: 'entity' },
          ],
        },
      }),
    ).toEqual([])
  })

  it('reads sign as the signatories and visa as the visas not yet signed off, as 20.10', async () => {
    expect(await found({ role_sign: { values: [{ id: 5, type: 'user' }] } })).toEqual([r.a])
    expect(await found({ role_visa: { values: [{ id: 6, type: 'user' }] } })).toEqual([r.b, r.c])
  })

  it('reads null as records without that role, alone or beside items', async () => {
    const noDest = await found({ role_dest: { values: [null] } })
    expect(noDest).toEqual(expect.arrayContaining([r.c, r.d]))
    expect(noDest).not.toContain(r.a)
    const both = await found({ role_dest: { values: [{ id: 3, type: 'user' }, null] } })
    expect(both).toEqual(expect.arrayContaining([r.a, r.b, r.c, r.d]))
    expect(both).not.toContain(r.outside)
  })

  it('stays within the perimeter, and answers 20.10s early empty answer when the role names nobody at all', async () => {
    expect(await found({ role_dest: { values: [{ id: 5, type: 'user' }] } }, 'bbain')).toEqual([r.b])
    // ddur's groups grant nothing; the visa on b puts b in ddur's perimeter (the diffusion list names ddur).
    expect(await found({ role_dest: { values: [{ id: 5, type: 'user' }] } }, 'ddur')).toEqual([r.b])
    expect(await search('superadmin', { role_avis: { values: [{ id: 1, type: 'user' }] } })).toEqual(EARLY_EMPTY)
  })

  it('answers 400 naming the criterion for items that are not {id, type}', async () => {
    const message =
      'bad-request: Body role_dest values must be a non-empty array of {id, type} (type user or entity) or null'
    expect(await refusal({ role_dest: { values: [3] } })).toBe(message)
    expect(await refusal({ role_dest: { values: [{ id: 3, type: 'contact' }] } })).toBe(message)
    expect(await refusal({ role_dest: { values: [] } })).toBe(message)
    expect(await refusal({ 'role_dest; drop': { values: [null] } })).toBe(
      'bad-request: Body role_dest; drop is not a search criterion',
    )
  })
})

describe('groupSign and senderDepartment', () => {
  it('finds records whose signatory belongs to a group (null: to none)', async () => {
    expect(await found({ groupSign: { values: [ppetitGroup] } })).toEqual([r.a])
    expect(await found({ groupSign: { values: [bbainGroup] } })).toEqual(bbainGroup === ppetitGroup ? [r.a] : [])
    expect(await found({ groupSign: { values: [null] } })).toEqual([])
  })

  it('finds records whose contact sender has a postcode in the department (null: none), else the early empty answer', async () => {
    expect(await found({ senderDepartment: { values: ['13'] } })).toEqual([r.a, r.outside])
    expect(await found({ senderDepartment: { values: [75, '13'] } })).toEqual([r.a, r.b, r.outside])
    expect(await found({ senderDepartment: { values: [null] } })).toEqual([r.c])
    expect(await found({ senderDepartment: { values: ['13'] } }, 'bbain')).toEqual([r.a])
    expect(await search('superadmin', { senderDepartment: { values: ['2'] } })).toEqual(EARLY_EMPTY)
    expect(await refusal({ senderDepartment: { values: ['2A'] } })).toBe(
      'bad-request: Body senderDepartment values must be a non-empty array of departments (digits, as postcodes start) or null',
    )
  })
})

describe('registeredMail_* criteria', () => {
  it('answer what 20.10 answers an installation without registered mail: the early empty answer', async () => {
    for (const body of [
      { registeredMail_reference: { values: '2C' } },
      { registeredMail_issuingSite: { values: [1] } },
      { registeredMail_receivedDate: { values: { start: '2020-01-01' } } },
      { registeredMail_recipient: { values: [{ id: 1, type: 'contact' }] } },
      { registeredMail_recipient: { values: ['Alpha'] } },
    ])
      expect(await search('superadmin', body)).toEqual(EARLY_EMPTY)
    expect(await refusal({ registeredMail_issuingSite: { values: 'x' } })).toBe(
      'bad-request: Body registeredMail_issuingSite values must be a non-empty array of issuing site ids (integers)',
    )
    expect(await refusal({ registeredMail_nope: { values: 'x' } })).toBe(
      'bad-request: Body registeredMail_nope is not a search criterion',
    )
  })
})

describe('indexingCustomField_* criteria', () => {
  it('compares each field by its type', async () => {
    expect(await found({ indexingCustomField_901: { values: 'ref ete' } })).toEqual([r.a, r.outside])
    expect(await found({ indexingCustomField_901: { values: '"Autre référence"' } })).toEqual([r.b])
    expect(await found({ indexingCustomField_901: { values: '"autre référence"' } })).toEqual([])
    expect(await found({ indexingCustomField_902: { values: { start: 100 } } })).toEqual([r.a])
    expect(await found({ indexingCustomField_902: { values: { start: '50', end: 1500 } } })).toEqual([r.a, r.b])
    expect(await found({ indexingCustomField_903: { values: ['Courriel'] } })).toEqual([r.b])
    const fieldEmpty = await found({ indexingCustomField_903: { values: ['Fax', null] } })
    expect(fieldEmpty).toEqual(expect.arrayContaining([r.a, r.c, r.d]))
    expect(fieldEmpty).not.toContain(r.b)
    // A stored value that is not a date matches no range rather than failing the search.
    expect(await found({ indexingCustomField_904: { values: { start: '2026-03-15', end: '2026-03-15' } } })).toEqual([
      r.a,
    ])
    expect(await found({ indexingCustomField_904: { values: { end: '2026-03-14' } } })).toEqual([])
    expect(await found({ indexingCustomField_905: { values: ['Oral', 'Courriel'] } })).toEqual([r.a])
    expect(await found({ indexingCustomField_906: { values: [{ id: '13055_1234' }] } })).toEqual([r.a])
    expect(await found({ indexingCustomField_907: { values: [{ id: contactAlpha, type: 'contact' }] } })).toEqual([r.c])
    expect(await found({ indexingCustomField_907: { values: ['alpha'] } })).toEqual([r.c])
    expect(await search('superadmin', { indexingCustomField_907: { values: ['Nobody'] } })).toEqual(EARLY_EMPTY)
  })

  it('stays within the perimeter', async () => {
    // REF is in REF-2026-Été and, accents ignored, in Autre référence; not outside bbain's perimeter.
    expect(await found({ indexingCustomField_901: { values: 'REF' } }, 'bbain')).toEqual([r.a, r.b])
    expect(await found({ indexingCustomField_901: { values: 'REF' } })).toEqual([r.a, r.b, r.outside])
  })

  it('answers 400 naming the criterion for an unknown field or values of the wrong type', async () => {
    expect(await refusal({ indexingCustomField_99: { values: 'x' } })).toBe(
      'bad-request: Body indexingCustomField_99 names no custom field of this installation',
    )
    expect(await refusal({ indexingCustomField_902: { values: 'x' } })).toBe(
      'bad-request: Body indexingCustomField_902 values must be an object {start, end} of integers (at least one)',
    )
    expect(await refusal({ indexingCustomField_904: { values: { start: '15/03/2026' } } })).toBe(
      'bad-request: Body indexingCustomField_904 values must be an object {start, end} of dates YYYY-MM-DD (at least one)',
    )
  })

  it("binds the caller's text: a quote or a wildcard in it is matched as text", async () => {
    expect(await found({ indexingCustomField_901: { values: "%' or '1'='1" } })).toEqual([])
    expect(await found({ indexingCustomField_901: { values: 'REF_2026' } })).toEqual([])
  })
})
