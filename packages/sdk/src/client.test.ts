import { startTestServer, type TestServer } from '@mailroom/http-koa/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, MailroomApiError, MailroomNetworkError } from './index.js'

let s: TestServer
beforeAll(async () => {
  s = await startTestServer()
})
afterAll(async () => s?.close())

describe('sdk against a real server', () => {
  it('reads an entity with Basic credentials', async () => {
    const client = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
    expect(await client.getEntity('PJS')).toMatchObject({ entity_id: 'PJS', parent_entity_id: 'DGS' })
    expect((await client.getEntity(6)).entity_id).toBe('PJS')
  })

  it('authenticates, refreshes and uses bearer tokens', async () => {
    const anonymous = createClient({ baseUrl: `${s.baseUrl}/` })
    const tokens = await anonymous.authenticate('bblier', 'maarch')
    const bearer = createClient({ baseUrl: s.baseUrl, auth: { token: tokens.token } })
    expect((await bearer.getEntity('DGS')).entity_id).toBe('DGS')
    const fresh = await anonymous.refreshToken(tokens.refreshToken)
    expect((await createClient({ baseUrl: s.baseUrl, auth: { token: fresh } }).getEntity('DGS')).entity_id).toBe('DGS')
  })

  it('throws typed errors carrying status and message', async () => {
    const client = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'wrong' } })
    const error = await client.getEntity('PJS').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailroomApiError)
    expect(error).toMatchObject({ status: 401, message: 'Authentication Failed' })
    const good = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
    await expect(good.getEntity('NOPE')).rejects.toMatchObject({ status: 400, message: 'Entity not found' })
  })

  it('honours abort signals and reports network failures', async () => {
    const client = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' }, retries: 0 })
    const controller = new AbortController()
    controller.abort()
    await expect(client.getEntity('PJS', { signal: controller.signal })).rejects.toBeInstanceOf(MailroomNetworkError)
    const nowhere = createClient({ baseUrl: 'http://127.0.0.1:9', retries: 1 })
    await expect(nowhere.health()).rejects.toBeInstanceOf(MailroomNetworkError)
  })

  it('retries idempotent reads on 503', async () => {
    let calls = 0
    const flaky: typeof fetch = async (input, init) => {
      calls++
      if (calls === 1) return new Response('{"errors":"Service temporarily unavailable, try again later"}', { status: 503 })
      return fetch(input, init)
    }
    const client = createClient({ baseUrl: s.baseUrl, fetch: flaky })
    expect((await client.health()).status).toBe('ok')
    expect(calls).toBe(2)
  })
})
