import { parseClause } from '@mailroom/core'
import fc from 'fast-check'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { jsonIndexHints } from './json-index-hints.js'

const dummy = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (d) => new PostgresIntrospector(d),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

function hintSql(clause: string) {
  const hint = jsonIndexHints(parseClause(clause))
  return hint === null ? null : sql`${hint}`.compile(dummy)
}

describe('jsonIndexHints (SQL)', () => {
  it('turns a top-level ->> equality into bound containment conditions', () => {
    expect(hintSql("status <> 'END' AND custom_fields ->> '3' = 'Mail'")).toMatchObject({
      sql: '(("custom_fields" @> $1::jsonb))',
      parameters: ['{"3":"Mail"}'],
    })
    expect(hintSql("'42' = custom_fields->>'1'")).toMatchObject({
      sql: '(("custom_fields" @> $1::jsonb or "custom_fields" @> $2::jsonb))',
      parameters: ['{"1":"42"}', '{"1":42}'],
    })
  })
  it('offers nothing under OR or NOT, for other operators, nested access or integer keys', () => {
    for (const clause of [
      "custom_fields ->> '1' = 'a' OR 1=1",
      "NOT (custom_fields ->> '1' = 'a')",
      "custom_fields ->> '1' <> 'a'",
      "custom_fields -> 'a' ->> 'b' = 'c'",
      "external_id ->> 0 = 'a'",
      "custom_fields ->> '1' like 'a%'",
    ]) {
      expect(hintSql(clause), clause).toBeNull()
    }
  })
})

let t: TestMailroom
const VALUES: unknown[] = [
  '42',
  42,
  4.2,
  '4.20',
  true,
  'true',
  false,
  null,
  { a: 1 },
  [1, 2],
  'x y',
  'é"\\',
  '',
  0,
  -1e2,
  '{"a": 1}',
]
beforeAll(async () => {
  t = await createTestMailroom()
  for (const [i, value] of VALUES.entries()) {
    await t.mailroom.db
      .insertInto('res_letterbox')
      .values({
        subject: `j${i}`,
        type_id: 101,
        typist: 1,
        category_id: 'incoming',
        model_id: 1,
        status: 'NEW',
        custom_fields: JSON.stringify({ k: value, [`k${i}`]: 1 }),
      } as never)
      .execute()
  }
})
afterAll(async () => t?.cleanup())

describe('jsonIndexHints never changes a result (property, database)', () => {
  it('custom_fields ->> k = text returns the same rows with the hint as PostgreSQL without it', async () => {
    const actor = await t.mailroom.auth.authenticatePassword('superadmin', 'superadmin')
    const texts = fc.oneof(
      fc.constantFrom(
        '42',
        '42.0',
        '4.2',
        '4.20',
        'true',
        'false',
        'null',
        '{"a": 1}',
        '{"a":1}',
        '[1, 2]',
        'x y',
        'é"\\',
        '',
        '0',
        '-100',
        '-1e2',
      ),
      fc.string({ maxLength: 6 }).filter((s) => !s.includes('\0')),
    )
    await fc.assert(
      fc.asyncProperty(texts, async (text) => {
        const literal = `'${text.replaceAll("'", "''")}'`
        const viaService = await t.mailroom.search.list(actor, {
          select: 'res_id',
          clause: `custom_fields ->> 'k' = ${literal}`,
          limit: 1000,
        })
        const plain = await sql<{
          res_id: number
        }>`select res_id from res_letterbox where custom_fields ->> 'k' = ${text} order by res_id`.execute(
          t.mailroom.db,
        )
        expect(viaService.resources.map((r) => r.res_id)).toEqual(plain.rows.map((r) => r.res_id))
      }),
      { numRuns: 60, seed: 11 },
    )
  })
})
