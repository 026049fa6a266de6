import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'

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
