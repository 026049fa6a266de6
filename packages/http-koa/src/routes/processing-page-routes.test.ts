import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  expectSameShape,
  insertStandInRecord,
  maarchExchange,
  seedBaskets,
  startTestServer,
  type TestServer,
  webClientJourney,
} from '../../../testing/src/index.js'

/*
 * The reads of 20.10's processing page that the letter's own routes do not answer (processingData,
 * isDestinationChanging, notesTemplates, externalSummary, GET /rest/history, indexingModels/entities, contactsCustomFields) and the page's short lists
 * (attachments and notes with ?limit=3), beside the answers the real Maarch 20.10 gave bbain in the recorded
 * journey of its web client (../shared, GPL material: read, never copied; without it those comparisons are
 * skipped, saying so, and fail under CI=true), then attacked as a hostile clerk would.
 * bbain: id 3, AGENT (serial 4), PJS. bblier: id 4, RESPONSABLE (serial 5), DGS.
 */

const journey = webClientJourney("the processing page's journey comparison")
const present = journey.present
const recorded = (path: RegExp) => journey.recorded('GET', path)

let s: TestServer
const bbain = demoAuth('bbain')
const bblier = demoAuth('bblier')
const BBAIN = 3
const BBLIER = 4
const AGENT = 4
const RESPONSABLE = 5
let myBasket = 0
let plainBasket = 0
let dgsBasket = 0
let letter = 0
let frozen = 0
let quiet = 0
let outside = 0

const NUL = 'Request contains a NUL character, which cannot be stored'

const processing = (resId: number | string, user: number | string, group: number | string, basket: number | string) =>
  `/rest/resources/${resId}/users/${user}/groups/${group}/baskets/${basket}/processingData`

async function grant(groupId: string, privileges: string[]): Promise<void> {
  await s.mailroom.db.updateTable('usergroups').set({ privileges }).where('group_id', '=', groupId).execute()
}

async function line(
  resId: number,
  eventType: string,
  info: string,
  userId: number,
  at: string,
  table = 'res_letterbox',
) {
  await s.mailroom.db
    .insertInto('history')
    .values({
      table_name: table,
      record_id: String(resId),
      event_type: eventType,
      user_id: userId,
      info,
      event_id: eventType.startsWith('ACTION#') ? eventType.slice(7) : 'resadd',
      remote_ip: '192.0.2.7',
      event_date: at,
    })
    .execute()
}

beforeAll(async () => {
  s = await startTestServer()
  const db = s.mailroom.db
  const ids = await seedBaskets(db, [
    {
      basketId: 'MyBasket',
      name: 'Courriers à traiter',
      clause: "subject like 'Page%' and destination in (@my_entities)",
      groups: [{ groupId: 'AGENT', listEvent: 'processDocument', listEventData: { defaultTab: 'dashboard' } }],
    },
    {
      basketId: 'PlainBasket',
      name: 'Sans options',
      clause: "subject like 'Page%' and destination in (@my_entities)",
      groups: [{ groupId: 'AGENT', listEvent: 'processDocument' }],
    },
    {
      basketId: 'DgsBasket',
      name: 'Courriers DGS',
      clause: "subject like 'Page%' and destination = 'DGS'",
      groups: [{ groupId: 'RESPONSABLE', listEvent: 'processDocument', listEventData: { defaultTab: 'info' } }],
    },
  ])
  myBasket = ids.get('MyBasket')!
  plainBasket = ids.get('PlainBasket')!
  dgsBasket = ids.get('DgsBasket')!
  await db.insertInto('status').values({ id: 'FROZEN', label_status: 'Figé', can_be_modified: 'N' }).execute()
  letter = await insertStandInRecord(db, {
    destination: 'PJS',
    subject: 'Page du courrier',
    alt_identifier: 'MAARCH/2026A/PAGE1',
  })
  frozen = await insertStandInRecord(db, { destination: 'PJS', subject: 'Page figée', status: 'FROZEN' })
  quiet = await insertStandInRecord(db, { destination: 'PJS', subject: 'Page sans histoire' })
  outside = await insertStandInRecord(db, {
    destination: 'DGS',
    subject: 'Page hors périmètre',
    alt_identifier: 'MAARCH/2026A/SECRET',
  })
  await line(letter, 'ADD', 'Courrier créé', BBAIN, '2026-11-20T09:00:00Z')
  await line(letter, 'ACTION#20', 'Courriers à traiter : Cloturer', BBAIN, '2026-11-21T09:00:00Z')
  await line(letter, 'ACTION#1', 'Courriers à traiter : Rediriger', BBLIER, '2026-11-22T09:00:00Z')
  await line(letter, 'LINKUP', 'Liaison ajoutée : MAARCH/2026A/SECRET', BBAIN, '2026-11-23T09:00:00Z')
  await line(letter, 'UP', 'Note sur une autre table', BBAIN, '2026-11-24T09:00:00Z', 'notes')
  await line(outside, 'ACTION#20', 'Courriers DGS : Cloturer', BBLIER, '2026-11-25T09:00:00Z')
})
afterAll(async () => s?.close())

describe.skipIf(!present)("the letter's page beside the answers Maarch 20.10 gave in the recorded journey", () => {
  it('processingData: the group’s list_event_data', async () => {
    const response = await s.call('GET', processing(letter, BBAIN, AGENT, myBasket), { auth: bbain })
    expectSameShape(response, recorded(/\/processingData$/), { sameValuesAt: ['listEventData'] })
  })

  it('externalSummary?limit=3: nothing sent', async () => {
    const response = await s.call('GET', `/rest/externalSummary/${letter}?limit=3`, { auth: bbain })
    expectSameShape(response, recorded(/^\/rest\/externalSummary\//), { sameValuesAt: ['elementsSend'] })
  })

  it('history?resId&limit=3&onlyActions=true of a letter without actions', async () => {
    await grant('AGENT', ['view_doc_history'])
    const response = await s.call('GET', `/rest/history?resId=${quiet}&limit=3&onlyActions=true`, { auth: bbain })
    expectSameShape(response, recorded(/^\/rest\/history\?/), { sameValuesAt: ['history', 'count'] })
  })

  it('contactsCustomFields', async () => {
    const response = await s.call('GET', '/rest/contactsCustomFields', { auth: bbain })
    expectSameShape(response, recorded(/^\/rest\/contactsCustomFields$/), { sameValuesAt: ['customFields'] })
  })

  it('indexingModels/entities: each entity after its parent, with its depth', async () => {
    const response = await s.call('GET', '/rest/indexingModels/entities', { auth: bbain })
    const answer = recorded(/^\/rest\/indexingModels\/entities$/) as { status: number; body: { entities: unknown[] } }
    // Shape of a top-level entity and of one below it; the demo's tree is not the sample's.
    const mine = response.json as { entities: { entity_id: string; parent_entity_id?: string; level: number }[] }
    const top = mine.entities.find((e) => e.level === 0)
    const child = mine.entities.find((e) => e.level === 1)
    expectSameShape(
      { status: response.status, json: { entities: [top, child] } },
      { status: answer.status, body: { entities: [answer.body.entities[1], answer.body.entities[2]] } },
    )
    const seen = new Map<string, number>()
    for (const entity of mine.entities) {
      if (entity.parent_entity_id !== undefined) expect(seen.get(entity.parent_entity_id)).toBe(entity.level - 1)
      else expect(entity.level).toBe(0)
      seen.set(entity.entity_id, entity.level)
    }
  })

  it('the short lists of the page: attachments?limit=3 and notes?limit=3 of a letter without any', async () => {
    const attachments = await s.call('GET', `/rest/resources/${quiet}/attachments?limit=3`, { auth: bbain })
    expectSameShape(attachments, recorded(/\/attachments\?limit=3$/), {
      sameValuesAt: ['attachments', 'mailevaEnabled'],
    })
    const notes = await s.call('GET', `/rest/resources/${quiet}/notes?limit=3`, { auth: bbain })
    expectSameShape(notes, recorded(/\/notes\?limit=3$/), { sameValuesAt: ['notes'] })
  })
})

describe('GET …/processingData', () => {
  it("answers canUpdate false when the letter's status may not be modified, null when the group stores nothing", async () => {
    const locked = await s.call('GET', processing(frozen, BBAIN, AGENT, myBasket), { auth: bbain })
    expect([locked.status, locked.json]).toEqual([
      200,
      { listEventData: { defaultTab: 'dashboard', canUpdate: false } },
    ])
    const none = await s.call('GET', processing(letter, BBAIN, AGENT, plainBasket), { auth: bbain })
    expect([none.status, none.json]).toEqual([200, { listEventData: null }])
  })

  it('refuses, in 20.10’s order and words, ids that are not integers and baskets that are not the caller’s', async () => {
    const cases: [string, number, string][] = [
      [processing(letter, BBAIN, 'x', myBasket), 403, 'groupId param is not an integer'],
      [processing(letter, '4x', AGENT, myBasket), 403, 'userId param is not an integer'],
      // A NUL anywhere in a request is refused before any route (it could not be stored).
      [processing(letter, '%00', AGENT, myBasket), 400, NUL],
      [processing(letter, BBAIN, AGENT, '-1'), 403, 'basketId param is not an integer'],
      [processing('1e3', BBAIN, AGENT, myBasket), 403, 'resId param is not an integer'],
      [processing(letter, BBAIN, 99999999999, myBasket), 403, 'Group or basket does not exist'],
      [processing(letter, BBLIER, RESPONSABLE, dgsBasket), 403, 'Basket out of perimeter'],
      [processing(letter, BBAIN, RESPONSABLE, dgsBasket), 403, 'Group is not linked to this user'],
      [processing(letter, BBAIN, AGENT, dgsBasket), 403, 'Group is not linked to this basket'],
    ]
    for (const [path, status, errors] of cases) {
      const response = await s.call('GET', path, { auth: bbain })
      expect([path, response.status, response.json]).toEqual([path, status, { errors }])
    }
  })

  it('never tells whether a letter outside the perimeter exists, nor what its status allows', async () => {
    const answers = await Promise.all(
      [outside, 987654321, '99999999999999999999', '000'].map((resId) =>
        s.call('GET', processing(resId, BBAIN, AGENT, myBasket), { auth: bbain }),
      ),
    )
    for (const answer of answers)
      expect([answer.status, answer.json]).toEqual([403, { errors: 'Document out of perimeter' }])
    // bblier reads the DGS letter through his own basket.
    const his = await s.call('GET', processing(outside, BBLIER, RESPONSABLE, dgsBasket), { auth: bblier })
    expect([his.status, his.json]).toEqual([200, { listEventData: { defaultTab: 'info' } }])
  })
})

describe("beside the answers the real Maarch 20.10 gave the sample's clerks (letter-page-page.json)", () => {
  const FILE = 'letter-page-page.json'

  it('a history line: the same keys and types (ddaull reading letter 15 with view_full_history)', async () => {
    await grant('AGENT', ['view_full_history'])
    const response = await s.call('GET', `/rest/history?resId=${letter}&limit=3`, { auth: bbain })
    const exchange = maarchExchange(FILE, 'ddaull: QualificationBasket (group 1), letter 15 (in basket): history')
    expectSameShape(
      { status: response.status, json: { history: [(response.json as { history: unknown[] }).history[0]], count: 1 } },
      exchange.response,
    )
  })

  it("a group's list_event_data stored as [] is answered as stored; {canUpdate: false} on a letter that may not change", async () => {
    await s.mailroom.db
      .updateTable('groupbasket')
      .set({ list_event_data: '[]' })
      .where('basket_id', '=', 'PlainBasket')
      .execute()
    try {
      const stored = await s.call('GET', processing(letter, BBAIN, AGENT, plainBasket), { auth: bbain })
      const recorded = maarchExchange(
        FILE,
        'ppetit: DepartmentBasket (group 4), letter 20 (in basket): processing data',
      )
      expect([stored.status, stored.json]).toEqual([recorded.response.status, recorded.response.body])
      const frozenAnswer = await s.call('GET', processing(frozen, BBAIN, AGENT, plainBasket), { auth: bbain })
      expect(frozenAnswer.json).toEqual({ listEventData: { canUpdate: false } })
    } finally {
      await s.mailroom.db
        .updateTable('groupbasket')
        .set({ list_event_data: null })
        .where('basket_id', '=', 'PlainBasket')
        .execute()
    }
  })
})

describe('GET /rest/externalSummary/{resId}', () => {
  it('checks the perimeter, then the limit, as 20.10', async () => {
    for (const resId of [outside, 987654321, 'abc', '99999999999999999999']) {
      const response = await s.call('GET', `/rest/externalSummary/${resId}?limit=x`, { auth: bbain })
      expect([response.status, response.json]).toEqual([403, { errors: 'Document out of perimeter' }])
    }
    const badLimit = await s.call('GET', `/rest/externalSummary/${letter}?limit=-x`, { auth: bbain })
    expect([badLimit.status, badLimit.json]).toEqual([403, { errors: 'Query limit is not an int val' }])
    const all = await s.call('GET', `/rest/externalSummary/${letter}`, { auth: bbain })
    expect([all.status, all.json]).toEqual([200, { elementsSend: [] }])
  })
})

describe('GET /rest/resources/{resId}/users/{userId}/isDestinationChanging', () => {
  const changing = (resId: number | string, userId: number | string, auth = bbain) =>
    s.call('GET', `/rest/resources/${resId}/users/${userId}/isDestinationChanging`, { auth })
  const SUPERADMIN = 1

  it("is false for a member of the letter's department, true for anyone else (the redirect dialog warns then)", async () => {
    const answers = await Promise.all([changing(letter, BBAIN), changing(letter, BBLIER), changing(letter, SUPERADMIN)])
    expect(answers.map((a) => [a.status, a.json])).toEqual([
      [200, { isDestinationChanging: false }],
      [200, { isDestinationChanging: true }],
      [200, { isDestinationChanging: true }],
    ])
    // bblier asks about the DGS letter of his own perimeter.
    const his = await changing(outside, BBLIER, bblier)
    expect([his.status, his.json]).toEqual([200, { isDestinationChanging: false }])
  })

  it('tells nothing of a letter outside the perimeter, whoever the user asked about', async () => {
    for (const resId of [outside, 987654321, 'abc', '99999999999999999999', '0'])
      for (const userId of [BBLIER, 'x', '99999999999999999999']) {
        const response = await changing(resId, userId)
        expect([resId, userId, response.status, response.json]).toEqual([
          resId,
          userId,
          403,
          { errors: 'Document out of perimeter' },
        ])
      }
  })

  it('refuses a user id that names no user with 400, never 500', async () => {
    for (const userId of [987654, '99999999999999999999', '-1', '1e3', 'abc', '0']) {
      const response = await changing(letter, userId)
      expect([userId, response.status, response.json]).toEqual([userId, 400, { errors: 'User does not exist' }])
    }
    const nul = await changing(letter, '%00')
    expect([nul.status, nul.json]).toEqual([400, { errors: NUL }])
  })
})

describe('GET /rest/notesTemplates', () => {
  const templates = (query: string) => s.call('GET', `/rest/notesTemplates${query}`, { auth: bbain })

  it("checks a numeric resId's perimeter, as 20.10, then lists no template (Mailroom keeps none yet)", async () => {
    for (const query of [`?resId=${letter}`, '', '?resId=abc', '?resId=0', '?resId=', '?resId[]=1']) {
      const response = await templates(query)
      expect([query, response.status, response.json]).toEqual([query, 200, { templates: [] }])
    }
    for (const resId of [outside, 987654321, '99999999999999999999', '1e3', '%20-1', '00']) {
      const response = await templates(`?resId=${resId}`)
      expect([resId, response.status, response.json]).toEqual([resId, 403, { errors: 'Document out of perimeter' }])
    }
    const nul = await templates('?resId=1%00')
    expect([nul.status, nul.json]).toEqual([400, { errors: NUL }])
  })
})

describe('GET /rest/history', () => {
  const history = async (query: string, auth = bbain) => s.call('GET', `/rest/history?${query}`, { auth })

  it("lists a letter's actions to a holder of view_doc_history, newest first, with the user's name", async () => {
    await grant('AGENT', ['view_doc_history'])
    const response = await history(`resId=${letter}&limit=3&onlyActions=true`)
    expect(response.status).toBe(200)
    expect(response.json).toEqual({
      history: [
        {
          record_id: String(letter),
          event_date: '2026-11-22 09:00:00.000000',
          user_id: BBLIER,
          info: 'Courriers à traiter : Rediriger',
          remote_ip: '192.0.2.7',
          userLabel: 'Bernard BLIER',
        },
        {
          record_id: String(letter),
          event_date: '2026-11-21 09:00:00.000000',
          user_id: BBAIN,
          info: 'Courriers à traiter : Cloturer',
          remote_ip: '192.0.2.7',
          userLabel: 'Barbara BAIN',
        },
      ],
      count: 2,
    })
  })

  it('asks view_full_history for every line of a letter, view_history for the whole history', async () => {
    await grant('AGENT', ['view_doc_history'])
    for (const query of [`resId=${letter}`, `resId=${letter}&onlyActions=0`, 'limit=3', 'onlyActions=true']) {
      const refused = await history(query)
      expect([query, refused.status, refused.json]).toEqual([query, 403, { errors: 'Service forbidden' }])
    }
    await grant('AGENT', [])
    const none = await history(`resId=${letter}&onlyActions=true`)
    expect([none.status, none.json]).toEqual([403, { errors: 'Service forbidden' }])

    await grant('AGENT', ['view_full_history'])
    const full = await history(`resId=${letter}`)
    // The notes' line is another table's: not the letter's history. The link's chrono is outside bbain's perimeter.
    expect((full.json as { history: { info: string }[] }).history.map((l) => l.info)).toEqual([
      'Liaison ajoutée : courrier hors de votre périmètre',
      'Courriers à traiter : Rediriger',
      'Courriers à traiter : Cloturer',
      'Courrier créé',
    ])
    await grant('AGENT', ['view_history'])
    const everything = await history('limit=500&search=Cloturer')
    const infos = (everything.json as { history: { info: string; record_id: string }[] }).history.map(
      (l) => l.record_id,
    )
    expect(infos).toEqual(expect.arrayContaining([String(letter), String(outside)]))
  })

  it('tells nothing of a letter outside the perimeter, whatever the privileges', async () => {
    await grant('AGENT', ['view_full_history', 'view_doc_history'])
    for (const resId of [outside, 987654321, 'abc', '99999999999999999999', '-1']) {
      const response = await history(`resId=${resId}&onlyActions=true`)
      expect([String(resId), response.status, response.json]).toEqual([
        String(resId),
        403,
        { errors: 'Document out of perimeter' },
      ])
    }
  })

  it('pages, orders and filters as 20.10', async () => {
    await grant('AGENT', ['view_full_history'])
    const page = await history(`resId=${letter}&limit=2&offset=2&order=asc&orderBy=event_date`)
    expect(page.json).toMatchObject({ count: 4 })
    expect((page.json as { history: { info: string }[] }).history.map((l) => l.info)).toEqual([
      'Courriers à traiter : Rediriger',
      'Liaison ajoutée : courrier hors de votre périmètre',
    ])
    const past = await history(`resId=${letter}&offset=40`)
    expect(past.json).toEqual({ history: [], count: 0 })
    const byUser = await history(`resId=${letter}&users[]=bblier`)
    expect((byUser.json as { count: number }).count).toBe(1)
    const byId = await history(`resId=${letter}&users[]=${BBAIN}&users[]=nobody`)
    expect((byId.json as { count: number }).count).toBe(3)
    const byAction = await history(`resId=${letter}&actions[]=20&systemActions[]=ADD`)
    expect((byAction.json as { count: number }).count).toBe(2)
    const dated = await history(`resId=${letter}&startDate=2026-11-21T12:00:00Z&endDate=2026-11-23T12:00:00Z`)
    expect((dated.json as { count: number }).count).toBe(2)
    const searched = await history(`resId=${letter}&search=${encodeURIComponent('traiter Clot')}`)
    expect((searched.json as { history: { info: string }[] }).history.map((l) => l.info)).toEqual([
      'Courriers à traiter : Cloturer',
    ])
    // Wildcards are the caller's text, not patterns.
    const wildcard = await history(`resId=${letter}&search=${encodeURIComponent('%_')}`)
    expect((wildcard.json as { count: number }).count).toBe(0)
  })

  it('refuses a page, a date or a filter it cannot use with 400, never 500', async () => {
    await grant('AGENT', ['view_full_history', 'view_history'])
    const cases: [string, string][] = [
      [`resId=${letter}&limit=-1`, 'Query limit is not valid'],
      [`resId=${letter}&limit=501`, 'Query limit is not valid'],
      [`resId=${letter}&offset=99999999999`, 'Query offset is not valid'],
      [`resId=${letter}&startDate=yesterday`, 'Query startDate is not valid'],
      [`resId=${letter}&endDate=2026-13-45`, 'Query endDate is not valid'],
      [
        `systemActions[]=${'A,'.repeat(10)}&${Array.from({ length: 101 }, (_, i) => `actions[]=${i}`).join('&')}`,
        'Query actions is not valid',
      ],
    ]
    for (const [query, errors] of cases) {
      const response = await history(query)
      expect([query, response.status, response.json]).toEqual([query, 400, { errors }])
    }
    for (const query of [`resId=${letter}&search=a%00b`, 'users[]=bb%00ain']) {
      const response = await history(query)
      expect([query, response.status, response.json]).toEqual([query, 400, { errors: NUL }])
    }
    // What 20.10 ignores, Mailroom ignores too: a limit that is no number, an unknown order.
    const ignored = await history(`resId=${letter}&limit=abc&orderBy=password&order=sideways`)
    expect([ignored.status, (ignored.json as { count: number }).count]).toEqual([200, 4])
  })
})

describe('GET /rest/indexingModels/entities and /rest/indexingModels/{id}', () => {
  it('serves the entities without taking them for a model id', async () => {
    const entities = await s.call('GET', '/rest/indexingModels/entities', { auth: bbain })
    expect(entities.status).toBe(200)
    expect((entities.json as { entities: unknown[] }).entities.length).toBeGreaterThan(1)
    const model = await s.call('GET', '/rest/indexingModels/1', { auth: bbain })
    expect(model.status).toBe(200)
  })
})
