import type { Actor } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { seedSearchDataset } from '../../../testing/src/fixtures/search-test-dataset.js'

// PostgreSQL only (vitest.config.ts): PGlite has no named prepared statements, and keeps planning as before.
let t: TestMailroom
let cchaplin: Actor
let chrono: string

beforeAll(async () => {
  // One connection: the prepared statements the searches leave are those of the session this test reads.
  t = await createTestMailroom({}, { postgresPoolSize: 1 })
  const records = await seedSearchDataset(t.mailroom.db, t.documents)
  chrono = records.find((record) => record.chrono?.endsWith('/23'))?.chrono as string
  cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
}, 120_000)
afterAll(async () => t?.cleanup())

interface PlanCounts {
  readonly statement: string
  readonly generic_plans: number
  readonly custom_plans: number
}

/** The session's prepared search statements (one per search: the matches, then the listing and the facets). */
async function searchStatements(): Promise<PlanCounts[]> {
  const { rows } = await sql<PlanCounts>`select statement, generic_plans::int, custom_plans::int
    from pg_prepared_statements where statement like 'with "matched" as materialized%'`.execute(t.mailroom.db)
  return rows
}

async function searchThreeTimes(body: unknown): Promise<number[]> {
  const counts: number[] = []
  for (let i = 0; i < 3; i++) counts.push((await t.mailroom.criteriaSearch.search(cchaplin, body, {})).count)
  return counts
}

describe('a search by chrono alone keeps its generic plan (PostgreSQL)', () => {
  it('plans its statement once, then runs it with the plan kept', async () => {
    expect(await searchThreeTimes({ chrono: { values: chrono } })).toEqual([1, 1, 1])
    const prepared = await searchStatements()
    // Prepared from its second run (database/prepared-statements.ts), the statement ran on the generic plan.
    expect(prepared).toHaveLength(1)
    for (const statement of prepared) expect([statement.generic_plans, statement.custom_plans]).toEqual([2, 0])
    // A partial chrono on the kept plan finds what it finds on a plan made for it: every record it is part of.
    const partial = chrono.slice(0, -1)
    const answers = await searchThreeTimes({ chrono: { values: partial } })
    expect(answers[0]).toBeGreaterThan(1)
    expect(new Set(answers).size).toBe(1)
  })

  it('puts the connection back as it was: other searches keep plans made for their values', async () => {
    const { rows } = await sql<{ plan_cache_mode: string }>`show plan_cache_mode`.execute(t.mailroom.db)
    expect(rows[0]?.plan_cache_mode).toBe('auto')
    const before = new Set((await searchStatements()).map((s) => s.statement))
    await searchThreeTimes({ subject: { values: 'courrier' } })
    const subject = (await searchStatements()).filter((s) => !before.has(s.statement))
    expect(subject).toHaveLength(1)
    for (const statement of subject) expect([statement.generic_plans, statement.custom_plans]).toEqual([0, 2])
  })
})
