import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { loadDemoData } from './demo-dataset.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
})
afterAll(async () => t?.cleanup())

const count = async (table: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(t.mailroom.db)).rows[0]!.n

describe('demo dataset', () => {
  it('loads exactly the contract counts', async () => {
    expect(await count('entities')).toBe(8)
    expect(await count('users')).toBe(6)
    expect(await count('usergroups')).toBe(6)
    expect(await count('status')).toBe(8)
    expect(await count('doctypes')).toBe(5)
    expect(await count('indexing_models')).toBe(4)
    expect(await count('priorities')).toBe(3)
    expect(await count('contacts')).toBe(3)
    expect(await count('folders')).toBe(2)
    expect(await count('tags')).toBe(3)
    expect(await count('custom_fields')).toBe(3)
    // The sample's baskets for the demo's groups, and the actions offered in them.
    expect(await count('baskets')).toBe(4)
    expect(await count('groupbasket')).toBe(6)
    expect(await count('actions')).toBe(5)
    expect(await count('actions_groupbaskets')).toBe(14)
  })

  it('keeps the contract ids, parents, logins and clauses', async () => {
    const db = t.mailroom.db
    const pjs = await db.selectFrom('entities').selectAll().where('entity_id', '=', 'PJS').executeTakeFirstOrThrow()
    expect(pjs).toMatchObject({ id: 6, parent_entity_id: 'DGS', entity_type: 'Service', enabled: 'Y' })
    const ville = await db.selectFrom('entities').selectAll().where('id', '=', 1).executeTakeFirstOrThrow()
    expect(ville).toMatchObject({
      entity_id: 'VILLE',
      business_id: '21750001600019',
      city: 'Maarch-les-Bains',
      zipcode: '99000',
      country: 'France',
      email: 'mairie@maarch-les-bains.fr',
    })
    const users = await db.selectFrom('users').select(['id', 'user_id', 'mode']).orderBy('id').execute()
    expect(users.map((u) => [u.id, u.user_id, u.mode])).toEqual([
      [1, 'superadmin', 'root_visible'],
      [2, 'cchaplin', 'rest'],
      [3, 'bbain', 'standard'],
      [4, 'bblier', 'standard'],
      [5, 'ppetit', 'standard'],
      [6, 'ddur', 'standard'],
    ])
    const agent = await db
      .selectFrom('security')
      .select('where_clause')
      .where('group_id', '=', 'AGENT')
      .executeTakeFirstOrThrow()
    expect(agent.where_clause).toBe('destination in (@my_entities, @subentities[@my_primary_entity])')
    const consult = await db
      .selectFrom('usergroups')
      .select('can_index')
      .where('group_id', '=', 'CONSULT')
      .executeTakeFirstOrThrow()
    expect(consult.can_index).toBe(false)
    const end = await db.selectFrom('status').select('is_closing').where('id', '=', 'END').executeTakeFirstOrThrow()
    expect(end.is_closing).toBe(true)
  })

  it('stores slow salted hashes, never the passwords', async () => {
    const rows = await t.mailroom.db.selectFrom('users').select('password').execute()
    for (const r of rows) expect(r.password).toMatch(/^scrypt\$\d+\$8\$1\$/)
    expect(new Set(rows.map((r) => r.password)).size).toBe(rows.length)
  })

  it('is not loaded twice', async () => {
    expect(
      await loadDemoData(t.mailroom.db, { hash: async () => 'x', verify: async () => false, needsRehash: () => false }),
    ).toBe(false)
    expect(await count('users')).toBe(6)
  })

  it('starts record identifiers at 1', async () => {
    const row = await sql<{
      v: number
    }>`select nextval(pg_get_serial_sequence('res_letterbox', 'res_id'))::int as v`.execute(t.mailroom.db)
    expect(row.rows[0]!.v).toBe(1)
  })
})
