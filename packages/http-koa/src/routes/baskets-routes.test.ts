import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  insertStandInRecord,
  seedBaskets,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * The baskets' read routes on baskets of this file's own: bbain (id 3, AGENT, serial 4, PJS) and bblier (id 4,
 * RESPONSABLE, serial 5, DGS). Every clause names the records of this file (subject starting `Panier`), so the
 * demo's own records never count. bblier lends "Courriers DGS" to bbain.
 */

let s: TestServer
let baskets: Map<string, number>
const ids: Record<string, number> = {}
const AGENT = 4
const RESPONSABLE = 5
const NORMAL = 'poiuytre1357nbvc'
const URGENT = 'poiuytre1379nbvc'

const LIST_DISPLAY = {
  templateColumns: 7,
  subInfos: [
    { value: 'getPriority', cssClasses: [], icon: 'fa-traffic-light' },
    { value: 'getCategory', cssClasses: [], icon: 'fa-exchange-alt' },
    { value: 'getDoctype', cssClasses: [], icon: 'fa-suitcase' },
    { value: 'getAssignee', cssClasses: [], icon: 'fa-sitemap' },
    { value: 'getSenders', cssClasses: [], icon: 'fa-book' },
    { value: 'getCreationAndProcessLimitDates', cssClasses: ['align_rightData'], icon: 'fa-calendar' },
    { value: 'getNoSuchThing', cssClasses: [], icon: 'fa-question' },
  ],
}

const bbain = demoAuth('bbain')
const ROOT = 'superadmin:superadmin'
const bblier = demoAuth('bblier')
const listPath = (user: number, group: number, basket: string | number, rest = '') =>
  `/rest/resourcesList/users/${user}/groups/${group}/baskets/${typeof basket === 'number' ? basket : baskets.get(basket)}${rest}`

beforeAll(async () => {
  s = await startTestServer()
  const db = s.mailroom.db
  const records: [string, string, string, string | null, string | null][] = [
    // name, destination, status, priority, process limit
    ['pjs1', 'PJS', 'NEW', NORMAL, null],
    ['pjs2', 'PJS', 'NEW', URGENT, '2020-01-01'],
    ['pjs3', 'PJS', 'COU', null, null],
    ['pe1', 'PE', 'NEW', NORMAL, null],
    ['dgs1', 'DGS', 'NEW', null, null],
    ['dgs2', 'DGS', 'COU', URGENT, null],
    ['drh1', 'DRH', 'NEW', null, null],
  ]
  for (const [name, destination, status, priority, limit] of records)
    ids[name] = await insertStandInRecord(db, {
      destination,
      status,
      priority,
      process_limit_date: limit,
      subject: `Panier ${name} élève`,
      alt_identifier: `MAARCH/2026A/${name}`,
      filename: name === 'pjs1' ? 'courrier.pdf' : null,
    })
  baskets = await seedBaskets(db, [
    {
      basketId: 'MyBasket',
      name: 'Courriers à traiter',
      clause:
        "subject like 'Panier%' and status in ('NEW', 'COU') and destination in (@my_entities, @subentities[@my_primary_entity])",
      order: 1,
      groups: [
        {
          groupId: 'AGENT',
          listDisplay: LIST_DISPLAY,
          listEvent: 'processDocument',
          listEventData: { defaultTab: 'dashboard' },
        },
      ],
    },
    {
      basketId: 'NewBasket',
      name: 'Nouveaux courriers',
      clause: "subject like 'Panier%' and status = 'NEW' and destination = @my_primary_entity",
      color: '#123456',
      order: 2,
      groups: [{ groupId: 'AGENT' }],
    },
    {
      basketId: 'BrokenBasket',
      name: 'Courriers liés',
      // A join: sub-selects read one table of the allow-list (docs/architecture.md, "Sub-selects in clauses").
      clause:
        'res_id in (select r.res_id_master from res_attachments r inner join shippings s on s.document_id = r.res_id)',
      order: 3,
      groups: [{ groupId: 'AGENT' }],
    },
    {
      basketId: 'BadDateBasket',
      name: 'Date illisible',
      clause: "creation_date > 'pas une date'",
      order: 4,
      groups: [{ groupId: 'AGENT' }],
    },
    // Hidden from the home page, yet it widens its members' perimeter as 20.10's does: it selects no letter here.
    { basketId: 'HiddenBasket', name: 'Cachée', clause: '1=0', visible: false, groups: [{ groupId: 'AGENT' }] },
    { basketId: 'NoGroupBasket', name: 'Sans groupe', clause: '1=1' },
    {
      basketId: 'DgsBasket',
      name: 'Courriers DGS',
      clause: "subject like 'Panier%' and destination in (@my_entities)",
      groups: [{ groupId: 'RESPONSABLE' }],
    },
  ])
  // bbain's own colour for "Nouveaux courriers"; bblier lends "Courriers DGS" to bbain.
  await db
    .updateTable('users_baskets_preferences')
    .set({ color: '#abcdef' })
    .where('user_serial_id', '=', 3)
    .where('basket_id', '=', 'NewBasket')
    .execute()
  await db
    .insertInto('redirected_baskets')
    .values({ owner_user_id: 4, actual_user_id: 3, basket_id: 'DgsBasket', group_id: RESPONSABLE })
    .execute()
})
afterAll(async () => s?.close())

describe('GET /rest/home', () => {
  it("lists the caller's visible baskets with counts, colours and the baskets lent to the caller", async () => {
    const response = await s.call('GET', '/rest/home', { auth: bbain })
    expect(response.status).toBe(200)
    const home = response.json
    expect(home.regroupedBaskets).toEqual([
      {
        groupSerialId: AGENT,
        groupId: 'AGENT',
        groupDesc: 'Utilisateur',
        baskets: [
          {
            id: baskets.get('MyBasket'),
            basket_id: 'MyBasket',
            basket_name: 'Courriers à traiter',
            basket_desc: 'Courriers à traiter',
            color: '#666666',
            owner_user_id: 3,
            redirected: false,
            resourceNumber: 4,
          },
          expect.objectContaining({ basket_id: 'NewBasket', color: '#abcdef', resourceNumber: 2 }),
          // A clause that cannot be used counts 0, as 20.10's home page counts it; the list route says why.
          expect.objectContaining({ basket_id: 'BrokenBasket', resourceNumber: 0 }),
          expect.objectContaining({ basket_id: 'BadDateBasket', resourceNumber: 0 }),
        ],
      },
    ])
    expect(home.assignedBaskets).toEqual([
      {
        id: baskets.get('DgsBasket'),
        basket_id: 'DgsBasket',
        basket_name: 'Courriers DGS',
        basket_clause: "subject like 'Panier%' and destination in (@my_entities)",
        owner_user_id: 4,
        group_id: RESPONSABLE,
        oldGroupId: 'RESPONSABLE',
        group_desc: 'Manager',
        userToDisplay: 'Bernard BLIER',
        // Counted with the owner's clause: bblier's entity, DGS.
        resourceNumber: 2,
        uselessGroupId: 'RESPONSABLE',
        ownerLogin: 'bblier',
      },
    ])
    expect(home.isLinkedToMaarchParapheur).toBe(false)
    expect(typeof home.homeMessage).toBe('string')
  })

  it('shows the owner that a basket is lent, and to whom', async () => {
    const home = (await s.call('GET', '/rest/home', { auth: bblier })).json
    expect(home.regroupedBaskets[0].baskets).toEqual([
      expect.objectContaining({
        basket_id: 'DgsBasket',
        redirected: true,
        redirectedUser: 'Barbara BAIN',
        resourceNumber: 2,
      }),
    ])
    expect(home.assignedBaskets).toEqual([])
  })

  it('counts afresh after a clause, a membership or a macro value changes, though compiled clauses are kept', async () => {
    const counts = async () => {
      const home = (await s.call('GET', '/rest/home', { auth: bbain })).json
      const own = home.regroupedBaskets[0].baskets as { basket_id: string; resourceNumber: number }[]
      return {
        ...Object.fromEntries(own.map((b) => [b.basket_id, b.resourceNumber])),
        lent: home.assignedBaskets[0].resourceNumber,
      }
    }
    const initially = { MyBasket: 4, NewBasket: 2, lent: 2 }
    // The second home is served by the clauses the first compiled.
    expect([await counts(), await counts()]).toEqual([
      expect.objectContaining(initially),
      expect.objectContaining(initially),
    ])
    const exported = (await s.call('GET', '/admin/organisation', { auth: ROOT })).json
    const newBasket = exported.baskets.find((b: { id: string }) => b.id === 'NewBasket')
    const applyClause = async (clause: string) => {
      const applied = await s.call('PUT', '/admin/organisation', {
        auth: ROOT,
        body: { version: 1, baskets: [{ ...newBasket, clause }] },
      })
      expect([applied.status, applied.json]).toEqual([200, expect.anything()])
    }
    const db = s.mailroom.db
    try {
      await applyClause("subject like 'Panier%' and status = 'COU' and destination = @my_primary_entity")
      expect(await counts()).toMatchObject({ ...initially, NewBasket: 1 })
      // bbain joins DGS: @my_entities of her own baskets; bblier joins DRH: @my_entities of the basket he lends her.
      await db
        .insertInto('users_entities')
        .values({ user_id: 3, entity_id: 'DGS', user_role: '', primary_entity: 'N' })
        .execute()
      expect(await counts()).toMatchObject({ MyBasket: 6, NewBasket: 1, lent: 2 })
      await db
        .insertInto('users_entities')
        .values({ user_id: 4, entity_id: 'DRH', user_role: '', primary_entity: 'N' })
        .execute()
      expect(await counts()).toMatchObject({ MyBasket: 6, NewBasket: 1, lent: 3 })
    } finally {
      await applyClause(newBasket.clause)
      await db
        .deleteFrom('users_entities')
        .where((eb) => eb.or([eb.and({ user_id: 3, entity_id: 'DGS' }), eb.and({ user_id: 4, entity_id: 'DRH' })]))
        .execute()
    }
    expect(await counts()).toMatchObject(initially)
  })

  it('answers only the caller’s own and lent baskets, whatever the query says; nothing without credentials', async () => {
    const plain = await s.call('GET', '/rest/home', { auth: bbain })
    const hostile = [
      'userId=4&groupId=5&basketId=DgsBasket',
      `userId=${2 ** 31}&groupId=99999999999999999999`,
      `a${'[b]'.repeat(200)}=1`,
    ]
    for (const query of hostile) {
      const response = await s.call('GET', `/rest/home?${query}`, { auth: bbain })
      expect([query, response.status, response.json]).toEqual([query, 200, plain.json])
    }
    // A NUL anywhere in the request is refused before any route, the home included.
    const nul = await s.call('GET', '/rest/home?userId=%00&basket_id=%00MyBasket', { auth: bbain })
    expect([nul.status, nul.json]).toEqual([
      400,
      { errors: 'Request contains a NUL character, which cannot be stored' },
    ])
    // The counts of bblier's own baskets reach bbain only through the one he lends her.
    const ids = (home: { regroupedBaskets: { baskets: { basket_id: string }[] }[] }) =>
      home.regroupedBaskets.flatMap((g) => g.baskets.map((b) => b.basket_id))
    expect(ids(plain.json)).not.toContain('DgsBasket')
    const ddur = await s.call('GET', `/rest/home?userId=3`, { auth: demoAuth('ddur') })
    expect([ddur.json.regroupedBaskets, ddur.json.assignedBaskets]).toEqual([[], []])
    const anonymous = await s.call('GET', '/rest/home', { auth: null })
    expect(anonymous.status).toBe(401)
    expect(JSON.stringify(anonymous.json)).not.toContain('resourceNumber')
  })

  it('gives a user without baskets empty lists', async () => {
    const home = (await s.call('GET', '/rest/home', { auth: demoAuth('ddur') })).json
    expect([home.regroupedBaskets, home.assignedBaskets]).toEqual([[], []])
  })
})

describe('GET /rest/resourcesList/users/{userId}/groups/{groupId}/baskets/{basketId}', () => {
  it("answers a page, the count, every id, the group's display and its default action", async () => {
    const response = await s.call('GET', `${listPath(3, AGENT, 'MyBasket')}?limit=2&offset=1`, { auth: bbain })
    expect(response.status).toBe(200)
    const list = response.json
    const all = [ids.pe1, ids.pjs3, ids.pjs2, ids.pjs1] // res_id desc, the basket's default order
    expect(list.count).toBe(4)
    expect(list.allResources).toEqual(all)
    expect(list.resources.map((r: { resId: number }) => r.resId)).toEqual(all.slice(1, 3))
    expect([list.basketLabel, list.basket_id, list.templateColumns, list.displayFolderTags]).toEqual([
      'Courriers à traiter',
      'MyBasket',
      7,
      false,
    ])
    expect(list.defaultAction).toEqual({ component: 'processDocument', data: { defaultTab: 'dashboard' } })
    const row = list.resources[1]
    expect(row).toMatchObject({
      resId: ids.pjs2,
      chrono: 'MAARCH/2026A/pjs2',
      subject: 'Panier pjs2 élève',
      statusLabel: 'Nouveau courrier',
      priorityColor: '#ffa500',
      countAttachments: 0,
      countNotes: 0,
      hasDocument: false,
      mailTracking: false,
      isLocked: false,
      folders: [],
    })
    // Each list_display item the row knows, with its value; an unknown item is left out, as 20.10 does.
    expect(row.display.map((d: { value: string }) => d.value)).toEqual([
      'getPriority',
      'getCategory',
      'getDoctype',
      'getAssignee',
      'getSenders',
      'getCreationAndProcessLimitDates',
    ])
    expect(row.display[0]).toEqual({
      value: 'getPriority',
      cssClasses: [],
      icon: 'fa-traffic-light',
      displayValue: 'Urgent',
    })
    expect(row.display[3].displayValue).toBe('(Pôle Jeunesse et Sport)')
    expect(row.display[5].displayValue.processLimitDate).toMatch(/^20(19-12-31|20-01-01) /)
  })

  it('orders, searches and filters as 20.10 reads its query', async () => {
    const get = async (query: string) => {
      const response = await s.call('GET', `${listPath(3, AGENT, 'MyBasket')}?${query}`, { auth: bbain })
      expect(response.status, query).toBe(200)
      return response.json.allResources as number[]
    }
    expect(await get('order=res_id asc')).toEqual([ids.pjs1, ids.pjs2, ids.pjs3, ids.pe1])
    // By the priorities' order, as 20.10 (descending: PostgreSQL puts the records without one first).
    expect(await get('order=priority desc')).toEqual([ids.pjs3, ids.pjs2, ids.pe1, ids.pjs1])
    expect(await get('search=pjs2')).toEqual([ids.pjs2])
    expect(await get('search=ELEVE')).toHaveLength(4) // accents and case aside
    expect(await get('search=x')).toHaveLength(4) // fewer than 2 characters: no search
    expect(await get(`priorities=${URGENT}`)).toEqual([ids.pjs2])
    expect(await get('priorities=')).toEqual([ids.pjs3])
    expect(await get(`priorities=,${NORMAL}`)).toEqual([ids.pe1, ids.pjs3, ids.pjs1])
    expect(await get('entities=PE')).toEqual([ids.pe1])
    expect(await get('statuses=COU')).toEqual([ids.pjs3])
    expect(await get('categories=outgoing')).toEqual([])
    expect(await get('delayed=true')).toEqual([ids.pjs2])
    expect(await get('doctypes=101')).toHaveLength(4)
    expect(await get('doctypes=abc')).toEqual([])
    expect(await get('folders=1')).toEqual([])
    // An entity and every entity below it (PE is under PJS); an empty value: the records without destination.
    expect((await get('entitiesChildren=PJS')).sort()).toEqual([ids.pjs1, ids.pjs2, ids.pjs3, ids.pe1].sort())
    expect(await get('entitiesChildren=PE')).toEqual([ids.pe1])
    expect(await get('entitiesChildren=')).toEqual([])
    expect(await get('entitiesChildren=NOWHERE')).toEqual([])
  })

  it('orders chronos naturally, as 20.10 order_alphanum (2 before 10), those without one last', async () => {
    const db = s.mailroom.db
    const chronos: [string, string | null][] = [
      ['pjs1', 'MAARCH/2026A/10'],
      ['pjs2', 'MAARCH/2026A/9'],
      ['pjs3', null],
      ['pe1', 'MAARCH/2026A/100'],
    ]
    try {
      for (const [name, chrono] of chronos)
        await db.updateTable('res_letterbox').set({ alt_identifier: chrono }).where('res_id', '=', ids[name]!).execute()
      const order = async (direction: string) =>
        (await s.call('GET', `${listPath(3, AGENT, 'MyBasket')}?order=alt_identifier%20${direction}`, { auth: bbain }))
          .json.allResources
      expect(await order('asc')).toEqual([ids.pjs2, ids.pjs1, ids.pe1, ids.pjs3])
      expect(await order('desc')).toEqual([ids.pjs3, ids.pe1, ids.pjs1, ids.pjs2])
    } finally {
      for (const [name] of chronos)
        await db
          .updateTable('res_letterbox')
          .set({ alt_identifier: `MAARCH/2026A/${name}` })
          .where('res_id', '=', ids[name]!)
          .execute()
    }
  })

  it('lets a colleague read a lent basket, with the owner’s clause, and no longer the owner', async () => {
    const lent = await s.call('GET', listPath(4, RESPONSABLE, 'DgsBasket'), { auth: bbain })
    expect([lent.status, lent.json.allResources]).toEqual([200, [ids.dgs2, ids.dgs1]])
    const owner = await s.call('GET', listPath(4, RESPONSABLE, 'DgsBasket'), { auth: bblier })
    expect([owner.status, owner.json]).toEqual([403, { errors: 'Basket out of perimeter (redirected)' }])
  })

  it("refuses as 20.10's listControl does, in its order", async () => {
    const refusals: [string, string, string][] = [
      [listPath(3, AGENT, 999_999), bbain, 'Group or basket does not exist'],
      [listPath(3, 999_999, 'MyBasket'), bbain, 'Group or basket does not exist'],
      [listPath(4, RESPONSABLE, 'MyBasket'), bbain, 'Basket out of perimeter'],
      [listPath(3, AGENT, 'MyBasket'), bblier, 'Basket out of perimeter'],
      [listPath(3, RESPONSABLE, 'DgsBasket'), bbain, 'Group is not linked to this user'],
      [listPath(3, AGENT, 'NoGroupBasket'), bbain, 'Group is not linked to this basket'],
      [listPath(3, AGENT, 'DgsBasket'), bbain, 'Group is not linked to this basket'],
    ]
    for (const [path, auth, message] of refusals) {
      const response = await s.call('GET', path, { auth })
      expect([path, response.status, response.json]).toEqual([path, 403, { errors: message }])
      const filters = await s.call('GET', `${path}/filters`, { auth })
      expect([path, filters.status, filters.json]).toEqual([path, 403, { errors: message }])
    }
  })

  it('refuses hostile ids and values with a 4xx, never a 500, and reveals nothing', async () => {
    for (const [user, group, basket] of [
      ['3', String(AGENT), '99999999999999999999'],
      ['3', '-4', '1'],
      ['3', String(AGENT), '0x1'],
      ['99999999999999999999', String(AGENT), String(baskets.get('MyBasket'))],
    ]) {
      const response = await s.call('GET', `/rest/resourcesList/users/${user}/groups/${group}/baskets/${basket}`, {
        auth: bbain,
      })
      expect(response.status, `${user}/${group}/${basket}`).toBe(403)
    }
    // A NUL anywhere in the URL is refused before any route runs.
    for (const path of [
      `/rest/resourcesList/users/3/groups/${AGENT}/baskets/1%00`,
      `/rest/resourcesList/users/3%00/groups/${AGENT}/baskets/1`,
    ]) {
      const response = await s.call('GET', path, { auth: bbain })
      expect([path, response.status]).toEqual([path, 400])
    }
    for (const query of ['search=%00%00', 'entities=PJS%00', 'statuses=%00', 'priorities=%00,']) {
      const response = await s.call('GET', `${listPath(3, AGENT, 'MyBasket')}?${query}`, { auth: bbain })
      expect([query, response.status]).toEqual([query, 400])
    }
    for (const query of [
      'limit=99999999999999999999&offset=-5',
      'offset=1e308',
      'doctypes=99999999999999999999',
      'folders=-1,0,abc',
      'limit=1&limit=2',
    ]) {
      const response = await s.call('GET', `${listPath(3, AGENT, 'MyBasket')}?${query}`, { auth: bbain })
      expect([query, response.status]).toEqual([query, 200])
      for (const id of response.json.allResources) expect(Object.values(ids)).toContain(id)
    }
    for (const order of ['res_id; drop table users', '(select 1)', 'subject desc, res_id', 'unknown_column']) {
      const response = await s.call('GET', `${listPath(3, AGENT, 'MyBasket')}?order=${encodeURIComponent(order)}`, {
        auth: bbain,
      })
      expect([order, response.status]).toEqual([order, 400])
      expect(response.json.errors).toMatch(/^Bad Request: orderBy parameter not valid/)
    }
    const users = await s.mailroom.db.selectFrom('users').select('id').execute()
    expect(users.length).toBeGreaterThan(0)
  })

  it('refuses a basket whose clause cannot be used, naming the basket, never listing every record', async () => {
    const broken = await s.call('GET', listPath(3, AGENT, 'BrokenBasket'), { auth: bbain })
    expect(broken.status).toBe(400)
    expect(broken.json.errors).toMatch(/^Basket "Courriers liés" \(BrokenBasket\) has a clause that cannot be used: /)
    const badDate = await s.call('GET', listPath(3, AGENT, 'BadDateBasket'), { auth: bbain })
    expect(badDate.status).toBe(400)
    expect(badDate.json.errors).toMatch(
      /^Basket "Date illisible" \(BadDateBasket\) has a clause that cannot be used: the database refused it/,
    )
  })
})

describe('GET …/baskets/{basketId}/filters', () => {
  it('counts each value over the records the other filters select, lists of 2 values or more, by label', async () => {
    const response = await s.call('GET', listPath(3, AGENT, 'MyBasket', '/filters'), { auth: bbain })
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      entities: [
        { entityId: 'PE', label: 'Petite Enfance', count: 1 },
        { entityId: 'PJS', label: 'Pôle Jeunesse et Sport', count: 3 },
      ],
      // By label, lower-cased, as 20.10's compareSortOnLabel: `_` sorts before letters.
      priorities: [
        { id: null, label: '_UNDEFINED', count: 1 },
        { id: NORMAL, label: 'Normal', count: 2 },
        { id: URGENT, label: 'Urgent', count: 1 },
      ],
      categories: [],
      statuses: [
        { id: 'COU', label: 'En cours', count: 1 },
        { id: 'NEW', label: 'Nouveau courrier', count: 3 },
      ],
      entitiesChildren: [
        { entityId: 'PE', label: 'Petite Enfance', count: 1 },
        { entityId: 'PJS', label: 'Pôle Jeunesse et Sport', count: 4 },
      ],
      doctypes: [],
      folders: [],
    })
    // A filter narrows the other lists, not its own.
    const narrowed = (await s.call('GET', listPath(3, AGENT, 'MyBasket', '/filters?entities=PJS'), { auth: bbain }))
      .json
    expect(narrowed.entities).toHaveLength(2)
    expect(narrowed.statuses).toEqual([
      { id: 'COU', label: 'En cours', count: 1 },
      { id: 'NEW', label: 'Nouveau courrier', count: 2 },
    ])
  })
})

describe('GET /rest/resources/{resId}/isAllowed', () => {
  it("answers whether the record is in the caller's perimeter; false for anything else", async () => {
    const allowed = async (resId: string, auth = bbain) =>
      (await s.call('GET', `/rest/resources/${resId}/isAllowed`, { auth })).json
    expect(await allowed(String(ids.pjs1))).toEqual({ isAllowed: true })
    expect(await allowed(String(ids.drh1))).toEqual({ isAllowed: false })
    expect(await allowed(String(ids.drh1), demoAuth('superadmin'))).toEqual({ isAllowed: true })
    for (const hostile of ['abc', '0', '-1', '99999999999999999999', '1e3'])
      expect(await allowed(hostile)).toEqual({ isAllowed: false })
    expect((await s.call('GET', '/rest/resources/1%00/isAllowed', { auth: bbain })).status).toBe(400)
  })
})

describe('GET /rest/home/lastRessources', () => {
  it('lists the records the caller last wrote history on, newest first, 5 at most', async () => {
    const db = s.mailroom.db
    const names = ['pjs1', 'pjs2', 'pjs3', 'pe1', 'dgs1', 'dgs2']
    for (const [i, name] of names.entries())
      await db
        .insertInto('history')
        .values({
          table_name: 'res_letterbox',
          record_id: String(ids[name]),
          event_type: 'UP',
          user_id: 3,
          event_date: new Date(Date.UTC(2026, 0, 1, 10, i)),
          info: 'x',
          event_id: 'resup',
        })
        .execute()
    await db
      .insertInto('history')
      .values({
        table_name: 'res_letterbox',
        record_id: 'none',
        event_type: 'UP',
        user_id: 3,
        info: 'x',
        event_id: 'x',
      })
      .execute()
    await db
      .insertInto('history')
      .values({
        table_name: 'res_letterbox',
        record_id: String(ids.drh1),
        event_type: 'UP',
        user_id: 3,
        event_date: new Date(Date.UTC(2027, 0, 1)),
        info: 'x',
        event_id: 'linkup',
      })
      .execute()
    const response = await s.call('GET', '/rest/home/lastRessources', { auth: bbain })
    expect(response.status).toBe(200)
    const last = response.json.lastResources
    expect(last.map((r: { res_id: number }) => r.res_id)).toEqual(
      ['dgs2', 'dgs1', 'pe1', 'pjs3', 'pjs2'].map((n) => ids[n]),
    )
    expect(last[0]).toMatchObject({
      alt_identifier: 'MAARCH/2026A/dgs2',
      status_id: 'COU',
      status_label: 'En cours',
      priority: URGENT,
      priority_color: '#ffa500',
      hasDocument: false,
    })
    expect(last[1]).not.toHaveProperty('priority_color')
    expect((await s.call('GET', '/rest/home/lastRessources', { auth: bblier })).json).toEqual({ lastResources: [] })
  })
})

describe('GET /rest/currentUser/profile, its baskets', () => {
  it("lists the caller's baskets, those lent to and by the caller, and each group's home baskets", async () => {
    const profile = (await s.call('GET', '/rest/currentUser/profile', { auth: bbain })).json
    // By group, then basket order (a basket without one last, as PostgreSQL sorts nulls), then name.
    expect(profile.baskets.map((b: { basket_id: string }) => b.basket_id)).toEqual([
      'MyBasket',
      'NewBasket',
      'BrokenBasket',
      'BadDateBasket',
      'HiddenBasket',
    ])
    expect(profile.baskets[0]).toEqual({
      basket_id: 'MyBasket',
      id: baskets.get('MyBasket'),
      group_id: 'AGENT',
      basket_name: 'Courriers à traiter',
      basket_desc: 'Courriers à traiter',
      group_desc: 'Utilisateur',
      is_visible: 'Y',
      groupSerialId: AGENT,
      owner_user_id: 3,
      basketSearch: false,
      userToDisplay: null,
      enabled: true,
      allowed: true,
    })
    expect(profile.baskets[4]).toMatchObject({ is_visible: 'N', basketSearch: true })
    expect(profile.assignedBaskets).toEqual([
      expect.objectContaining({
        basket_id: 'DgsBasket',
        owner_user_id: 4,
        group_id: RESPONSABLE,
        userToDisplay: 'Bernard BLIER',
      }),
    ])
    expect(profile.assignedBaskets[0]).not.toHaveProperty('basket_clause')
    expect(profile.regroupedBaskets).toEqual([
      {
        groupSerialId: AGENT,
        groupId: 'AGENT',
        groupDesc: 'Utilisateur',
        baskets: [
          {
            basket_id: 'MyBasket',
            basket_name: 'Courriers à traiter',
            basket_desc: 'Courriers à traiter',
            color: '#666666',
          },
          {
            basket_id: 'NewBasket',
            basket_name: 'Nouveaux courriers',
            basket_desc: 'Nouveaux courriers',
            color: '#abcdef',
          },
          expect.objectContaining({ basket_id: 'BrokenBasket' }),
          expect.objectContaining({ basket_id: 'BadDateBasket' }),
        ],
      },
    ])
    const owner = (await s.call('GET', '/rest/currentUser/profile', { auth: bblier })).json
    expect(owner.redirectedBaskets).toEqual([
      {
        id: expect.any(Number),
        basket_id: 'DgsBasket',
        basket_name: 'Courriers DGS',
        actual_user_id: 3,
        group_id: RESPONSABLE,
        group_desc: 'Manager',
        userToDisplay: 'Barbara BAIN',
      },
    ])
    expect(owner.baskets[0]).toMatchObject({ basket_id: 'DgsBasket', userToDisplay: 'Barbara BAIN' })
  })
})
