import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestResponse, type TestServer } from '../../../testing/src/index.js'
import { JSON_NESTING_LIMIT } from '../../../testing/src/test-core-internals.js'
import { ROUTES } from '../routes/index.js'

/**
 * The hostile values of issue 51 sent to every declared route, as every kind of user: nesting beyond the body
 * bound and just under it, NULs in strings and keys, ids past PostgreSQL's integer, numbers past JavaScript's
 * safe integers, lone surrogates, numbers written as strings, negative zero. In a path parameter, a query
 * parameter, a field of the route's own example body, or as the whole body. The rules: never a 5xx, every answer
 * within a few seconds, and the server still answers a plain request afterwards.
 */
const ON_POSTGRES = process.env.MAILROOM_TEST_DB === 'postgres'
// Each database gets samples of its own: CI's two runs between them try twice as many placements.
const SEED = 20261201 + (ON_POSTGRES ? 1 : 0)
// Requests per route and kind of user, drawn from the values × placements below.
const SAMPLES = Number(process.env.MAILROOM_HOSTILE_SAMPLES ?? 5)
/**
 * Longest an answer to one hostile request may take: each is refused in milliseconds, but four callers share
 * PGlite's one connection, on CI machines that run other suites beside this one.
 */
const ANSWER_WITHIN_MS = 10_000

const USERS = {
  anonymous: null,
  clerk: 'bbain:maarch',
  admin: 'superadmin:superadmin',
  webService: 'cchaplin:maarch',
} as const

/** `depth` arrays, or objects, around `leaf`: JSON text, never built as a value (200,000 levels would not be). */
const deepArray = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
const deepObject = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`
const NUL = '"\\u0000"'

/** Values as JSON text, placed as a field's value (the body around them adds one level) or as the whole body. */
const FIELD_VALUES = [
  '"a\\u0000b"',
  '{"k\\u0000":1}',
  '["x","\\u0000"]',
  '"\\ud800"',
  '"x\\udfff"',
  '2147483648',
  '"2147483648"',
  '-2147483649',
  '9007199254740991',
  '"9007199254740991"',
  '9007199254740993',
  '1e308',
  '"1e308"',
  '-1e308',
  '-0',
  '"-0"',
  '"12"',
  '"1.5"',
  '{"1":{"2":[]}}',
  '{"1":"a","2":["b"]}',
  // The body around adds a level: just under the bound, and just beyond.
  deepArray(JSON_NESTING_LIMIT - 2, NUL),
  deepObject(JSON_NESTING_LIMIT - 2, NUL),
  deepArray(JSON_NESTING_LIMIT, NUL),
  deepObject(JSON_NESTING_LIMIT, NUL),
] as const
/** Whole bodies: the sizes seen to overflow the stack, and the bound itself. */
const WHOLE_BODIES = [
  deepArray(200_000, NUL),
  deepObject(100_000, NUL),
  deepArray(JSON_NESTING_LIMIT, NUL),
  deepObject(JSON_NESTING_LIMIT + 1, '1'),
] as const
/** Path and query values, as sent in the URL. */
const URL_VALUES = [
  '2147483648',
  '2147483647',
  '9007199254740991',
  '9007199254740993',
  '99999999999999999999',
  '1e308',
  '-0',
  '0x10',
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%EF%BF%BF',
  '12',
  '-1',
  '1.5',
] as const

interface Placement {
  readonly where: 'path' | 'query' | 'field' | 'body'
  readonly value: string
  readonly key?: string
}

type Route = (typeof ROUTES)[number]
const methodOf = (route: Route) => route.method.toUpperCase()
const pathParams = (route: Route) => [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string)
const shapeKeys = (schema: unknown): string[] => {
  const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape
  return shape ? Object.keys(shape) : []
}
const requestOf = (route: Route) => ('request' in route ? route.request : undefined)
const queryKeys = (route: Route) => shapeKeys(requestOf(route)?.query)
const bodyOf = (route: Route) => requestOf(route)?.body
const hasBody = (route: Route) => route.method !== 'get' && route.method !== 'delete'

/** Every placement a route offers, each value in each. */
function placements(route: Route): Placement[] {
  const all: Placement[] = []
  for (const key of pathParams(route)) for (const value of URL_VALUES) all.push({ where: 'path', key, value })
  for (const key of [...queryKeys(route), 'id'])
    for (const value of URL_VALUES) all.push({ where: 'query', key, value })
  if (hasBody(route)) {
    const keys = [...new Set([...shapeKeys(bodyOf(route)?.schema), ...Object.keys(exampleOf(route))])]
    for (const key of keys.length ? keys : ['x'])
      for (const value of FIELD_VALUES) all.push({ where: 'field', key, value })
    for (const value of [...FIELD_VALUES, ...WHOLE_BODIES]) all.push({ where: 'body', value })
  }
  return all
}

function exampleOf(route: Route): Record<string, unknown> {
  const body = bodyOf(route)
  const first = Object.values(body?.examples ?? {})[0]
  const example: unknown = body?.example ?? (first && 'value' in first ? first.value : undefined)
  return example && typeof example === 'object' && !Array.isArray(example) ? (example as Record<string, unknown>) : {}
}

/** The request a placement makes: other path parameters name the demo's first record, contact, entity… */
function requestFor(route: Route, placement: Placement): { path: string; rawBody?: string } {
  let path = route.path
  for (const name of pathParams(route))
    path = path.replace(`:${name}`, placement.where === 'path' && placement.key === name ? placement.value : '1')
  if (placement.where === 'query') path += `?${placement.key}=${placement.value}`
  if (!hasBody(route)) return { path }
  if (placement.where === 'body') return { path, rawBody: placement.value }
  const fields = Object.entries(exampleOf(route)).filter(([key]) => key !== placement.key)
  const parts = fields.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`)
  if (placement.where === 'field') parts.push(`${JSON.stringify(placement.key)}:${placement.value}`)
  return { path, rawBody: `{${parts.join(',')}}` }
}

let s: TestServer
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false }, http: { requestTimeoutMs: 15_000 } })
  // Records in the clerk's perimeter and outside it, so that id 1 and its neighbours name something.
  for (const destination of ['PJS', 'COU', 'DSI'])
    await s.mailroom.db
      .insertInto('res_letterbox')
      .values({ typist: 1, type_id: 101, category_id: 'incoming', model_id: 1, status: 'NEW', destination })
      .execute()
})
afterAll(async () => s?.close())

async function answered(call: Promise<TestResponse>, what: string): Promise<TestResponse> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      call,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`not answered within ${ANSWER_WITHIN_MS} ms: ${what}`)),
          ANSWER_WITHIN_MS,
        )
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

/** The server still answers its probe and an authenticated read. */
async function expectStillServing(after: string) {
  const health = await answered(s.call('GET', '/healthz', { auth: null }), `GET /healthz after ${after}`)
  expect(health.status, `GET /healthz after ${after}`).toBe(200)
  const read = await answered(s.call('GET', '/rest/entities/PJS'), `GET /rest/entities/PJS after ${after}`)
  expect(read.status, `GET /rest/entities/PJS after ${after}`).toBe(200)
}

const served = ROUTES.filter((route) => route.path !== '/metrics')

describe.sequential(`hostile values on every route (${SAMPLES} per route and user)`, () => {
  for (const [routeIndex, route] of served.entries()) {
    it(`${methodOf(route)} ${route.path}`, async () => {
      const all = placements(route)
      const failures: string[] = []
      // The four kinds of user at once, each with its own sample: a route meets concurrent hostile callers.
      await Promise.all(
        Object.entries(USERS).map(async ([user, auth], userIndex) => {
          const picked = fc.sample(fc.constantFrom(...all), {
            numRuns: SAMPLES,
            seed: SEED + routeIndex * 4 + userIndex,
          })
          // The whole bodies of the sizes seen to overflow the stack go to every route with a body.
          if (hasBody(route)) picked.push({ where: 'body', value: WHOLE_BODIES[userIndex % 2] as string })
          for (const placement of picked) {
            const request = requestFor(route, placement)
            const what = `${methodOf(route)} ${request.path.slice(0, 120)} as ${user} (${placement.where} ${placement.key ?? ''} = ${placement.value.slice(0, 40)})`
            const r = await answered(
              s.call(methodOf(route), request.path, {
                auth,
                ...(request.rawBody === undefined
                  ? {}
                  : { rawBody: request.rawBody, headers: { 'content-type': 'application/json' } }),
              }),
              what,
            )
            if (r.status >= 500) failures.push(`${r.status} ${r.text.slice(0, 120)} on ${what}`)
          }
        }),
      )
      expect(failures).toEqual([])
      await expectStillServing(`${methodOf(route)} ${route.path}`)
    })
  }
})
