import { mkdir, readdir, rm } from 'node:fs/promises'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../../../testing/src/index.js'

let s: TestServer
let stopping = false
beforeAll(async () => {
  s = await startTestServer({ http: { lifecycle: { shuttingDown: () => stopping } } })
})
afterAll(async () => s?.close())

const READY = {
  status: 'ready',
  failing: [],
  checks: { database: true, migrations: true, storage: true, shuttingDown: false },
}

/** Replaces the database's ping for the duration of `run`, as if the server could not reach it. */
async function withDatabaseDown<T>(run: () => Promise<T>): Promise<T> {
  const database = s.mailroom.database as { ping: () => Promise<void> }
  const original = database.ping
  database.ping = async () => {
    throw new Error('connection refused')
  }
  try {
    return await run()
  } finally {
    database.ping = original
  }
}

describe('GET /healthz (liveness)', () => {
  it('answers 200 without authentication', async () => {
    const r = await s.call('GET', '/healthz', { auth: null })
    expect([r.status, r.json]).toEqual([200, { status: 'ok' }])
  })

  it('stays 200 when the database does not answer: it never queries it', async () => {
    const r = await withDatabaseDown(() => s.call('GET', '/healthz', { auth: null }))
    expect([r.status, r.json]).toEqual([200, { status: 'ok' }])
  })
})

describe('GET /readyz (readiness)', () => {
  it('answers 200 without authentication when every check passes', async () => {
    const r = await s.call('GET', '/readyz', { auth: null })
    expect([r.status, r.json]).toEqual([200, READY])
    expect(r.headers.get('cache-control')).toBe('no-store')
  })

  it('answers 503 naming the database when it does not answer (its migrations cannot be checked either)', async () => {
    const r = await withDatabaseDown(() => s.call('GET', '/readyz', { auth: null }))
    expect([r.status, r.json]).toEqual([
      503,
      {
        status: 'unavailable',
        failing: ['database', 'migrations'],
        checks: { database: false, migrations: false, storage: true, shuttingDown: false },
      },
    ])
  })

  it('answers 503 naming the migrations when one this version knows is not applied', async () => {
    const row = (
      await sql<{
        name: string
        timestamp: string
      }>`select name, timestamp from mailroom_migrations order by name desc limit 1`.execute(s.mailroom.db)
    ).rows[0]!
    await sql`delete from mailroom_migrations where name = ${row.name}`.execute(s.mailroom.db)
    try {
      const r = await s.call('GET', '/readyz', { auth: null })
      expect([r.status, r.json]).toEqual([
        503,
        {
          status: 'unavailable',
          failing: ['migrations'],
          checks: { database: true, migrations: false, storage: true, shuttingDown: false },
        },
      ])
    } finally {
      await sql`insert into mailroom_migrations (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(
        s.mailroom.db,
      )
    }
    expect((await s.call('GET', '/readyz', { auth: null })).json).toEqual(READY)
  })

  it('stays ready when the database holds migrations of a newer version (rolling upgrade)', async () => {
    await sql`insert into mailroom_migrations (name, timestamp) values ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(
      s.mailroom.db,
    )
    try {
      expect((await s.call('GET', '/readyz', { auth: null })).json).toEqual(READY)
    } finally {
      await sql`delete from mailroom_migrations where name = '9999-from-a-newer-version'`.execute(s.mailroom.db)
    }
  })

  it('answers 503 naming the storage when no file can be written there, and leaves no probe file behind', async () => {
    await rm(s.docserverDir, { recursive: true, force: true })
    try {
      const r = await s.call('GET', '/readyz', { auth: null })
      expect([r.status, r.json]).toEqual([
        503,
        {
          status: 'unavailable',
          failing: ['storage'],
          checks: { database: true, migrations: true, storage: false, shuttingDown: false },
        },
      ])
    } finally {
      await mkdir(s.docserverDir, { recursive: true })
    }
    expect((await s.call('GET', '/readyz', { auth: null })).status).toBe(200)
    expect((await readdir(s.docserverDir)).filter((name) => name.startsWith('.mailroom-write-probe'))).toEqual([])
  })

  it('answers 503 naming the shutdown while the server stops, though everything else works', async () => {
    stopping = true
    try {
      const r = await s.call('GET', '/readyz', { auth: null })
      expect([r.status, r.json]).toEqual([
        503,
        {
          status: 'unavailable',
          failing: ['shuttingDown'],
          checks: { database: true, migrations: true, storage: true, shuttingDown: true },
        },
      ])
      expect((await s.call('GET', '/healthz', { auth: null })).status).toBe(200)
    } finally {
      stopping = false
    }
  })
})

describe('GET /readyz?detail=true', () => {
  it('adds the full-text queue, which never makes the server unready', async () => {
    await s.mailroom.db.deleteFrom('fulltext_jobs').execute()
    const cchaplin = await s.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    const body = { modelId: 1, status: 'NEW', format: 'txt', encodedFile: Buffer.from('bonjour').toString('base64') }
    await s.mailroom.records.create(cchaplin, body)
    const r = await s.call('GET', '/readyz?detail=true', { auth: null })
    expect([r.status, r.json]).toEqual([
      200,
      {
        ...READY,
        detail: { fulltext: { pending: 1, running: 0, failed: 0, oldestPendingSeconds: expect.any(Number) } },
      },
    ])
    expect((await s.call('GET', '/readyz?detail=false', { auth: null })).json).toEqual(READY)
    expect((await s.call('GET', '/readyz?detail=maybe', { auth: null })).json).toEqual(READY)
  })
})
