import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { FullTextQueue } from './fulltext-queue.js'
import { DEFAULT_FULLTEXT_SETTINGS } from './fulltext-settings.js'

describe('the full-text queue', () => {
  let t: TestMailroom
  let attempts = 0

  beforeAll(async () => {
    const extractor = {
      extract: async () => {
        attempts++
        throw new Error('tesseract failed: image too small to scale')
      },
    }
    t = await createTestMailroom({ fulltext: { workers: 0, maxAttempts: 2, retryDelayMs: 0, extractor } })
  })
  afterAll(async () => t?.cleanup())

  it('retries a failing file up to its bound, then keeps it failed with its error, and reindex tries again', async () => {
    const cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    const { resId } = await t.mailroom.records.create(cchaplin, {
      modelId: 1,
      status: 'NEW',
      format: 'txt',
      encodedFile: Buffer.from('illisible').toString('base64'),
    })
    // A record without a file has nothing to extract: no job.
    await t.mailroom.records.create(cchaplin, { modelId: 1, status: 'NEW' })
    expect(await t.mailroom.fulltext.drain()).toBe(2)
    expect(attempts).toBe(2)
    expect(await t.mailroom.fulltext.status()).toMatchObject({
      pending: 0,
      running: 0,
      failed: 1,
      indexed: 0,
      recentFailures: [
        {
          fileKind: 'resource',
          fileId: resId,
          resId,
          attempts: 2,
          error: 'tesseract failed: image too small to scale',
        },
      ],
    })
    expect(await t.mailroom.fulltext.reindex()).toEqual({ enqueued: 0, retried: 1, reindexed: 0 })
    expect(await t.mailroom.fulltext.status()).toMatchObject({ pending: 1, failed: 0 })
  })
})

describe('background extraction', () => {
  let t: TestMailroom
  beforeAll(async () => {
    // A poll far longer than the test: only the create's wake-up can have the file extracted in time.
    t = await createTestMailroom({ fulltext: { workers: 1, pollMs: 600_000 } })
  })
  afterAll(async () => t?.cleanup())

  it('extracts a created file at once, without waiting for the next look at the queue', async () => {
    const cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    const body = { modelId: 1, status: 'NEW', format: 'txt', encodedFile: Buffer.from('lampadaire').toString('base64') }
    const { resId } = await t.mailroom.records.create(cchaplin, body)
    const deadline = Date.now() + 10_000
    while ((await t.mailroom.fulltext.status()).indexed === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50))
    const { hits } = await t.mailroom.search.find(cchaplin, { select: 'res_id', clause: "fulltext('lampadaires')" })
    expect([...(hits as { record: unknown }[])].map((hit) => hit.record)).toEqual([{ res_id: resId }])
  })
})

describe('a server whose lease ran out', () => {
  let t: TestMailroom
  beforeAll(async () => {
    t = await createTestMailroom({ fulltext: { workers: 0 } })
  })
  afterAll(async () => t?.cleanup())

  it('can neither renew, complete, fail nor hand back the job another server took over', async () => {
    const cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    const body = { modelId: 1, status: 'NEW', format: 'txt', encodedFile: Buffer.from('gouttière').toString('base64') }
    const { resId } = await t.mailroom.records.create(cchaplin, body)
    const queue = new FullTextQueue(t.mailroom.db, { ...DEFAULT_FULLTEXT_SETTINGS, leaseMs: 600_000 })
    const first = await queue.claim('server-a')
    expect(first).toMatchObject({ res_id: resId, attempts: 1 })
    // Nothing to take while the lease holds.
    expect(await queue.claim('server-b')).toBeNull()
    // Server A stalls past its lease (set back in the database: the test waits for no clock).
    await t.mailroom.db
      .updateTable('fulltext_jobs')
      .set({ lease_until: new Date(Date.now() - 60_000) })
      .execute()
    const second = await queue.claim('server-b')
    expect(second).toMatchObject({ id: first!.id, res_id: resId, attempts: 2 })
    expect(second!.lease_token).not.toBe(first!.lease_token)

    const late = { text: 'texte périmé', method: 'plain', ocrPages: 0 } as const
    expect(await queue.renew(first!)).toBe(false)
    expect(await queue.complete(first!, null, late)).toBe(false)
    await queue.fail(first!, 'late failure')
    await queue.release(first!)
    const row = () =>
      t.mailroom.db
        .selectFrom('fulltext_jobs')
        .select(['state', 'attempts', 'leased_by', 'last_error'])
        .where('id', '=', first!.id)
        .executeTakeFirstOrThrow()
    expect(await row()).toEqual({ state: 'running', attempts: 2, leased_by: 'server-b', last_error: null })
    expect(await t.mailroom.db.selectFrom('fulltext_texts').selectAll().execute()).toEqual([])

    // The new owner's result is the one kept; A finishing afterwards changes nothing.
    expect(await queue.renew(second!)).toBe(true)
    expect(await queue.complete(second!, null, { text: 'gouttière', method: 'plain', ocrPages: 0 })).toBe(true)
    expect(await queue.complete(first!, null, late)).toBe(false)
    await queue.fail(first!, 'late failure')
    expect(await row()).toEqual({ state: 'done', attempts: 2, leased_by: 'server-b', last_error: null })
    const texts = await t.mailroom.db.selectFrom('fulltext_texts').select(['res_id', 'content']).execute()
    expect(texts.map((text) => ({ ...text, res_id: Number(text.res_id) }))).toEqual([
      { res_id: resId, content: 'gouttière' },
    ])
  })
})
