import { errorMessage } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'
import { MAARCH_20_10_ROUTES } from './maarch-routes.js'
import { maarchRouteOf } from './routes-not-served.js'

let s: TestServer

beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => {
  await s?.close()
})

const notServed = (route: string) => ({ errors: errorMessage('ROUTE_NOT_SERVED_YET', { route }) })

describe('a route of 20.10 that Mailroom does not serve yet', () => {
  it('is answered 501 naming the route as 20.10 declares it', async () => {
    const r = await s.call('GET', '/rest/acknowledgementReceipts/12/content')
    expect(r.status).toBe(501)
    expect(r.json).toEqual(notServed('GET /rest/acknowledgementReceipts/{id}/content'))
    expect(r.json.errors).toBe(
      'GET /rest/acknowledgementReceipts/{id}/content is a route of Maarch 20.10 not served by Mailroom yet',
    )
    const book = await s.call('GET', '/rest/signatureBook/users/3/groups/4/baskets/2/resources')
    expect(book.json).toEqual(
      notServed('GET /rest/signatureBook/users/{userId}/groups/{groupId}/baskets/{basketId}/resources'),
    )
  })

  it('is 501 for a method Mailroom does not serve on a path it serves (instead of 405)', async () => {
    // Mailroom reads an entity; 20.10 also deletes one.
    expect((await s.call('GET', '/rest/entities/PJS')).status).toBe(200)
    const r = await s.call('DELETE', '/rest/entities/PJS')
    expect(r.status).toBe(501)
    expect(r.json).toEqual(notServed('DELETE /rest/entities/{id}'))
  })

  it('names the pattern, never the caller’s text: a hostile segment is not echoed', async () => {
    const hostile = encodeURIComponent('<script>alert(1)</script>')
    const r = await s.call('GET', `/rest/acknowledgementReceipts/${hostile}`)
    expect(r.status).toBe(501)
    expect(r.text).not.toContain('script')
    expect(r.json).toEqual(notServed('GET /rest/acknowledgementReceipts/{id}'))
    // An encoded slash stays inside its segment, as in 20.10's router.
    expect((await s.call('GET', '/rest/acknowledgementReceipts/a%2Fb')).json).toEqual(
      notServed('GET /rest/acknowledgementReceipts/{id}'),
    )
    const huge = await s.call('GET', `/rest/acknowledgementReceipts/${'9'.repeat(4000)}`)
    expect([huge.status, huge.text.length < 200]).toEqual([501, true])
    // A NUL is refused before any route, as for every path.
    expect((await s.call('GET', '/rest/acknowledgementReceipts/1%00')).status).toBe(400)
  })

  it('answers HEAD as its GET, without a body', async () => {
    const r = await s.call('HEAD', '/rest/acknowledgementReceipts/12')
    expect([r.status, r.text]).toEqual([501, ''])
  })

  it('leaves every route Mailroom serves to Mailroom', async () => {
    const served = await s.call('GET', '/rest/pinnedFolders')
    expect([served.status, served.json]).toEqual([200, { folders: [] }])
    // A record Mailroom does not find is its own 4xx, not a 501.
    expect((await s.call('GET', '/rest/resources/999999/content')).status).not.toBe(501)
  })
})

describe('paths that are none of 20.10’s', () => {
  it('stay 404 Route not found, and a method 20.10 has not either stays 405', async () => {
    for (const path of [
      '/rest/nothing-here',
      '/rest/acknowledgementReceipts/12/content/more',
      '/rest/acknowledgementReceipts/12/contents',
      '/rest/ACKNOWLEDGEMENTRECEIPTS/12',
    ]) {
      const r = await s.call('GET', path)
      expect([path, r.status, r.json]).toEqual([path, 404, { errors: errorMessage('ROUTE_NOT_FOUND') }])
    }
    // Neither Mailroom nor 20.10 deletes the list of entities.
    const r = await s.call('DELETE', '/rest/entities')
    expect(r.json).toEqual({ errors: errorMessage('METHOD_NOT_ALLOWED') })
  })
})

describe('an anonymous caller', () => {
  it('learns nothing more than before: 401 alike for a 20.10 route not served, a served one and an unknown path', async () => {
    const answers = await Promise.all(
      ['/rest/acknowledgementReceipts/12', '/rest/entities/PJS', '/rest/nothing-here'].map((path) =>
        s.call('GET', path, { auth: null }),
      ),
    )
    for (const answer of answers) {
      expect(answer.status).toBe(401)
      expect(answer.json).toEqual({ errors: errorMessage('AUTHENTICATION_FAILED') })
    }
    // Wrong credentials likewise.
    const wrong = await s.call('GET', '/rest/acknowledgementReceipts/12', { auth: 'bbain:wrong' })
    expect(wrong.status).toBe(401)
  })
})

describe('maarchRouteOf', () => {
  it('finds each of the 476 routes of 20.10 from a path built on it, and nothing else', () => {
    expect(MAARCH_20_10_ROUTES).toHaveLength(476)
    expect(new Set(MAARCH_20_10_ROUTES).size).toBe(476)
    for (const route of MAARCH_20_10_ROUTES) {
      const [method, pattern] = route.split(' ') as [string, string]
      const path = `/rest${pattern.replace(/\{\w+\}/g, '7')}`
      const found = maarchRouteOf(method, path)
      // Where two patterns fit one path, the one without a parameter wins, as in 20.10's router.
      expect(found, route).toMatch(new RegExp(`^${method} /rest/`))
      if (!pattern.includes('{')) expect(found).toBe(`${method} /rest${pattern}`)
      expect(maarchRouteOf(method, `${path}/x/y/z`), route).toBeUndefined()
    }
    expect(maarchRouteOf('GET', '/resources/1')).toBeUndefined()
    expect(maarchRouteOf('PATCH', '/rest/resources/1')).toBeUndefined()
    expect(maarchRouteOf('GET', '/rest/')).toBeUndefined()
  })
})
