import { spawnSync } from 'node:child_process'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { checkDocumentStorage, type Mailroom } from '@mailroom/mailroom'
import {
  cephGateway,
  createTestDatabase,
  serveMailroomOnLoopback,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
  type TestDatabase,
  testBucketUrl,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postLetter as create, textFile } from './letters.js'
import { basicAuth } from './process-server.js'

/**
 * Mailroom on object storage over HTTP, against the Ceph test gateway (scripts/ceph-test-cluster.sh;
 * skipped with a message where none runs): two servers (two Mailrooms, each with its own pool, caches and S3
 * client, served in this process) sharing one database and one bucket, and the gateway stopped in the
 * middle of a load. The gateway stopped is a second gateway process of the same cluster, this test's own,
 * so that test files running beside it on the cluster's gateway are not stopped with it.
 */
const gateway = cephGateway()
const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const CEPH_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'scripts', 'ceph-test-cluster.sh')

async function original(url: string, resId: number): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${url}/rest/resources/${resId}/originalContent`, {
    headers: basicAuth('cchaplin'),
    signal: AbortSignal.timeout(60_000),
  })
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) }
}

/** A free loopback port, for this file's own gateway. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      )
    })
  })
}

describe.runIf(onPostgres && gateway !== null)('two servers on one PostgreSQL database and one bucket', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase('postgres')
  })
  afterAll(async () => database?.drop())

  it('creates on one server; the other reads the original, finds it by search and changes its status', async () => {
    const bucket = testBucketUrl('shared')
    const options = {
      database: database.url!,
      docserverUrl: bucket,
      s3: gateway!,
      secret: TEST_SECRET,
      passwordHasher: TEST_PASSWORD_HASHER,
      journal: { sweepIntervalMs: 0 },
    }
    const a = await serveMailroomOnLoopback({ ...options, demo: true })
    const b = await serveMailroomOnLoopback(options)
    try {
      const created = await create(a.baseUrl, 'shared across servers')
      expect(created.status).toBe(200)
      const resId = created.body.resId!
      const read = await original(b.baseUrl, resId)
      expect(read.status).toBe(200)
      expect(read.bytes.equals(textFile('shared across servers'))).toBe(true)

      const found = await fetch(`${b.baseUrl}/rest/res/list`, {
        method: 'POST',
        headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
        body: JSON.stringify({ select: 'res_id,subject,status', clause: `res_id = ${resId}` }),
      })
      expect(((await found.json()) as { resources: unknown }).resources).toEqual([
        { res_id: resId, subject: 'shared across servers', status: 'NEW' },
      ])

      const changed = await fetch(`${b.baseUrl}/rest/res/resource/status`, {
        method: 'PUT',
        headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'END', resId: [resId], historyMessage: 'closed through server B' }),
      })
      expect(changed.status).toBe(200)
      const seen = await fetch(`${a.baseUrl}/rest/res/list`, {
        method: 'POST',
        headers: { ...basicAuth('cchaplin'), 'content-type': 'application/json' },
        body: JSON.stringify({ select: 'res_id,status', clause: `res_id = ${resId}` }),
      })
      expect(((await seen.json()) as { resources: unknown }).resources).toEqual([{ res_id: resId, status: 'END' }])
      // And a create on B is read on A.
      const back = await create(b.baseUrl, 'created on B')
      expect((await original(a.baseUrl, back.body.resId!)).bytes.equals(textFile('created on B'))).toBe(true)
    } finally {
      await a.close()
      await b.close()
    }
  }, 120_000)
})

describe.runIf(!onPostgres && gateway !== null)('the gateway stopped in the middle of a load', () => {
  let database: TestDatabase
  let mailroom: Mailroom
  let url: string
  let close: () => Promise<void>
  let port = ''
  const gatewayCommand = (command: 'gateway-stop' | 'gateway-start') =>
    spawnSync('bash', [CEPH_SCRIPT, command, port], { stdio: 'ignore' }).status
  beforeAll(async () => {
    port = String(await freePort())
    expect(gatewayCommand('gateway-start'), 'a second gateway on the test cluster').toBe(0)
    database = await createTestDatabase()
    const served = await serveMailroomOnLoopback({
      database: database.target,
      docserverUrl: testBucketUrl('outage'),
      s3: { ...gateway!, endpoint: `http://127.0.0.1:${port}` },
      secret: TEST_SECRET,
      demo: true,
      passwordHasher: TEST_PASSWORD_HASHER,
      journal: { sweepIntervalMs: 0 },
    })
    mailroom = served.mailroom
    url = served.baseUrl
    close = async () => {
      await served.close()
      await database.drop()
    }
  })
  afterAll(async () => {
    await close?.()
    gatewayCommand('gateway-stop')
  })

  it('answers 503 with a clear message while it is down, recovers, and loses no acknowledged record', async () => {
    const acknowledged = new Map<number, string>()
    const refusals: { status: number; errors?: string }[] = []
    let running = true
    let sent = 0
    const clients = Array.from({ length: 4 }, async (_, c) => {
      for (let i = 0; running; i++) {
        const label = `outage ${c}-${i}`
        sent++
        const r = await create(url, label)
        if (r.status === 200 && r.body.resId) acknowledged.set(r.body.resId, label)
        else refusals.push({ status: r.status, ...(r.body.errors === undefined ? {} : { errors: r.body.errors }) })
        if (r.status !== 200) await new Promise((resolve) => setTimeout(resolve, 50))
      }
    })
    const until = async (check: () => boolean) => {
      for (let waited = 0; !check() && waited < 60_000; waited += 25)
        await new Promise((resolve) => setTimeout(resolve, 25))
    }
    await until(() => acknowledged.size >= 10)
    expect(gatewayCommand('gateway-stop')).toBe(0)
    await until(() => refusals.length >= 4)
    const okBeforeRestart = acknowledged.size
    expect(gatewayCommand('gateway-start')).toBe(0)
    await until(() => acknowledged.size >= okBeforeRestart + 10)
    running = false
    await Promise.all(clients)

    // While down: 503 and the catalogue's message, never a 500 or a hang.
    expect(refusals.length).toBeGreaterThanOrEqual(4)
    expect(new Set(refusals.map((r) => `${r.status} ${r.errors}`))).toEqual(
      new Set(['503 Document storage cannot be reached, try again later']),
    )
    expect(acknowledged.size).toBeGreaterThanOrEqual(okBeforeRestart + 10)
    expect(acknowledged.size + refusals.length).toBe(sent)

    // Nothing lost: every acknowledged record reads back with its bytes; no record without its file.
    for (const [resId, label] of acknowledged) {
      const read = await original(url, resId)
      expect(read.status, `record ${resId}`).toBe(200)
      expect(read.bytes.equals(textFile(label))).toBe(true)
    }
    const rows = await mailroom.db
      .selectFrom('res_letterbox')
      .select('res_id')
      .where('subject', 'like', 'outage %')
      .execute()
    expect(rows.map((r) => Number(r.res_id)).sort()).toEqual([...acknowledged.keys()].sort())
    // Objects of creates refused while the gateway was down (their removal failed too, if the upload got
    // through) have no row: fsck removes them and nothing else.
    const report = await checkDocumentStorage(mailroom.db, mailroom.documentStore, { orphanGraceMs: 0 })
    expect(report.problems).toEqual([])
    expect(report.removed).toEqual(report.orphans)
    expect(report.filesSeen - report.removed.length).toBe(acknowledged.size)
    const [first] = acknowledged
    expect((await original(url, first![0])).bytes.equals(textFile(first![1]))).toBe(true)

    // Readiness says so while down too; liveness stays cheap and up (the process is fine).
    expect(gatewayCommand('gateway-stop')).toBe(0)
    const ready = await fetch(`${url}/readyz`)
    expect(ready.status).toBe(503)
    expect(await ready.json()).toMatchObject({ failing: ['storage'] })
    expect((await fetch(`${url}/healthz`)).status).toBe(200)
    expect(gatewayCommand('gateway-start')).toBe(0)
    expect((await fetch(`${url}/readyz`)).status).toBe(200)
  }, 180_000)
})
