import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SearchHits, SearchRecord } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { streamSearchResult } from '../../../testing/src/test-core-internals.js'
import { CURSOR_BATCH_ROWS } from './search-cursor.js'

/** More than two cursor batches, so a search without limit takes the streamed path and crosses batches. */
const RECORDS = 2 * CURSOR_BATCH_ROWS + 345

let t: TestMailroom
let firstId: number

async function seed(mailroom: TestMailroom['mailroom'], docserverDir: string): Promise<number> {
  const inserted = await sql<{ res_id: number }>`
    insert into res_letterbox (subject, type_id, typist, category_id, model_id, status, destination, creation_date)
    select 'limits ' || g, 101, 1, 'incoming', 1, 'NEW', 'PJS', timestamptz '2024-06-01 00:00:00+00' + g * interval '1 minute'
    from generate_series(1, ${sql.lit(RECORDS)}) g
    returning res_id`.execute(mailroom.db)
  const ids = inserted.rows.map((row) => Number(row.res_id)).sort((a, b) => a - b)
  // Every 500th record gets a file, so withFile answers cross batches with files in them.
  await mkdir(join(docserverDir, 'resources', 'limits'), { recursive: true })
  for (const id of ids.filter((_, i) => i % 500 === 0)) {
    await writeFile(join(docserverDir, 'resources', 'limits', `${id}.txt`), `file of ${id}`)
    await mailroom.db
      .updateTable('res_letterbox')
      .set({ docserver_id: 'FASTHD_MAN', path: 'limits/', filename: `${id}.txt`, format: 'txt' })
      .where('res_id', '=', id)
      .execute()
  }
  return ids[0] as number
}

async function all(hits: SearchHits['hits']): Promise<SearchRecord[]> {
  const records: SearchRecord[] = []
  for await (const hit of hits) records.push(hit.record)
  return records
}

async function json(result: SearchHits): Promise<{ resources: SearchRecord[]; count: number }> {
  let text = ''
  for await (const chunk of streamSearchResult(result)) text += chunk
  return JSON.parse(text)
}

beforeAll(async () => {
  t = await createTestMailroom()
  firstId = await seed(t.mailroom, t.docserverDir)
})
afterAll(async () => t?.cleanup())

const CLAUSE = "subject like 'limits %'"

describe('search limits: every match without limit, a limit as given', () => {
  it('returns every matching record when no limit is given, in order, from one snapshot', async () => {
    const superadmin = await t.mailroom.actor('superadmin')
    const result = await t.mailroom.search.find(superadmin, { select: 'res_id,subject', clause: CLAUSE })
    expect(Array.isArray(result.hits)).toBe(false)
    const records = await all(result.hits)
    expect(records).toHaveLength(RECORDS)
    expect(records.map((r) => r.res_id)).toEqual(Array.from({ length: RECORDS }, (_, i) => firstId + i))
  })

  it('reads limit 0 as no limit, and answers count as the number returned', async () => {
    const superadmin = await t.mailroom.actor('superadmin')
    const listed = await t.mailroom.search.list(superadmin, { select: 'res_id', clause: CLAUSE, limit: 0 })
    expect(listed.count).toBe(RECORDS)
    expect(listed.resources).toHaveLength(RECORDS)
    const streamed = await json(await t.mailroom.search.find(superadmin, { select: 'res_id', clause: CLAUSE }))
    expect(streamed.count).toBe(RECORDS)
    expect(streamed.resources).toHaveLength(RECORDS)
  })

  it('honours a large limit and an offset as given, never lowering them', async () => {
    const superadmin = await t.mailroom.actor('superadmin')
    const listed = await t.mailroom.search.list(superadmin, {
      select: 'res_id',
      clause: CLAUSE,
      limit: 1500,
      offset: 10,
    })
    expect(listed.count).toBe(1500)
    expect(listed.resources[0]).toEqual({ res_id: firstId + 10 })
    expect(listed.resources.at(-1)).toEqual({ res_id: firstId + 1509 })
    const small = await t.mailroom.search.find(superadmin, { select: 'res_id', clause: CLAUSE, limit: 3 })
    expect(small.hits).toEqual([
      { record: { res_id: firstId } },
      { record: { res_id: firstId + 1 } },
      { record: { res_id: firstId + 2 } },
    ])
  })

  it('streams files across batches with withFile and no limit', async () => {
    const superadmin = await t.mailroom.actor('superadmin')
    const answer = await json(
      await t.mailroom.search.find(superadmin, { select: 'res_id', clause: CLAUSE, withFile: true }),
    )
    expect(answer.count).toBe(RECORDS)
    const withFiles = answer.resources.filter((r) => r.fileBase64Content !== null)
    expect(withFiles).toHaveLength(Math.ceil(RECORDS / 500))
    for (const record of withFiles)
      expect(Buffer.from(String(record.fileBase64Content), 'base64').toString()).toBe(`file of ${record.res_id}`)
  })

  it('keeps the perimeter on the streamed path', async () => {
    const outsider = await t.mailroom.actor('ddur')
    expect(await all((await t.mailroom.search.find(outsider, { select: 'res_id', clause: CLAUSE })).hits)).toEqual([])
  })

  it('answers 400 for a clause the database refuses, before anything is streamed', async () => {
    const superadmin = await t.mailroom.actor('superadmin')
    await expect(
      t.mailroom.search.find(superadmin, {
        select: 'res_id',
        clause: `${CLAUSE} and 1 / (res_id - ${firstId + 1500}) = 1`,
      }),
    ).rejects.toMatchObject({
      code: 'SEARCH_REQUEST_INVALID',
    })
  })

  it('releases the cursor when the consumer stops early, so the database keeps answering', async () => {
    const superadmin = await t.mailroom.actor('superadmin')
    for (let i = 0; i < 3; i++) {
      const result = await t.mailroom.search.find(superadmin, { select: 'res_id', clause: CLAUSE })
      for await (const _hit of result.hits) break
    }
    const listed = await t.mailroom.search.list(superadmin, { select: 'res_id', clause: CLAUSE, limit: 1 })
    expect(listed.count).toBe(1)
  })
})

describe('search limits: an operator ceiling refuses, never truncates', () => {
  let capped: TestMailroom['mailroom']
  beforeAll(async () => {
    const { createMailroom } = await import('../../../testing/src/storage-test-kit.js')
    capped = await createMailroom({
      database: t.mailroom.db,
      docserverDir: t.docserverDir,
      secret: t.secret,
      migrate: false,
      search: { maxResults: 1200 },
    })
  })
  afterAll(async () => capped?.close())

  it('refuses a limit over the ceiling with a message naming the setting', async () => {
    const superadmin = await capped.actor('superadmin')
    await expect(
      capped.search.find(superadmin, { select: 'res_id', clause: CLAUSE, limit: 1201 }),
    ).rejects.toMatchObject({
      code: 'SEARCH_LIMIT_OVER_CEILING',
      message: expect.stringContaining('MAILROOM_SEARCH_MAX_RESULTS'),
    })
    expect((await capped.search.list(superadmin, { select: 'res_id', clause: CLAUSE, limit: 1200 })).count).toBe(1200)
  })

  it('refuses a search without limit that matches more than the ceiling, and answers one that matches fewer', async () => {
    const superadmin = await capped.actor('superadmin')
    await expect(capped.search.find(superadmin, { select: 'res_id', clause: CLAUSE })).rejects.toMatchObject({
      code: 'SEARCH_RESULTS_OVER_CEILING',
    })
    const under = await capped.search.list(superadmin, {
      select: 'res_id',
      clause: `${CLAUSE} and res_id < ${firstId + 1100}`,
    })
    expect(under.count).toBe(1100)
  })
})
