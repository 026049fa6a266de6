import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  expectSameShape,
  insertStandInRecord,
  seedBaskets,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * The answers the real Maarch 20.10 gave bbain in a recorded journey of its web client (GET /rest/home, the list
 * of "Courriers à traiter", lastRessources, isAllowed, the profile's baskets), read from ../shared beside the
 * repository when it is there (GPL material: read, never copied), compared in shape with Mailroom's answers on
 * this file's own basket and records. Without ../shared the comparison is skipped, saying so; with CI=true it
 * fails instead.
 */

const JOURNEY = fileURLToPath(
  new URL('../../../../../shared/reference/maarch-20.10-web-client/journey-20.10.json', import.meta.url),
)
const present = existsSync(JOURNEY)
if (!present) {
  if (process.env.CI === 'true') throw new Error(`CI must run every test: ${JOURNEY} is missing`)
  process.stderr.write(`the baskets' journey comparison is skipped: ${JOURNEY} is missing\n`)
}

interface Step {
  readonly method: string
  readonly path: string
  readonly status: number
  readonly body: string
}

const steps: Step[] = present ? JSON.parse(readFileSync(JOURNEY, 'utf8')) : []
const recorded = (method: string, path: RegExp) => {
  const step = steps.find((s) => s.method === method && path.test(s.path))
  if (!step) throw new Error(`the journey has no ${method} ${path}`)
  return { status: step.status, body: JSON.parse(step.body) as Record<string, any> }
}

let s: TestServer
let basketId = 0
let resId = 0
const AGENT = 4

beforeAll(async () => {
  if (!present) return
  s = await startTestServer()
  // The list's display as the journey shows it (each row's items, without their values).
  const list = recorded('GET', /^\/rest\/resourcesList\/users\/\d+\/groups\/\d+\/baskets\/\d+\?/)
  const subInfos = list.body.resources[0].display.map(({ displayValue: _, ...item }: Record<string, unknown>) => item)
  const ids = await seedBaskets(s.mailroom.db, [
    {
      basketId: 'MyBasket',
      name: 'Courriers à traiter',
      clause: "status in ('NEW', 'COU') and destination in (@my_entities)",
      groups: [
        {
          groupId: 'AGENT',
          listDisplay: { templateColumns: list.body.templateColumns, subInfos },
          listEvent: list.body.defaultAction.component,
          listEventData: list.body.defaultAction.data,
        },
      ],
    },
  ])
  basketId = ids.get('MyBasket')!
  resId = await insertStandInRecord(s.mailroom.db, {
    destination: 'PJS',
    subject: "Demande de subvention du banc d'essai",
    filename: 'courrier.pdf',
    confidentiality: 'N',
  })
  await s.mailroom.db
    .insertInto('history')
    .values({
      table_name: 'res_letterbox',
      record_id: String(resId),
      event_type: 'ADD',
      user_id: 3,
      info: 'x',
      event_id: 'resadd',
    })
    .execute()
})
afterAll(async () => s?.close())

// The demo's statuses have no image and its records no chrono where the sample's have one (or the reverse).
const EITHER_NULL = ['chrono', 'statusImage', 'priorityColor', 'closing_date', 'alt_identifier', 'status_icon']

describe.skipIf(!present)("the baskets' routes beside the answers Maarch 20.10 gave in a recorded journey", () => {
  it('GET /rest/home', async () => {
    const response = await s.call('GET', '/rest/home', { auth: demoAuth('bbain') })
    expectSameShape(response, recorded('GET', /^\/rest\/home$/), { anyTypeAt: ['homeMessage'] })
  })

  it("GET a basket's list", async () => {
    const path = `/rest/resourcesList/users/3/groups/${AGENT}/baskets/${basketId}?limit=10&offset=0`
    const response = await s.call('GET', path, { auth: demoAuth('bbain') })
    const answer = recorded('GET', /^\/rest\/resourcesList\/users\/\d+\/groups\/\d+\/baskets\/\d+\?/)
    const display = answer.body.resources[0].display.map(
      (_: unknown, i: number) => `resources.0.display.${i}.displayValue`,
    )
    expectSameShape(response, answer, {
      anyTypeAt: [...EITHER_NULL.map((key) => `resources.0.${key}`), ...display],
      sameValuesAt: ['templateColumns', 'defaultAction', 'displayFolderTags'],
    })
    expect(response.json.resources[0].display.map((d: { value: string }) => d.value)).toEqual(
      answer.body.resources[0].display.map((d: { value: string }) => d.value),
    )
  })

  it('GET /rest/home/lastRessources', async () => {
    const response = await s.call('GET', '/rest/home/lastRessources', { auth: demoAuth('bbain') })
    expectSameShape(response, recorded('GET', /^\/rest\/home\/lastRessources$/), {
      anyTypeAt: EITHER_NULL.map((key) => `lastResources.0.${key}`),
    })
  })

  it('GET /rest/resources/{resId}/isAllowed', async () => {
    const response = await s.call('GET', `/rest/resources/${resId}/isAllowed`, { auth: demoAuth('bbain') })
    expectSameShape(response, recorded('GET', /^\/rest\/resources\/\d+\/isAllowed$/), {
      sameValuesAt: ['isAllowed'],
    })
  })

  it("GET /rest/currentUser/profile's baskets", async () => {
    const response = await s.call('GET', '/rest/currentUser/profile', { auth: demoAuth('bbain') })
    const answer = recorded('GET', /^\/rest\/currentUser\/profile$/)
    const baskets = ['baskets', 'assignedBaskets', 'redirectedBaskets', 'regroupedBaskets']
    expectSameShape(
      { status: response.status, json: Object.fromEntries(baskets.map((key) => [key, response.json[key]])) },
      { status: answer.status, body: Object.fromEntries(baskets.map((key) => [key, answer.body[key]])) },
    )
  })
})
