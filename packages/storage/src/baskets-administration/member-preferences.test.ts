import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'

/**
 * A group's members see the baskets given to it (migration 0026, as 20.10 writes `users_baskets_preferences`):
 * whichever way a basket is given or a member joins or leaves, the preference rows follow.
 */
let t: TestMailroom
const BASKET = 'MR53MemberBasket'

async function preferencesOf(basketId: string): Promise<{ user: number; group: number; display: boolean }[]> {
  const rows = await t.mailroom.db
    .selectFrom('users_baskets_preferences')
    .select(['user_serial_id', 'group_serial_id', 'display'])
    .where('basket_id', '=', basketId)
    .orderBy('user_serial_id')
    .execute()
  return rows.map((r) => ({ user: r.user_serial_id, group: r.group_serial_id, display: r.display }))
}

async function groupSerial(code: string): Promise<number> {
  const row = await t.mailroom.db.selectFrom('usergroups').select('id').where('group_id', '=', code).executeTakeFirst()
  if (row === undefined) throw new Error(`no group ${code}`)
  return row.id
}

beforeAll(async () => {
  t = await createTestMailroom()
  await t.mailroom.db
    .insertInto('baskets')
    .values({ basket_id: BASKET, basket_name: 'Courriers MR53', basket_clause: 'dest_user = @user_id' })
    .execute()
})
afterAll(async () => t?.cleanup())

describe("a group's baskets and its members' preferences", () => {
  it('gives every member of a group a shown preference when the group is given a basket', async () => {
    const agent = await groupSerial('AGENT')
    await t.mailroom.db.insertInto('groupbasket').values({ group_id: 'AGENT', basket_id: BASKET }).execute()
    // bbain (3) is the demo's one AGENT.
    expect(await preferencesOf(BASKET)).toEqual([{ user: 3, group: agent, display: true }])
  })

  it('gives a user who joins the group its baskets, and takes them back when the user leaves', async () => {
    const agent = await groupSerial('AGENT')
    await t.mailroom.db.insertInto('usergroup_content').values({ user_id: 6, group_id: agent, role: null }).execute()
    expect(await preferencesOf(BASKET)).toEqual([
      { user: 3, group: agent, display: true },
      { user: 6, group: agent, display: true },
    ])
    await t.mailroom.db.deleteFrom('usergroup_content').where('user_id', '=', 6).where('group_id', '=', agent).execute()
    expect(await preferencesOf(BASKET)).toEqual([{ user: 3, group: agent, display: true }])
  })

  it("keeps a member's own choice when the basket is given again", async () => {
    const agent = await groupSerial('AGENT')
    await t.mailroom.db
      .updateTable('users_baskets_preferences')
      .set({ display: false, color: '#123456' })
      .where('basket_id', '=', BASKET)
      .execute()
    await t.mailroom.db.deleteFrom('groupbasket').where('basket_id', '=', BASKET).execute()
    await t.mailroom.db.insertInto('groupbasket').values({ group_id: 'AGENT', basket_id: BASKET }).execute()
    expect(await preferencesOf(BASKET)).toEqual([{ user: 3, group: agent, display: false }])
  })

  it("lists the demo's baskets on its clerks' home pages", async () => {
    const home = await t.mailroom.baskets.home(await t.mailroom.actor('bbain'))
    const baskets = home.regroupedBaskets.flatMap((g) => g.baskets.map((b) => b.basket_id))
    expect(baskets).toContain('MyBasket')
  })
})
