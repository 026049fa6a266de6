import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase } from '@mailroom/testing'
import { pino } from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from './config.js'
import { type RunningServer, startServer } from './serve.js'

let running: RunningServer
let dataDir: string
let dropDatabase: () => Promise<void> = async () => {}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'mailroom-serve-'))
  const database = await createTestDatabase()
  dropDatabase = database.drop
  await mkdir(join(dataDir, 'console'))
  await writeFile(join(dataDir, 'console', 'index.html'), '<!doctype html><title>console</title>')
  const env: Record<string, string> = {
    MAILROOM_DATA_DIR: dataDir,
    PORT: '0',
    MAILROOM_SECRET: 'serve-test-secret-0123456789',
    MAILROOM_CONSOLE: 'on',
    MAILROOM_CONSOLE_DIR: join(dataDir, 'console'),
  }
  if (database.url) Object.assign(env, { DATABASE_URL: database.url, MAILROOM_DEMO: '1' })
  const config = loadConfig(env)
  // The embedded default keeps its data in the data directory; tests use a fresh one.
  running = await startServer(config, pino({ level: 'silent' }))
})
afterAll(async () => {
  await running?.stop()
  await dropDatabase()
  await rm(dataDir, { recursive: true, force: true })
})

describe('startServer', () => {
  it('serves the demo dataset on first start (the quick-start promise)', async () => {
    const response = await fetch(`${running.url}/rest/entities/PJS`, {
      headers: { authorization: `Basic ${Buffer.from('bbain:maarch').toString('base64')}` },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ entity: { entity_id: 'PJS', parent_entity_id: 'DGS' } })
    expect((await fetch(`${running.url}/healthz`)).status).toBe(200)
  })

  it('serves the web console from MAILROOM_CONSOLE_DIR and names its address', async () => {
    expect(running.consoleUrl).toBe(`${running.url}/console/`)
    const page = await fetch(running.consoleUrl!)
    expect(page.status).toBe(200)
    expect(await page.text()).toBe('<!doctype html><title>console</title>')
  })

  it('finishes requests in flight when stopped, /readyz answering 503 for the shutdown meanwhile', async () => {
    const slow = running.mailroom.entities.read
    ;(running.mailroom.entities as { read: typeof slow }).read = async (actor, id) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      return slow(actor, id)
    }
    // A readiness probe whose checks are held until stop() has begun: its answer is given while the server stops.
    const health = running.mailroom.health
    let release: () => void = () => {}
    let entered: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    const probing = new Promise<void>((resolve) => (entered = resolve))
    ;(running.mailroom as { health: typeof health }).health = async () => {
      entered()
      await held
      return health()
    }
    const inFlight = fetch(`${running.url}/rest/entities/DGS`, {
      headers: { authorization: `Basic ${Buffer.from('bblier:maarch').toString('base64')}` },
    })
    const probe = fetch(`${running.url}/readyz`)
    await probing
    await new Promise((resolve) => setTimeout(resolve, 100))
    const stopped = running.stop()
    release()
    const readiness = await probe
    expect([readiness.status, await readiness.json()]).toEqual([
      503,
      {
        status: 'unavailable',
        failing: ['shuttingDown'],
        checks: { database: true, migrations: true, storage: true, shuttingDown: true },
      },
    ])
    const response = await inFlight
    expect(response.status).toBe(200)
    expect(((await response.json()) as { entity: { entity_id: string } }).entity.entity_id).toBe('DGS')
    await stopped
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow()
  })
})
