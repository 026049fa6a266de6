import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import Router from '@koa/router'
import Koa from 'koa'
import { pino } from 'pino'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppState } from '../app-state.js'
import { requestContext } from './request-context.js'

let server: Server | undefined
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()))
  server = undefined
})

/** A bare app behind requestContext whose route logs one line when asked, and the log lines written. */
async function start(level: 'info' | 'silent') {
  const lines: Record<string, unknown>[] = []
  const log = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) })
  let children = 0
  const counted = Object.assign(Object.create(log) as typeof log, {
    child: (bindings: Record<string, unknown>) => {
      children++
      return log.child(bindings)
    },
  })
  const app = new Koa<AppState>()
  app.use(requestContext(counted))
  const router = new Router<AppState>()
  router.get('/things/:id', (ctx) => {
    ctx.state.actor = { login: 'bbain' } as AppState['actor']
    ctx.body = { id: ctx.params.id }
  })
  app.use(router.routes())
  app.use((ctx) => {
    if (ctx.query.log === '1') ctx.state.log?.warn('route line')
    ctx.body = { path: ctx.path }
  })
  server = createServer(app.callback())
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, lines, children: () => children }
}

describe('requestContext', () => {
  it('echoes a well-formed X-Request-Id, makes one otherwise, and trims repeated and trailing slashes', async () => {
    const { base } = await start('silent')
    const echoed = await fetch(`${base}/rest//res/list/`, { headers: { 'x-request-id': 'client.id-42' } })
    expect(echoed.headers.get('x-request-id')).toBe('client.id-42')
    expect(await echoed.json()).toEqual({ path: '/rest/res/list' })
    const made = await fetch(`${base}/x`, { headers: { 'x-request-id': 'bad id!' } })
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  })

  it('logs one request line per request with its id, and lines of the request carry the same id', async () => {
    const { base, lines } = await start('info')
    await fetch(`${base}/a?log=1`, { headers: { 'x-request-id': 'r1' } })
    expect(
      lines.map(({ msg, requestId, method, route, status }) => ({ msg, requestId, method, route, status })),
    ).toEqual([
      { msg: 'route line', requestId: 'r1', method: undefined, route: undefined, status: undefined },
      { msg: 'request', requestId: 'r1', method: 'GET', route: null, status: 200 },
    ])
  })

  it('names the route template, the user and the duration, never the raw path or query', async () => {
    const { base, lines } = await start('info')
    await fetch(`${base}/things/4242?refreshToken=secret-value`, { headers: { 'x-request-id': 'r2' } })
    expect(lines).toHaveLength(1)
    const line = lines[0]!
    expect(line).toMatchObject({
      msg: 'request',
      requestId: 'r2',
      method: 'GET',
      route: '/things/:id',
      status: 200,
      user: 'bbain',
      client: '127.0.0.1',
    })
    expect(typeof line.durationMs).toBe('number')
    expect(JSON.stringify(line)).not.toMatch(/4242|secret-value/)
  })

  it('makes no child logger for a request that logs nothing while the request line is off', async () => {
    const { base, lines, children } = await start('silent')
    await fetch(`${base}/a`)
    expect(children()).toBe(0)
    await fetch(`${base}/a?log=1`)
    expect(children()).toBe(1)
    expect(lines).toEqual([])
  })
})
