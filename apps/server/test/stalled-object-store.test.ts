import { checkDocumentStorage, type Mailroom } from '@mailroom/mailroom'
import {
  cephGateway,
  createTestDatabase,
  type StallingProxy,
  serveMailroomOnLoopback,
  startStallingProxy,
  TEST_PASSWORD_HASHER,
  TEST_SECRET,
  type TestDatabase,
  testBucketUrl,
} from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { postLetter, textFile } from './letters.js'
import { basicAuth } from './process-server.js'

/**
 * Mailroom over HTTP on a store that hangs: a TCP proxy in front of the Ceph test gateway (skipped with a
 * message where none runs) accepts and reads but answers nothing. Creates and reads answer 503 within the
 * store's deadline, /readyz says storage fails, no record is half made, and once the store answers again
 * everything acknowledged reads back.
 */
const gateway = cephGateway()
const onPostgres = process.env.MAILROOM_TEST_DB === 'postgres'
const UNREACHABLE = 'Document storage cannot be reached, try again later'
/** The store's settings here: 1 s of silence per attempt, 3 attempts, 2.5 s per call in all. */
const CALL_TIMEOUT_MS = 2_500
/** What a client waits at most for an answer during the stall: one store call, and the server's own work. */
const ANSWER_BOUND_MS = CALL_TIMEOUT_MS + 1_500

async function timed<T>(work: () => Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now()
  const result = await work()
  return { ...result, ms: performance.now() - started }
}

describe.runIf(onPostgres && gateway !== null)('a document store that hangs', () => {
  let database: TestDatabase
  let proxy: StallingProxy
  let mailroom: Mailroom
  let url: string
  let close: () => Promise<void>
  const acknowledged = new Map<number, Buffer>()

  async function create(label: string, bytes = textFile(label)) {
    const answer = await postLetter(url, label, bytes)
    if (answer.status === 200) acknowledged.set(answer.body.resId!, bytes)
    return answer
  }

  async function original(resId: number) {
    const response = await fetch(`${url}/rest/resources/${resId}/originalContent`, {
      headers: basicAuth('cchaplin'),
      signal: AbortSignal.timeout(60_000),
    })
    // A body cut after its headers were sent ends the fetch with an error: the connection was closed.
    const bytes = await response.arrayBuffer().then(
      (body) => Buffer.from(body),
      () => null,
    )
    return { status: response.status, bytes }
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    proxy = await startStallingProxy(gateway!.endpoint)
    const served = await serveMailroomOnLoopback({
      database: database.url!,
      docserverUrl: testBucketUrl('hung'),
      s3: {
        ...gateway!,
        endpoint: proxy.endpoint,
        requestTimeoutMs: 1_000,
        callTimeoutMs: CALL_TIMEOUT_MS,
        maxAttempts: 3,
      },
      secret: TEST_SECRET,
      demo: true,
      passwordHasher: TEST_PASSWORD_HASHER,
      journal: { sweepIntervalMs: 0 },
      // Larger files stream from the store as they are hashed: a stall then comes after the headers.
      content: { verifyBeforeSendMaxBytes: 64 * 1024 },
    })
    mailroom = served.mailroom
    url = served.baseUrl
    close = served.close
  })
  afterAll(async () => {
    proxy?.release()
    await close?.()
    await proxy?.close()
    await database?.drop()
  })

  it('answers 503 within the deadline while it hangs, names storage in /readyz, and loses nothing acknowledged', async () => {
    const small = await create('before the stall')
    expect(small.status).toBe(200)
    const large = await create(
      'large, before the stall',
      Buffer.from(`${'une ligne du grand courrier\n'.repeat(40_000)}`),
    )
    expect(large.status).toBe(200)
    const rowsBefore = await mailroom.db.selectFrom('res_letterbox').select('res_id').execute()

    proxy.stall()
    const refused = await timed(() => create('during the stall'))
    expect([refused.status, refused.body.errors]).toEqual([503, UNREACHABLE])
    expect(refused.ms).toBeLessThan(ANSWER_BOUND_MS)
    const read = await timed(() => original(small.body.resId!))
    expect(read.status).toBe(503)
    expect(read.ms).toBeLessThan(ANSWER_BOUND_MS)
    const ready = await timed(async () => {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(60_000) })
      return { status: response.status, body: (await response.json()) as { failing: string[] } }
    })
    expect(ready.status).toBe(503)
    expect(ready.body.failing).toEqual(['storage'])
    expect(ready.ms).toBeLessThan(ANSWER_BOUND_MS)
    process.stderr.write(
      `answer times while the store hangs: create ${Math.round(refused.ms)} ms, read ${Math.round(read.ms)} ms, /readyz ${Math.round(ready.ms)} ms\n`,
    )
    // No row for the refused create.
    expect(await mailroom.db.selectFrom('res_letterbox').select('res_id').execute()).toEqual(rowsBefore)
    proxy.release()

    // An answer that stops after its headers: the transfer is cut (connection closed), not held open.
    proxy.stall({ responseBytes: 128 * 1024 })
    const cut = await timed(() => original(large.body.resId!))
    expect(cut.bytes === null || cut.status === 503).toBe(true)
    expect(cut.ms).toBeLessThan(ANSWER_BOUND_MS)
    proxy.release()

    // The store answers again: creates and reads work, every acknowledged record reads back whole.
    expect((await create('after the stall')).status).toBe(200)
    for (const [resId, bytes] of acknowledged) {
      const back = await original(resId)
      expect(back.status, `record ${resId}`).toBe(200)
      expect(back.bytes?.equals(bytes), `record ${resId}`).toBe(true)
    }
    expect((await fetch(`${url}/readyz`)).status).toBe(200)
    // The refused create's object, if it reached the store at all, has no row: fsck finds it, and nothing else.
    const report = await checkDocumentStorage(mailroom.db, mailroom.documentStore, { orphanGraceMs: 0, dryRun: true })
    expect(report.problems).toEqual([])
    expect(report.orphans.length).toBeLessThanOrEqual(1)
  }, 120_000)
})
