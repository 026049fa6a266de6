import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase, type TestDatabase } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { basicAuth, canOwnCluster, createOwnCluster, startServerProcess } from './process-server.js'

const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'

describe.runIf(onPostgres)('server process lifecycle (PostgreSQL)', () => {
  let database: TestDatabase
  let docserverDir: string
  beforeAll(async () => {
    database = await createTestDatabase('postgres', { withDemo: true })
    docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-proc-'))
  })
  afterAll(async () => {
    await database?.drop()
    await rm(docserverDir, { recursive: true, force: true })
  })

  it('refuses to start without MAILROOM_SECRET on PostgreSQL', async () => {
    await expect(
      startServerProcess({ DATABASE_URL: database.url!, MAILROOM_SECRET: '', MAILROOM_DOCSERVER_DIR: docserverDir }),
    ).rejects.toThrow(/MAILROOM_SECRET is required/)
  })

  it('finishes requests in flight on SIGTERM under load and exits 0', async () => {
    const server = await startServerProcess({
      DATABASE_URL: database.url!,
      MAILROOM_SECRET: 'lifecycle-secret-0123456789',
      MAILROOM_DOCSERVER_DIR: docserverDir,
      MAILROOM_DEMO: '1',
    })
    const results: number[] = []
    let stop = false
    const clients = Array.from({ length: 16 }, async () => {
      while (!stop) {
        try {
          const r = await fetch(`${server.url}/rest/entities/PJS`, { headers: basicAuth('bbain') })
          await r.arrayBuffer()
          results.push(r.status)
        } catch {
          // Connections refused after the server stopped accepting are not requests in flight.
          return
        }
      }
    })
    for (let waited = 0; results.length < 100 && waited < 20_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50))
    server.kill('SIGTERM')
    const exit = await server.exited
    stop = true
    await Promise.all(clients)
    expect(exit).toEqual({ code: 0, signal: null })
    expect(results.length).toBeGreaterThanOrEqual(100)
    // Every request that got an answer got a complete, successful one: none was cut.
    expect(results.filter((status) => status !== 200)).toEqual([])
    expect(server.output()).toMatch(/stopping: finishing requests in flight/)
  })

  it.runIf(canOwnCluster())('answers 503 while PostgreSQL is down and recovers by itself', async () => {
    const cluster = await createOwnCluster()
    const server = await startServerProcess({
      DATABASE_URL: cluster.url,
      MAILROOM_SECRET: 'restart-secret-0123456789',
      MAILROOM_DOCSERVER_DIR: docserverDir,
      MAILROOM_DEMO: '1',
    })
    try {
      const read = () =>
        fetch(`${server.url}/rest/entities/DGS`, { headers: basicAuth('bblier'), signal: AbortSignal.timeout(30_000) })
      const create = (subject: string) =>
        fetch(`${server.url}/rest/resources`, {
          method: 'POST',
          headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
          body: JSON.stringify({
            modelId: 1,
            status: 'NEW',
            subject,
            format: 'txt',
            encodedFile: Buffer.from(subject).toString('base64'),
            chrono: true,
          }),
          signal: AbortSignal.timeout(30_000),
        })
      expect((await read()).status).toBe(200)
      // Eight clients create and read without pause while PostgreSQL goes away and comes back.
      const acknowledged: number[] = []
      const statuses: number[] = []
      const failures: string[] = []
      let stop = false
      const clients = Array.from({ length: 8 }, async (_, c) => {
        for (let i = 0; !stop; i++) {
          try {
            const r = i % 2 ? await read() : await create(`load ${c}-${i}`)
            statuses.push(r.status)
            const body = (await r.json()) as { resId?: number }
            if (r.status === 200 && body.resId) acknowledged.push(body.resId)
            if (r.status === 503) await new Promise((resolve) => setTimeout(resolve, 50))
          } catch (error) {
            failures.push(String(error))
            await new Promise((resolve) => setTimeout(resolve, 50))
          }
        }
      })
      const waitFor = async (predicate: () => boolean) => {
        for (let waited = 0; !predicate() && waited < 30_000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await waitFor(() => acknowledged.length >= 20)
      cluster.stop()
      const downAt = statuses.length
      await waitFor(() => statuses.slice(downAt).filter((status) => status === 503).length >= 10)
      const down = await read()
      expect(down.status).toBe(503)
      expect(down.headers.get('retry-after')).toBe('5')
      expect(await down.json()).toEqual({ errors: 'Service temporarily unavailable, try again later' })
      const unready = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(30_000) })
      expect([unready.status, ((await unready.json()) as { failing: string[] }).failing]).toEqual([
        503,
        ['database', 'migrations'],
      ])
      // Liveness never asks the database: the process is alive, an orchestrator must not restart it.
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      cluster.start()
      const upAt = statuses.length
      await waitFor(() => statuses.slice(upAt).filter((status) => status === 200).length >= 20)
      stop = true
      await Promise.all(clients)
      // Only complete answers, 200 or 503: no hang, no crash, no cut connection.
      expect(failures).toEqual([])
      expect([...new Set(statuses)].sort()).toEqual([200, 503])
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
      // Nothing acknowledged was lost, before, during or after the outage.
      const list = await fetch(`${server.url}/rest/res/list`, {
        method: 'POST',
        headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
        body: JSON.stringify({ select: 'res_id', clause: `res_id in (${acknowledged.join(',')})`, limit: 1000 }),
      })
      expect(((await list.json()) as { count: number }).count).toBe(acknowledged.length)
    } finally {
      server.kill('SIGTERM')
      await server.exited
      await cluster.destroy()
    }
  })
})
