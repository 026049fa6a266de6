import { createTestMailroom, type TestMailroom } from '@mailroom/testing'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'
import { FIRST_STATISTICS_BATCH } from './import-records.js'

let t: TestMailroom
let fixture: GeneratedSource
beforeAll(async () => {
  fixture = await createGeneratedSource()
  t = await createTestMailroom({ demo: false })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
  await fixture?.drop()
})

describe("an import keeps the target's statistics current", () => {
  it('analyzes the tables it fills after the 8th committed batch, then each time the count of batches doubles', async () => {
    const records = fixture.installation.facts.records
    expect(records).toBeGreaterThanOrEqual(2 * FIRST_STATISTICS_BATCH)
    const analyses = async () => {
      const { rows } = await sql<{ analyzed: string }>`select analyze_count as analyzed from pg_stat_user_tables
        where relname = 'res_letterbox'`.execute(t.mailroom.db)
      return Number(rows[0]?.analyzed ?? 0)
    }
    expect(await analyses()).toBe(0)
    await importCollecting(t.mailroom, {
      from: fixture.url,
      docservers: { root: fixture.docservers },
      batchSize: 1,
      jobs: 1,
    })
    // One batch per record: analyzed after batches 8, 16, 32, … up to the last.
    let expected = 0
    for (let due = FIRST_STATISTICS_BATCH; due <= records; due *= 2) expected++
    expect(await analyses()).toBe(expected)
    // Statistics a planner can use: the table's size as it is now.
    const { rows } = await sql<{ tuples: number }>`select reltuples::int as tuples from pg_class
      where relname = 'res_letterbox'`.execute(t.mailroom.db)
    expect(rows[0]?.tuples).toBeGreaterThanOrEqual(FIRST_STATISTICS_BATCH)
  })
})
