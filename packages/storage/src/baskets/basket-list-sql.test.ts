import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { maarchSqlFunction } from '../../../testing/src/fixtures/publisher-baskets.js'
import { naturalChrono } from './basket-list-sql.js'

/*
 * The list's natural chrono order against 20.10's own `order_alphanum` function, read from the sample
 * installation's schema (GPL: kept outside the repository) and created in this test's throw-away database only.
 */

const maarch = maarchSqlFunction('order_alphanum')
if ('missing' in maarch && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error(`CI must run every test: ${maarch.missing}`)
if ('missing' in maarch)
  process.stderr.write(`the natural chrono order is not compared with 20.10's: ${maarch.missing}\n`)
const run = 'sql' in maarch ? it : it.skip

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom({ demo: false })
  if ('sql' in maarch) await sql.raw(maarch.sql).execute(t.mailroom.db)
})
afterAll(async () => t?.cleanup())

/** Each text's key by 20.10's function and by Mailroom's expression. */
async function keys(texts: readonly (string | null)[]) {
  const { rows } = await sql<{ theirs: string | null; ours: string | null }>`select order_alphanum(v) as theirs,
      ${naturalChrono(sql`v`)} as ours
    from unnest(${sql.val([...texts])}::text[]) with ordinality as t(v, n) order by n`.execute(t.mailroom.db)
  return rows
}

describe("order=alt_identifier's natural chrono key", () => {
  run("is 20.10's order_alphanum key, text for text", async () => {
    const chronos = [
      'MAARCH/2026A/9',
      'MAARCH/2026A/10',
      'MAARCH/2026D/123456789',
      'MAARCH/2026D/1234567890',
      '2026/12',
      '',
      'a1b22c333',
      'abc',
      '12345678',
      'Z/9 Z',
      'é1',
      null,
    ]
    for (const row of await keys(chronos)) expect(row.ours).toBe(row.theirs)
  })

  run('agrees with it on any text of digits, letters, slashes and spaces', async () => {
    const chrono = fc.stringMatching(/^[0-9A-Za-z/ .é-]{0,30}$/)
    await fc.assert(
      fc.asyncProperty(fc.array(chrono, { minLength: 1, maxLength: 40 }), async (texts) => {
        for (const row of await keys(texts)) expect(row.ours).toBe(row.theirs)
      }),
      { numRuns: 25 },
    )
  })
})
