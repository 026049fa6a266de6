import type { DomainError } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { writeBasketUsage } from './basket-usage.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom({ demo: false })
})
afterAll(async () => t?.cleanup())

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise
  } catch (error) {
    return error as DomainError
  }
  throw new Error('expected a refusal')
}

const ORGANISATION = {
  version: 1,
  entities: [{ id: 'COU', label: 'Courrier', shortLabel: 'COU', type: 'Service' }],
  groups: [
    { id: 'AGENT', label: 'Agent' },
    { id: 'RESPONSABLE', label: 'Responsable' },
  ],
  users: [
    { login: 'bbain', groups: ['AGENT'], entities: [{ id: 'COU', primary: true }] },
    { login: 'ppetit', groups: ['AGENT', 'RESPONSABLE'] },
  ],
  statuses: [
    { id: 'NEW', label: 'Nouveau' },
    { id: 'END', label: 'Clos', closing: true },
  ],
} as const

const CLOSE = {
  id: 20,
  label: 'Cloturer',
  status: 'END',
  component: 'closeMailAction',
  history: true,
  categories: ['incoming'],
}
const REDIRECT = { id: 1, label: 'Rediriger', status: 'NEW', component: 'redirectAction', keyword: 'redirect' }
const MY_BASKET = {
  id: 'MyBasket',
  name: 'Courriers à traiter',
  clause: "status in ('NEW') and dest_user = @user_id",
  order: 40,
  groups: [
    {
      group: 'AGENT',
      listEvent: 'processDocument',
      listDisplay: {
        templateColumns: 1,
        subInfos: [{ value: 'getPriority', cssClasses: [], icon: 'fa-traffic-light' }],
      },
      listEventData: { canUpdateData: true, defaultTab: 'info' },
      actions: [
        { action: 20, default: true, list: false },
        {
          action: 1,
          redirects: [
            { keyword: 'MY_ENTITIES', mode: 'ENTITY' },
            { entity: 'COU', mode: 'USERS' },
          ],
        },
      ],
    },
    { group: 'RESPONSABLE', actions: [{ action: 20, where: "status <> 'END'" }] },
  ],
}

const rows = async () => {
  const db = t.mailroom.db
  return {
    baskets: await db.selectFrom('baskets').selectAll().orderBy('basket_id').execute(),
    groups: await db
      .selectFrom('groupbasket')
      .select(['group_id', 'basket_id', 'list_event', 'list_display', 'list_event_data'])
      .orderBy('group_id')
      .execute(),
    links: await db.selectFrom('actions_groupbaskets').selectAll().orderBy('group_id').orderBy('id_action').execute(),
    redirects: await db
      .selectFrom('groupbasket_redirect')
      .select(['group_id', 'action_id', 'entity_id', 'keyword', 'redirect_mode'])
      .orderBy('keyword')
      .execute(),
    actions: await db.selectFrom('actions').selectAll().orderBy('id').execute(),
    categories: await db.selectFrom('actions_categories').selectAll().execute(),
  }
}

describe('baskets and actions administered through the organisation document', () => {
  it("adds them, in 20.10's rows, and plans no change for the same document or for the export", async () => {
    const admin = t.mailroom.organisation
    const result = await admin.apply({ ...ORGANISATION, actions: [CLOSE, REDIRECT], baskets: [MY_BASKET] })
    expect(result.lines.slice(-2)).toEqual(['actions: +2 ~0 -0 (added: 20, 1)', 'baskets: +1 ~0 -0 (added: MyBasket)'])
    const stored = await rows()
    expect(stored.baskets).toEqual([
      expect.objectContaining({
        basket_id: 'MyBasket',
        basket_name: 'Courriers à traiter',
        basket_desc: '',
        basket_order: 40,
        basket_res_order: 'res_id desc',
        enabled: 'Y',
        is_visible: 'Y',
        coll_id: 'letterbox_coll',
      }),
    ])
    expect(stored.groups).toEqual([
      {
        group_id: 'AGENT',
        basket_id: 'MyBasket',
        list_event: 'processDocument',
        list_display: MY_BASKET.groups[0]?.listDisplay,
        list_event_data: { canUpdateData: true, defaultTab: 'info' },
      },
      {
        group_id: 'RESPONSABLE',
        basket_id: 'MyBasket',
        list_event: 'documentDetails',
        list_display: [],
        list_event_data: null,
      },
    ])
    expect(
      stored.links.map((l) => [
        l.group_id,
        l.id_action,
        l.used_in_basketlist,
        l.used_in_action_page,
        l.default_action_list,
        l.where_clause,
      ]),
    ).toEqual([
      ['AGENT', 1, 'Y', 'Y', 'N', ''],
      ['AGENT', 20, 'N', 'Y', 'Y', ''],
      ['RESPONSABLE', 20, 'Y', 'Y', 'N', "status <> 'END'"],
    ])
    // 20.10 writes '' for the half of a choice it does not use.
    expect(stored.redirects).toEqual([
      { group_id: 'AGENT', action_id: 1, entity_id: 'COU', keyword: '', redirect_mode: 'USERS' },
      { group_id: 'AGENT', action_id: 1, entity_id: '', keyword: 'MY_ENTITIES', redirect_mode: 'ENTITY' },
    ])
    expect(stored.actions.find((a) => a.id === 20)).toMatchObject({
      id_status: 'END',
      component: 'closeMailAction',
      history: 'Y',
      parameters: {},
    })
    expect(stored.categories).toEqual([{ action_id: 20, category_id: 'incoming' }])
    expect((await admin.plan({ ...ORGANISATION, actions: [REDIRECT, CLOSE], baskets: [MY_BASKET] })).lines).toEqual([
      'no changes',
    ])
    expect((await admin.plan(await admin.export(), { prune: true })).lines).toEqual(['no changes'])
  })

  it('changes a link, a basket and an action in place, and removes with prune what the document leaves out', async () => {
    const admin = t.mailroom.organisation
    const changed = {
      ...MY_BASKET,
      color: '#2ea3f2',
      groups: [{ ...MY_BASKET.groups[0]!, actions: [{ action: 20, default: true }] }],
    }
    const other = { id: 'LateMailBasket', name: 'Courriers en retard', clause: 'now() > process_limit_date' }
    const plan = await admin.apply({
      ...ORGANISATION,
      actions: [{ ...CLOSE, label: 'Clôturer' }, REDIRECT],
      baskets: [changed, other],
    })
    expect(plan.lines.slice(-2)).toEqual([
      'actions: +0 ~1 -0 (changed: 20)',
      'baskets: +1 ~1 -0 (added: LateMailBasket; changed: MyBasket)',
    ])
    let stored = await rows()
    expect(stored.groups.map((g) => [g.group_id, g.basket_id])).toEqual([['AGENT', 'MyBasket']])
    expect(stored.links.map((l) => [l.group_id, l.basket_id, l.id_action])).toEqual([['AGENT', 'MyBasket', 20]])
    expect(stored.redirects).toEqual([])
    const pruned = await admin.apply({ ...ORGANISATION, actions: [CLOSE], baskets: [other] }, { prune: true })
    expect(pruned.lines.slice(-2)).toEqual([
      'actions: +0 ~1 -1 (changed: 20; removed: 1)',
      'baskets: +0 ~0 -1 (removed: MyBasket)',
    ])
    stored = await rows()
    expect(stored.baskets.map((b) => b.basket_id)).toEqual(['LateMailBasket'])
    expect(stored.links).toEqual([])
    expect(stored.actions.map((a) => a.id)).toEqual([20])
  })

  it('refuses, writing nothing, to remove an action, group or status a stored basket or action still names', async () => {
    const admin = t.mailroom.organisation
    await admin.apply({ ...ORGANISATION, actions: [CLOSE, REDIRECT], baskets: [MY_BASKET] }, { prune: true })
    const before = await rows()
    const actions = await refusal(admin.apply({ version: 1, actions: [CLOSE] }, { prune: true }))
    expect(actions).toMatchObject({ code: 'ORGANISATION_REFUSED' })
    expect(actions.message).toContain('actions: cannot remove 1: basket "MyBasket" offers it to group "AGENT"')
    const groups = await refusal(admin.apply({ version: 1, groups: [ORGANISATION.groups[0]] }, { prune: true }))
    expect(groups.message).toContain('groups: cannot remove "RESPONSABLE": basket "MyBasket" is given to it')
    const statuses = await refusal(admin.apply({ version: 1, statuses: [ORGANISATION.statuses[0]] }, { prune: true }))
    expect(statuses.message).toContain('statuses: cannot remove "END": action 20 sets it')
    // A document whose own baskets name what it removes is refused by validation, also writing nothing.
    const invalid = await refusal(
      admin.apply({ ...ORGANISATION, actions: [CLOSE], baskets: [{ ...MY_BASKET, name: 'Renamed' }] }, { prune: true }),
    )
    expect(invalid).toMatchObject({ code: 'ORGANISATION_INVALID' })
    expect(await rows()).toEqual(before)
  })
})

describe('an apply the database refuses midway', () => {
  it('leaves neither the actions nor the basket written before the refusal', async () => {
    const db = t.mailroom.db
    await sql`create function refuse_groupbasket() returns trigger language plpgsql as $$ begin raise exception 'refused for the test'; end $$`.execute(
      db,
    )
    await sql`create trigger refuse_groupbasket before insert on groupbasket for each row execute function refuse_groupbasket()`.execute(
      db,
    )
    try {
      const before = await rows()
      const late = { id: 'LateMailBasket', name: 'Courriers en retard', clause: '1=1', groups: [{ group: 'AGENT' }] }
      const read = { id: 114, label: 'Marquer comme lu', status: '', component: 'resMarkAsReadAction' }
      await expect(t.mailroom.organisation.apply({ version: 1, actions: [read], baskets: [late] })).rejects.toThrow(
        /refused for the test/,
      )
      expect(await rows()).toEqual(before)
    } finally {
      await sql`drop trigger refuse_groupbasket on groupbasket`.execute(db)
      await sql`drop function refuse_groupbasket()`.execute(db)
    }
  })
})

describe("users' basket preferences, loans and marks", () => {
  it("are written under Mailroom's serial ids, found by login and group code, and name what they could not place", async () => {
    const db = t.mailroom.db
    const id = async (login: string) =>
      (await db.selectFrom('users').select('id').where('user_id', '=', login).executeTakeFirstOrThrow()).id
    const agent = (
      await db.selectFrom('usergroups').select('id').where('group_id', '=', 'AGENT').executeTakeFirstOrThrow()
    ).id
    const usage = {
      users: ['bbain', 'ppetit'],
      preferences: [
        { login: 'BBAIN', group: 'AGENT', basket: 'MyBasket', display: false, color: '#ff0000' },
        { login: 'ghost', group: 'AGENT', basket: 'MyBasket', display: true, color: null },
      ],
      loans: [{ owner: 'bbain', actual: 'ppetit', group: 'AGENT', basket: 'MyBasket' }],
      markedAsRead: [
        { resId: 7, login: 'bbain', basket: 'MyBasket' },
        { resId: 7, login: 'bbain', basket: 'MyBasket' },
        { resId: 8, login: 'bbain', basket: 'NoSuchBasket' },
      ],
    }
    const written = await writeBasketUsage(db, usage)
    expect(written).toEqual({
      preferences: 1,
      loans: 1,
      markedAsRead: 2,
      unknown: ['preference of ghost in AGENT for MyBasket', 'mark as read of bbain for NoSuchBasket'],
    })
    expect(
      await db
        .selectFrom('users_baskets_preferences')
        .select(['user_serial_id', 'group_serial_id', 'basket_id', 'display', 'color'])
        // The usage's users; the group's other members keep the rows their group gave them (0026).
        .where('user_serial_id', 'in', [await id('bbain'), await id('ppetit')])
        .execute(),
    ).toEqual([
      {
        user_serial_id: await id('bbain'),
        group_serial_id: agent,
        basket_id: 'MyBasket',
        display: false,
        color: '#ff0000',
      },
    ])
    expect(
      await db.selectFrom('redirected_baskets').select(['owner_user_id', 'actual_user_id', 'group_id']).execute(),
    ).toEqual([{ owner_user_id: await id('bbain'), actual_user_id: await id('ppetit'), group_id: agent }])
    expect(await db.selectFrom('res_mark_as_read').selectAll().execute()).toEqual([
      { res_id: 7, user_id: await id('bbain'), basket_id: 'MyBasket' },
    ])
    // Run again with the loan ended: the users' loans are the ones given.
    await writeBasketUsage(db, { ...usage, loans: [] })
    expect(await db.selectFrom('redirected_baskets').selectAll().execute()).toEqual([])
    // A basket no longer given to the group takes its preferences and loans with it.
    await writeBasketUsage(db, usage)
    await t.mailroom.organisation.apply({ version: 1, baskets: [{ ...MY_BASKET, groups: [MY_BASKET.groups[1]!] }] })
    expect(
      await db.selectFrom('users_baskets_preferences').selectAll().where('group_serial_id', '=', agent).execute(),
    ).toEqual([])
    expect(await db.selectFrom('redirected_baskets').selectAll().execute()).toEqual([])
  })
})
