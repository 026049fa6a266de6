import type { Actor, CriteriaSearchResponse } from '@mailroom/core'
import { isDomainError } from '@mailroom/core'
import fc from 'fast-check'
import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { criteriaBodyArbitrary } from '../../../testing/src/arbitraries/criteria-arbitrary.js'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { DEMO_USERS, type DemoUser, seedSearchDataset } from '../../../testing/src/fixtures/search-test-dataset.js'

/**
 * A search answer depends on the records the caller may see, never on the others: the criteria 20.10 checks
 * before its search (notes, senders and recipients, tags, folders, roles, senders' departments, a contact's
 * company in a custom field) are checked within the perimeter, so that whether `filters` comes back tells
 * nothing of a record outside it. Demo users with records outside their perimeter: bbain (AGENT, PJS and PE),
 * bblier (RESPONSABLE, DGS and below), ddur (CONSULT, `1=0`).
 */
let t: TestMailroom
let db: Kysely<any>
const actors = new Map<string, Actor>()
/** A custom field of type contact (its company criterion is pre-checked). */
const CONTACT_FIELD = 951

/** Where a record lies outside each user's perimeter (group clause), typed by superadmin, naming nobody. */
const OUTSIDE_DESTINATION: Readonly<Record<string, string>> = { bbain: 'DSI', bblier: 'VILLE', ddur: 'VILLE' }

beforeAll(async () => {
  t = await createTestMailroom()
  db = t.mailroom.db
  await seedSearchDataset(t.mailroom.db, t.documents)
  for (const user of DEMO_USERS)
    actors.set(user.login, (await t.mailroom.auth.authenticatePassword(user.login, user.password))!)
  await sql`insert into custom_fields (id, label, type, "values") values (${CONTACT_FIELD}, 'Tiers', 'contact', '[]')`.execute(
    db,
  )
}, 300_000)
afterAll(async () => t?.cleanup())

/** The answer, or the refusal as a value, so that both compare. */
async function answerOf(login: string, body: unknown): Promise<CriteriaSearchResponse | string> {
  try {
    return await t.mailroom.criteriaSearch.search(actors.get(login)!, body, { limit: '1000' })
  } catch (error) {
    if (isDomainError(error)) return `${error.kind}: ${error.message}`
    throw error
  }
}

async function record(destination: string, customFields: Record<string, unknown> = {}): Promise<number> {
  const { rows } = await sql<{ res_id: number }>`insert into res_letterbox
      (subject, type_id, typist, category_id, model_id, status, destination, custom_fields)
    values ('decoy', 101, 1, 'incoming', 1, 'NEW', ${destination}, ${JSON.stringify(customFields)}::jsonb)
    returning res_id`.execute(db)
  return Number(rows[0]!.res_id)
}

async function contact(company: string, postcode: string | null = null): Promise<number> {
  const { rows } = await sql<{ id: number }>`insert into contacts (company, lastname, address_postcode)
    values (${company}, 'Decoy', ${postcode}) returning id`.execute(db)
  return Number(rows[0]!.id)
}

async function correspondent(resId: number, item: { id: number; type: string }, mode: string): Promise<void> {
  await sql`insert into resource_contacts (res_id, item_id, type, mode) values (${resId}, ${item.id}, ${item.type}, ${mode})`.execute(
    db,
  )
}

async function note(resId: number, text: string): Promise<void> {
  await sql`insert into notes (identifier, user_id, note_text) values (${resId}, 1, ${text})`.execute(db)
}

/** A diffusion-list entry of the role as 20.10's `role_<role>` reads it (sign: signatory, visa: circuit). */
async function roleEntry(resId: number, role: string, item: { id: number; type: 'user' | 'entity' }): Promise<void> {
  await sql`insert into listinstance (res_id, item_id, item_type, item_mode, difflist_type, signatory)
    values (${resId}, ${item.id}, ${item.type === 'user' ? 'user_id' : 'entity_id'}, ${role},
      ${role === 'visa' ? 'VISA_CIRCUIT' : 'entity_id'}, ${role === 'sign'})`.execute(db)
}

async function forget(resIds: readonly number[], contactIds: readonly number[] = []): Promise<void> {
  if (resIds.length > 0) {
    const ids = sql`${sql.val(resIds)}::bigint[]`
    for (const table of ['resources_folders', 'resources_tags', 'listinstance', 'resource_contacts'])
      await sql`delete from ${sql.table(table)} where res_id = any(${ids})`.execute(db)
    await sql`delete from notes where identifier = any(${ids})`.execute(db)
    await sql`delete from res_letterbox where res_id = any(${ids})`.execute(db)
  }
  if (contactIds.length > 0) await sql`delete from contacts where id = any(${sql.val(contactIds)}::int[])`.execute(db)
}

const EARLY_EMPTY = { resources: [], count: 0, allResources: [] }

describe('POST /rest/search: what a pre-checked criterion finds outside the perimeter changes nothing', () => {
  /** Each pre-checked criterion with what makes a record match it (the text `oraclek`, or an id no record holds). */
  const cases: {
    name: string
    body: (contact?: number) => unknown
    /** Makes the record match; returns the contact made for it, if any. */
    give: (resId: number) => Promise<unknown>
  }[] = [
    {
      name: 'notes',
      body: () => ({ notes: { values: 'oraclek' } }),
      give: async (resId) => {
        await note(resId, 'le mot oraclek ici')
      },
    },
    {
      name: 'senders (a contact)',
      body: (id?: number) => ({ senders: { values: [{ id, type: 'contact' }] } }),
      give: async (resId) => {
        const id = await contact('Nobody Else')
        await correspondent(resId, { id, type: 'contact' }, 'sender')
        return id
      },
    },
    {
      name: 'senders (a company)',
      body: () => ({ senders: { values: ['Oraclek Holding'] } }),
      give: async (resId) => {
        const id = await contact('Oraclek Holding')
        await correspondent(resId, { id, type: 'contact' }, 'sender')
        return id
      },
    },
    {
      name: 'recipients (a contact)',
      body: (id?: number) => ({ recipients: { values: [{ id, type: 'contact' }] } }),
      give: async (resId) => {
        const id = await contact('Nobody Else')
        await correspondent(resId, { id, type: 'contact' }, 'recipient')
        return id
      },
    },
    {
      name: 'tags',
      body: () => ({ tags: { values: [3] } }),
      give: async (resId) => {
        await sql`insert into resources_tags (res_id, tag_id) values (${resId}, 3)`.execute(db)
      },
    },
    {
      name: 'folders',
      body: () => ({ folders: { values: [2] } }),
      give: async (resId) => {
        await sql`insert into resources_folders (res_id, folder_id) values (${resId}, 2)`.execute(db)
      },
    },
    ...(['dest', 'cc', 'sign', 'visa'] as const).map((role) => ({
      name: `role_${role}`,
      body: () => ({ [`role_${role}`]: { values: [{ id: 2, type: 'user' }] } }),
      give: async (resId: number) => {
        await roleEntry(resId, role, { id: 2, type: 'user' })
      },
    })),
    {
      name: 'role_avis (an entity)',
      body: () => ({ role_avis: { values: [{ id: 4, type: 'entity' }] } }),
      give: async (resId) => {
        await roleEntry(resId, 'avis', { id: 4, type: 'entity' })
      },
    },
    {
      name: 'senderDepartment',
      body: () => ({ senderDepartment: { values: ['2'] } }),
      give: async (resId) => {
        const id = await contact('Nobody Else', '20000')
        await correspondent(resId, { id, type: 'contact' }, 'sender')
        return id
      },
    },
    {
      name: 'indexingCustomField (a contact field, by company)',
      body: () => ({ [`indexingCustomField_${CONTACT_FIELD}`]: { values: ['Oraclek Conseil'] } }),
      give: async (resId) => {
        const id = await contact('Oraclek Conseil')
        await sql`update res_letterbox set custom_fields = ${JSON.stringify({ [CONTACT_FIELD]: [{ id, type: 'contact' }] })}::jsonb
          where res_id = ${resId}`.execute(db)
        return id
      },
    },
  ]

  for (const criterion of cases) {
    it(`${criterion.name}: as bbain, a match outside her perimeter answers as no match anywhere; inside, it is found`, async () => {
      const outside = await record('DSI')
      const inside = await record('PJS')
      const contacts: number[] = []
      try {
        const given = await criterion.give(outside)
        if (typeof given === 'number') contacts.push(given)
        const body = criterion.body(given as number | undefined)
        // The record does match: superadmin finds it.
        expect(((await answerOf('superadmin', body)) as CriteriaSearchResponse).allResources).toEqual([outside])
        expect(await answerOf('bbain', body)).toEqual(EARLY_EMPTY)
        // Within her perimeter, the criterion still finds the record, with the facets.
        await forget([outside])
        const own = await criterion.give(inside)
        if (typeof own === 'number') contacts.push(own)
        const found = (await answerOf('bbain', criterion.body(own as number | undefined))) as CriteriaSearchResponse
        expect(found.allResources).toEqual([inside])
        expect(found.filters?.statuses.values).toEqual([expect.objectContaining({ id: 'NEW', count: 1 })])
      } finally {
        await forget([outside, inside], contacts)
      }
    })
  }

  it('notes: the answer to a value only held outside equals the answer to a value held nowhere (the reported case)', async () => {
    const outside = await record('DSI')
    try {
      await note(outside, 'oraclek')
      expect(await answerOf('bbain', { notes: { values: 'oraclek' } })).toEqual(
        await answerOf('bbain', { notes: { values: 'zzqqxxnowhere' } }),
      )
      // Letter by letter: no prefix of the note tells either.
      for (const prefix of ['o', 'or', 'ora', 'oraclek', 'oraclex'])
        expect(await answerOf('bbain', { notes: { values: prefix } }), prefix).toEqual(EARLY_EMPTY)
    } finally {
      await forget([outside])
    }
  })
})

/** A demo user's perimeter holds a record naming `item` on its diffusion list. */
function namesUser(user: DemoUser, item: { id: number; type: string }): boolean {
  return item.type === 'user' ? item.id === user.id : user.entityIds.includes(item.id)
}

/**
 * Makes a record outside `user`'s perimeter that matches as much of the body as it can without entering that
 * perimeter: the notes' text, every correspondent, company and department, the tags and folders, the roles'
 * items but the user and the user's entities, the chrono, subject and barcode. Returns what to delete.
 */
async function decoyFor(user: DemoUser, body: Record<string, { values: any }>) {
  const resId = await record(OUTSIDE_DESTINATION[user.login]!)
  const contacts: number[] = []
  const tags = new Set((await sql<{ id: number }>`select id from tags`.execute(db)).rows.map((row) => Number(row.id)))
  const folders = new Set(
    (await sql<{ id: number }>`select id from folders`.execute(db)).rows.map((row) => Number(row.id)),
  )
  for (const [name, { values }] of Object.entries(body)) {
    if (name === 'notes') await note(resId, String(values))
    else if (name === 'senders' || name === 'recipients') {
      const mode = name === 'senders' ? 'sender' : 'recipient'
      for (const value of values as unknown[]) {
        if (typeof value === 'string') {
          const id = await contact(value)
          contacts.push(id)
          await correspondent(resId, { id, type: 'contact' }, mode)
        } else await correspondent(resId, value as { id: number; type: string }, mode)
      }
    } else if (name === 'tags' || name === 'folders') {
      const known = name === 'tags' ? tags : folders
      for (const id of new Set((values as (number | null)[]).filter((v): v is number => v !== null && known.has(v)))) {
        if (name === 'tags') await sql`insert into resources_tags (res_id, tag_id) values (${resId}, ${id})`.execute(db)
        else await sql`insert into resources_folders (res_id, folder_id) values (${resId}, ${id})`.execute(db)
      }
    } else if (name.startsWith('role_')) {
      for (const item of values as ({ id: number; type: 'user' | 'entity' } | null)[])
        if (item !== null && !namesUser(user, item)) await roleEntry(resId, name.slice('role_'.length), item)
    } else if (name === 'senderDepartment') {
      for (const department of values as (string | number | null)[]) {
        const id = await contact('Decoy', department === null ? null : `${department}000`)
        contacts.push(id)
        await correspondent(resId, { id, type: 'contact' }, 'sender')
      }
    } else if (name === 'subject' || name === 'meta') {
      await sql`update res_letterbox set subject = ${String(values)} where res_id = ${resId}`.execute(db)
    } else if (name === 'chrono' || name === 'barcode') {
      // Both are unique: the text, then the decoy's id (a chrono or barcode holding the text).
      const column = name === 'chrono' ? 'alt_identifier' : 'barcode'
      await sql`update res_letterbox set ${sql.ref(column)} = ${`${String(values).slice(0, 200)} ${resId}`}
        where res_id = ${resId}`.execute(db)
    }
  }
  return { resId, contacts }
}

describe('POST /rest/search answers alike whether or not records outside the perimeter match (property)', () => {
  const outsiders = DEMO_USERS.filter((user) => user.login in OUTSIDE_DESTINATION)

  it('status, body, keys, counts and facets are the same before and after a matching record is added outside', async () => {
    await fc.assert(
      fc.asyncProperty(criteriaBodyArbitrary, fc.constantFrom(...outsiders), async (body, user) => {
        const before = await answerOf(user.login, body)
        const decoy = await decoyFor(user, body)
        try {
          expect(await answerOf(user.login, body)).toEqual(before)
          // The decoy is outside the user's perimeter: it never shows.
          if (typeof before !== 'string') expect(before.allResources).not.toContain(decoy.resId)
        } finally {
          await forget([decoy.resId], decoy.contacts)
        }
      }),
      { numRuns: 60 },
    )
  })
})
