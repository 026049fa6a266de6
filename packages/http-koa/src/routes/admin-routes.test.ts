import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

/**
 * The /admin routes under hostile input: documents of the right shape with fields of any type, random JSON,
 * odd logins. Never a 5xx, always `{"errors": "..."}` on a 4xx, and a refused document changes nothing.
 */
let s: TestServer
const ROOT = 'superadmin:superadmin'
beforeAll(async () => {
  s = await startTestServer({ mailroom: { throttle: false } })
})
afterAll(async () => s?.close())

const scalar = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('', 'PJS', 'AGENT', 'VILLE', '1=1', 'destinaton = 1', '\u0000', 'root'),
)
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  any: fc.oneof({ depthSize: 'small' }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('any'), { maxLength: 4 }),
  object: fc.dictionary(fc.string({ maxLength: 10 }), tie('any'), { maxKeys: 5 }),
})).any
const item = (keys: readonly string[]) => fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length })
const SECTIONS = {
  entities: ['id', 'label', 'shortLabel', 'type', 'parent', 'serialId', 'enabled', 'address', 'businessId'],
  groups: ['id', 'label', 'perimeter', 'canIndex', 'indexing', 'digitalSafe', 'serialId'],
  users: ['login', 'id', 'mode', 'enabled', 'groups', 'entities', 'passwordHash', 'firstname'],
  statuses: ['id', 'label', 'closing'],
  tags: ['id', 'label'],
  folders: ['id', 'label', 'owner', 'parent', 'sharing'],
} as const
const document = fc.record(
  {
    version: fc.oneof(fc.constant(1), value),
    ...Object.fromEntries(
      Object.entries(SECTIONS).map(([section, keys]) => [
        section,
        fc.oneof(fc.array(item(keys), { maxLength: 3 }), value),
      ]),
    ),
  },
  { requiredKeys: [] },
)
const body = fc.oneof(document, value)

function expectClean(r: { status: number; json: unknown; text: string }): void {
  expect(r.status, r.text).toBeLessThan(500)
  if (r.status >= 400) expect(r.json).toEqual({ errors: expect.any(String) })
}

describe('/admin under hostile input', () => {
  it('answers documents of any shape with a 2xx or a described 4xx, and changes nothing when refusing', async () => {
    await fc.assert(
      fc.asyncProperty(
        body,
        fc.constantFrom(
          'PUT /admin/organisation',
          'POST /admin/organisation/plan',
          'PUT /admin/organisation?prune=true',
        ),
        async (doc, route) => {
          const [method, path] = route.split(' ') as [string, string]
          const before = (await s.call('GET', '/admin/organisation', { auth: ROOT })).json
          const r = await s.call(method, path, { auth: ROOT, body: doc })
          expectClean(r)
          if (r.status !== 200 || method === 'POST')
            expect((await s.call('GET', '/admin/organisation', { auth: ROOT })).json).toEqual(before)
        },
      ),
      { numRuns: 60, seed: 20261124 },
    )
  })

  it('answers user operations with any body or login with a 2xx or a described 4xx', async () => {
    const login = fc.oneof(
      fc.constantFrom('bbain', 'nobody', 'BBAIN', '%00', '..'),
      fc.string({ maxLength: 20 }).map((x) => encodeURIComponent(x) || 'x'),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('POST /admin/users', 'PUT password', 'PUT status'),
        login,
        fc.oneof(item(['login', 'groups', 'entities', 'password', 'mode', 'enabled']), value),
        async (route, who, payload) => {
          const path = route === 'POST /admin/users' ? '/admin/users' : `/admin/users/${who}/${route.split(' ')[1]}`
          const r = await s.call(route.startsWith('POST') ? 'POST' : 'PUT', path, { auth: ROOT, body: payload })
          expectClean(r)
        },
      ),
      { numRuns: 60, seed: 20261124 },
    )
  })

  it('refuses every admin route to non-root users and to no credentials', async () => {
    for (const [method, path] of [
      ['GET', '/admin/organisation'],
      ['PUT', '/admin/organisation'],
      ['POST', '/admin/organisation/plan'],
      ['GET', '/admin/organisation/history'],
      ['GET', '/admin/users'],
      ['POST', '/admin/users'],
      ['PUT', '/admin/users/bbain/password'],
      ['PUT', '/admin/users/bbain/status'],
    ] as const) {
      const body = method === 'GET' ? {} : { body: { version: 1 } }
      const denied = await s.call(method, path, { auth: 'bbain:maarch', ...body })
      expect([denied.status, denied.json]).toEqual([403, { errors: 'Only root users may administer the organisation' }])
      expect((await s.call(method, path, { auth: null, ...body })).status).toBe(401)
    }
  })
})
