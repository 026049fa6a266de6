import { createTestMailroom, type TestMailroom } from '@mailroom/testing'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'
import { RELATED_TABLES, type Related, RelatedRowsInOrder, relatedOf } from './related-rows.js'
import { openMaarchSource } from './source.js'

let fixture: GeneratedSource
let t: TestMailroom
beforeAll(async () => {
  fixture = await createGeneratedSource({ records: 40 })
  t = await createTestMailroom({ demo: false })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
  await fixture?.drop()
})

/** Every related table's rows as plain data, by record, for comparing two reads. */
const plain = (related: Related) =>
  Object.fromEntries(RELATED_TABLES.map((table) => [table, Object.fromEntries(related[table])]))

describe('the rows that hang off records, read in record order', () => {
  it('gives each range of records the same rows, in the same order, as querying its records does', async () => {
    const source = await openMaarchSource(fixture.url)
    try {
      const ids = (await source.rows<{ res_id: number }>('select res_id from res_letterbox order by res_id')).map((r) =>
        Number(r.res_id),
      )
      // Ranges of 1 to 6 records, and a start after the first records, as a resumed import has.
      const start = ids[2] as number
      const walk = await RelatedRowsInOrder.open(source, start)
      let seen = 0
      try {
        for (let at = 3, size = 1; at < ids.length; at += size, size = (size % 6) + 1) {
          const range = ids.slice(at, at + size)
          const walked = await walk.upTo(range.at(-1) as number)
          const queried = await relatedOf(source, range)
          expect(plain(walked)).toEqual(plain(queried))
          seen += RELATED_TABLES.reduce((n, table) => n + walked[table].size, 0)
        }
        // The ranges after the last record: nothing more.
        expect(plain(await walk.upTo(Number.MAX_SAFE_INTEGER))).toEqual(plain(await relatedOf(source, [])))
      } finally {
        await walk.close()
      }
      // The generated installation has rows in every table the walk reads, history and notes included.
      const before = await relatedOf(source, ids.slice(0, 3))
      const all = await relatedOf(source, ids)
      for (const table of RELATED_TABLES) expect(all[table].size, table).toBeGreaterThan(before[table].size)
      expect(seen).toBeGreaterThan(0)
    } finally {
      await source.close()
    }
  })

  it('reads each related table once however many batches the import makes (Maarch 20.10 has no index on them)', async () => {
    const scans = async () => {
      const client = new pg.Client({ connectionString: fixture.url })
      await client.connect()
      try {
        const { rows } = await client.query<{ scans: string }>(
          `select coalesce(seq_scan, 0) + coalesce(idx_scan, 0) as scans from pg_stat_user_tables where relname = 'listinstance'`,
        )
        return Number(rows[0]?.scans ?? 0)
      } finally {
        await client.end()
      }
    }
    const before = await scans()
    const records = fixture.installation.facts.records
    const report = await importCollecting(t.mailroom, {
      from: fixture.url,
      docservers: { root: fixture.docservers },
      batchSize: 1,
      jobs: 1,
    })
    expect(report.counts.imported).toBe(records)
    // The source's connection reports its statistics as it ends: wait for them to arrive.
    let after = await scans()
    for (let wait = 0; after === before && wait < 50; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      after = await scans()
    }
    // One batch per record would have been one scan per record.
    expect(after - before).toBe(1)
  })
})
