import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  expectSameShape,
  type MaarchExchange,
  readMaarchExchanges,
  replayMaarchRequest,
  type ShapeOptions,
  shapeDifferences,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/**
 * Each recorded request of Maarch 20.10's reference-data routes, sent to Mailroom (demo organisation) and
 * compared with Maarch's answer: status, error message, body shape. The demo's data differ from the sample's
 * (ids, labels, how many): values are compared where they must be equal. Where Mailroom answers otherwise on
 * purpose (docs/user-guide.md lists each difference), the test names what it answers instead.
 */

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

/** The same paths for every item of a list (`entities.0.parent_id`, `entities.1.parent_id`, …). */
function everyItem(list: string, count: number, fields: readonly string[]): string[] {
  return Array.from({ length: count }, (_, index) => fields.map((field) => `${list}.${index}.${field}`)).flat()
}

/**
 * Items of a list that mixes kinds (jsTree nodes: first levels, second levels, types; allowed and disabled
 * entities): each of Mailroom's items must have the shape of a recorded item of the same kind.
 */
function expectItemsOfRecordedKinds(
  actual: readonly unknown[],
  recorded: readonly unknown[],
  kindOf: (item: Record<string, unknown>) => string,
  options: ShapeOptions = {},
): void {
  const byKind = new Map<string, unknown>()
  for (const item of recorded) byKind.set(kindOf(item as Record<string, unknown>), item)
  for (const item of actual) {
    const kind = kindOf(item as Record<string, unknown>)
    const model = byKind.get(kind)
    expect(model, `Maarch's answer has an item of kind ${kind}`).toBeDefined()
    expect(shapeDifferences(item, model, options)).toEqual([])
  }
}

async function replay(exchange: MaarchExchange) {
  return replayMaarchRequest(s, exchange)
}

describe('GET /rest/entities (entities.json)', () => {
  const [asCchaplin, asBbain, asDdur, byInteger, byString] = readMaarchExchanges('entities.json')

  it.each([asCchaplin!, asBbain!, asDdur!])('$name: every enabled entity as a jsTree node', async (exchange) => {
    const answer = await replay(exchange)
    expect(answer.status).toBe(exchange.response.status)
    const recorded = (exchange.response.body as { entities: unknown[] }).entities
    const entities = (answer.json as { entities: Record<string, unknown>[] }).entities
    expect(entities.length).toBeGreaterThan(0)
    // Top-level nodes carry '#' and null where the others carry serial ids: compared kind by kind.
    const kind = (item: Record<string, unknown>) => `${item.parent === '#'}/${item.allowed}`
    expectItemsOfRecordedKinds(entities, recorded, kind)
  })

  it("marks the caller's entities and those below them as allowed, the others disabled", async () => {
    const answer = await replay(asBbain!)
    const entities = (answer.json as { entities: { id: string; allowed: boolean; state: object }[] }).entities
    expect(entities.filter((e) => e.allowed).map((e) => e.id)).toContain('PJS')
    expect(entities.find((e) => e.id === 'VILLE')).toMatchObject({ allowed: false, state: { disabled: true } })
    const root = await s.call('GET', '/rest/entities', { auth: 'superadmin:superadmin' })
    expect((root.json as { entities: { allowed: boolean }[] }).entities.every((e) => e.allowed)).toBe(true)
  })

  it("keeps reading one entity by its integer or string id (the interface's shape, where 20.10 answers 500 to a string)", async () => {
    expect(byInteger!.response.status).toBe(200)
    const integer = await replay(byInteger!)
    expect(integer.status).toBe(200)
    expect(byString!.response.status).toBe(500)
    const string = await replay(byString!)
    expect(string.status).toBe(200)
    expect((string.json as { entity: { entity_id: string } }).entity.entity_id).toBe('PJS')
  })
})

describe('GET /rest/doctypes (doctypes.json, doctypes-types.json)', () => {
  it.each(readMaarchExchanges('doctypes.json'))('$name: first levels, second levels and types', async (exchange) => {
    const answer = await replay(exchange)
    expect(answer.status).toBe(200)
    const structure = (answer.json as { structure: Record<string, unknown>[] }).structure
    const kind = (item: Record<string, unknown>) =>
      typeof item.id === 'number' ? 'type' : String(item.id).split('_')[0]!
    expect(new Set(structure.map(kind))).toEqual(new Set(['firstlevel', 'secondlevel', 'type']))
    // Mailroom keeps no retention rules: those keys are null where the sample has values.
    expectItemsOfRecordedKinds(structure, (exchange.response.body as { structure: unknown[] }).structure, kind, {
      anyTypeAt: ['retention_final_disposition', 'retention_rule', 'duration_current_use'],
    })
  })

  const [type101, type305, unknown, notInteger] = readMaarchExchanges('doctypes-types.json')
  const retention = {
    anyTypeAt: ['doctype.retention_final_disposition', 'doctype.retention_rule', 'doctype.duration_current_use'],
  }

  it("type 101: the type with its process delay (the demo's 21 days), which the capture client reads", async () => {
    const answer = await replay(type101!)
    expectSameShape(answer, type101!.response, { ...retention, sameValuesAt: ['doctype.type_id'] })
    expect((answer.json as { doctype: { process_delay: number } }).doctype.process_delay).toBe(21)
  })

  it('type 305 is not in the demo: answered as an unknown type', async () => {
    const answer = await replay(type305!)
    expectSameShape(answer, unknown!.response, { sameValuesAt: ['doctype'] })
  })

  it('an unknown id answers 200 with "doctype": [] as 20.10 does', async () => {
    const answer = await replay(unknown!)
    expectSameShape(answer, unknown!.response, { sameValuesAt: ['doctype'] })
  })

  it('an id that is not an integer answers 400 Route id is not an integer (20.10: 500)', async () => {
    expect(notInteger!.response.status).toBe(500)
    const answer = await replay(notInteger!)
    expectSameShape(answer, { status: 400, body: { errors: 'Route id is not an integer' } })
    // Past PostgreSQL's integer (2147483648 and beyond) no type can exist: a malformed id, before any statement.
    for (const id of ['-1', '1.5', '1e3', '%20', '99999999999999999999', '9999999999', '2147483648']) {
      const other = await s.call('GET', `/rest/doctypes/types/${id}`)
      expect([other.status, other.json], id).toEqual([400, { errors: 'Route id is not an integer' }])
    }
    const unknown = await s.call('GET', '/rest/doctypes/types/2147483647')
    expect(unknown.status).toBe(200)
    expect((unknown.json as { doctype: unknown }).doctype).toEqual([])
  })
})

describe('plain lists (statuses.json, priorities.json, custom-fields.json, tags.json)', () => {
  it.each(readMaarchExchanges('statuses.json'))('statuses, $name', async (exchange) => {
    const answer = await replay(exchange)
    const count = (answer.json as { statuses: unknown[] }).statuses.length
    expectSameShape(answer, exchange.response, { anyTypeAt: everyItem('statuses', count, ['img_filename']) })
  })

  it.each(readMaarchExchanges('priorities.json'))('priorities, $name', async (exchange) => {
    expectSameShape(await replay(exchange), exchange.response)
  })

  it.each(readMaarchExchanges('custom-fields.json'))('custom fields, $name', async (exchange) => {
    expectSameShape(await replay(exchange), exchange.response)
  })

  it.each(readMaarchExchanges('tags.json'))('tags, $name', async (exchange) => {
    const answer = await replay(exchange)
    const count = (answer.json as { tags: unknown[] }).tags.length
    // Mailroom keeps no tag creation date: null where 20.10 has one.
    expectSameShape(answer, exchange.response, { anyTypeAt: everyItem('tags', count, ['creationDate']) })
  })
})

describe('GET /rest/indexingModels (indexing-models.json)', () => {
  const exchanges = readMaarchExchanges('indexing-models.json')

  it.each(exchanges.filter((e) => e.response.status !== 500))('$name', async (exchange) => {
    const answer = await replay(exchange)
    const json = answer.json as { indexingModel?: { fields: unknown[] }; indexingModels?: unknown[] }
    const fields = json.indexingModel?.fields.length ?? 0
    // default_value is any JSON (null, "_TODAY", []): its type follows the field. The demo's models have no owner.
    expectSameShape(answer, exchange.response, {
      anyTypeAt: [
        ...everyItem('indexingModel.fields', fields, ['default_value', 'unit']),
        ...everyItem('indexingModels', json.indexingModels?.length ?? 0, ['owner']),
        'indexingModel.owner',
      ],
    })
  })

  it("a model's fields have 20.10's shape (the demo's models have none: one is added)", async () => {
    await s.mailroom.organisation.apply({
      version: 1,
      indexingModels: [
        {
          id: 50,
          label: 'Avec champs',
          category: 'incoming',
          fields: [
            { identifier: 'doctype', mandatory: true, unit: 'mail' },
            { identifier: 'arrivalDate', mandatory: true, defaultValue: '_TODAY', unit: 'mail' },
            { identifier: 'senders', defaultValue: [], unit: 'contact' },
          ],
        },
      ],
    })
    const model1 = exchanges.find((e) => e.name === 'model 1')!
    const answer = await replay({ ...model1, request: { ...model1.request, path: '/indexingModels/50' } })
    expectSameShape(answer, model1.response, {
      anyTypeAt: ['indexingModel.owner', ...everyItem('indexingModel.fields', 3, ['default_value'])],
    })
    expect((answer.json as { indexingModel: { fields: unknown[] } }).indexingModel.fields).toEqual([
      { identifier: 'doctype', mandatory: true, default_value: null, unit: 'mail', enabled: true },
      { identifier: 'arrivalDate', mandatory: true, default_value: '_TODAY', unit: 'mail', enabled: true },
      { identifier: 'senders', mandatory: false, default_value: [], unit: 'contact', enabled: true },
    ])
  })

  it('model abc answers 400 Route id is not an integer (20.10: 500)', async () => {
    const exchange = exchanges.find((e) => e.response.status === 500)!
    expectSameShape(await replay(exchange), { status: 400, body: { errors: 'Route id is not an integer' } })
  })
})

describe('GET /rest/users (users.json)', () => {
  it.each(readMaarchExchanges('users.json'))('$name', async (exchange) => {
    const answer = await replay(exchange)
    const count = (answer.json as { users?: unknown[] }).users?.length ?? 0
    expectSameShape(answer, exchange.response, { anyTypeAt: everyItem('users', count, ['mail', 'firstname']) })
  })
})

describe('GET /rest/folders (folders.json)', () => {
  it.each(readMaarchExchanges('folders.json'))('$name', async (exchange) => {
    expectSameShape(await replay(exchange), exchange.response)
  })
})

describe('GET /rest/parameters (parameters.json, parameters-one.json)', () => {
  it.each(readMaarchExchanges('parameters.json'))('$name', async (exchange) => {
    const answer = await replay(exchange)
    const parameters = (answer.json as { parameters: Record<string, unknown>[] }).parameters
    // Parameters differ in which value they hold and whether a value is listed: compared id by id.
    expect(parameters.map((p) => p.id).sort()).toEqual(
      (exchange.response.body as { parameters: { id: string }[] }).parameters.map((p) => p.id).sort(),
    )
    const recorded = (exchange.response.body as { parameters: Record<string, unknown>[] }).parameters
    for (const parameter of parameters) {
      const same = recorded.find((p) => p.id === parameter.id)
      expect(shapeDifferences(parameter, same, { sameValuesAt: ['id', 'value', 'param_value_int'] })).toEqual([])
    }
  })

  it.each(readMaarchExchanges('parameters-one.json'))('$name', async (exchange) => {
    expectSameShape(await replay(exchange), exchange.response, { sameValuesAt: ['parameter'] })
  })
})

describe('GET /rest/currentUser/profile (current-user-profile.json)', () => {
  it.each(readMaarchExchanges('current-user-profile.json'))('$name', async (exchange) => {
    const answer = await replay(exchange)
    const json = answer.json as { groups?: unknown[] }
    // Mailroom keeps no user preferences (20.10: the document editor): {} where 20.10 names one. Baskets are
    // empty lists, which the comparison accepts in place of 20.10's.
    const recorded =
      exchange.response.status === 200
        ? { ...exchange.response, body: { ...(exchange.response.body as object), preferences: {} } }
        : exchange.response
    expectSameShape(answer, recorded, {
      anyTypeAt: everyItem('groups', json.groups?.length ?? 0, ['maarch_comment', 'group_desc']),
    })
  })
})

describe('GET /rest/currentUser/profile: privileges and groups', () => {
  it("lists the privileges of each group in turn (the WEBSERVICE group's for cchaplin), ALL_PRIVILEGES for root", async () => {
    const cchaplin = await s.call('GET', '/rest/currentUser/profile', { auth: 'cchaplin:maarch' })
    const profile = cchaplin.json as { privileges: string[]; groups: Record<string, unknown>[]; mode: string }
    expect(profile.privileges).toEqual(expect.arrayContaining(['admin_parameters', 'admin_users', 'create_contacts']))
    expect(profile.mode).toBe('rest')
    // The perimeter clause is not the user's business: 20.10 removes it, so does Mailroom.
    for (const group of profile.groups) expect(group).not.toHaveProperty('where_clause')
    const root = await s.call('GET', '/rest/currentUser/profile', { auth: 'superadmin:superadmin' })
    expect((root.json as { privileges: string[] }).privileges).toEqual(['ALL_PRIVILEGES'])
  })
})

describe("the capture client's reference steps (capture-workflow.json)", () => {
  const steps = readMaarchExchanges('capture-workflow.json').filter((e) =>
    ['/entities', '/doctypes', '/users', '/customFields', '/doctypes/types/101', '/parameters/workingDays'].includes(
      e.request.path,
    ),
  )

  it('covers the six reads WebServices.py makes before it creates a letter', () => {
    expect(steps.map((e) => e.request.path)).toEqual([
      '/entities',
      '/doctypes',
      '/users',
      '/customFields',
      '/doctypes/types/101',
      '/parameters/workingDays',
    ])
  })

  it.each(steps)('$name: 200 with what the client reads, sent as the client sends it', async (exchange) => {
    // WebServices.py sends Content-Type: application/json on its GETs, with no body.
    const answer = await s.call('GET', `/rest${exchange.request.path}`, {
      auth: 'cchaplin:maarch',
      headers: { 'content-type': 'application/json', connection: 'close' },
    })
    expect(answer.status, answer.text.slice(0, 200)).toBe(200)
    const recorded = exchange.response.body as Record<string, unknown>
    expect(Object.keys(answer.json as object).sort()).toEqual(Object.keys(recorded).sort())
  })

  it('gives the client a delay and workingDays to compute the process limit date from', async () => {
    const doctype = await s.call('GET', '/rest/doctypes/types/101', { auth: 'cchaplin:maarch' })
    const workingDays = await s.call('GET', '/rest/parameters/workingDays', { auth: 'cchaplin:maarch' })
    expect(typeof (doctype.json as { doctype: { process_delay: unknown } }).doctype.process_delay).toBe('number')
    expect((workingDays.json as { parameter: { param_value_int: unknown } }).parameter.param_value_int).toBe(1)
  })
})
