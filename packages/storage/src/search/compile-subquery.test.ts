import { PGlite } from '@electric-sql/pglite'
import {
  isDomainError,
  parseClause,
  printClause,
  SUBQUERY_TABLES,
  VIEW_COLUMN_NAMES,
  VIEW_COLUMNS,
} from '@mailroom/core'
import { expandMacros, type PerimeterContext } from '@mailroom/core/internal'
import fc from 'fast-check'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clauseArbitrary } from '../../../testing/src/arbitraries/clause-arbitrary.js'
import { compileClause } from './compile-clause.js'

const db = new Kysely<any>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (d) => new PostgresIntrospector(d),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
})

const CONTEXT: PerimeterContext = {
  userId: 19,
  login: 'bbain',
  email: null,
  entities: [{ id: 3, entityId: 'DSI' }],
  primaryEntity: { id: 3, entityId: 'DSI' },
  allEntities: [],
}

function basketSql(clause: string): { sql: string; parameters: readonly unknown[] } {
  const tree = expandMacros(parseClause(clause, { allowMacros: true, author: 'administrator' }), CONTEXT)
  return sql`${compileClause(tree)}`.compile(db)
}

describe('compiling sub-selects', () => {
  it("writes the visa basket's row value over its own alias, the record's columns through the view", () => {
    const { sql: text, parameters } = basketSql(
      "(res_id, @user_id) IN (SELECT res_id, item_id FROM listinstance l WHERE difflist_type = 'VISA_CIRCUIT' and process_date ISNULL and res_view_letterbox.res_id = l.res_id order by listinstance_id asc limit 1)",
    )
    expect(text).toBe(
      '(("res_id", $1::integer) in (select "sub"."res_id", "sub"."item_id" from "listinstance" as "sub" where ((("sub"."difflist_type" = $2) and ("sub"."process_date" is null)) and ("res_view_letterbox"."res_id" = "sub"."res_id")) order by "sub"."listinstance_id" asc limit $3::bigint))',
    )
    expect(parameters).toEqual(['19', 'VISA_CIRCUIT', '1'])
  })

  it('writes DISTINCT, NOT IN and GROUP BY, every value a parameter', () => {
    const { sql: text, parameters } = basketSql(
      "res_id not in (select distinct res_id from res_mark_as_read where user_id = @user_id and basket_id = 'x''); drop' group by res_id)",
    )
    expect(text).toBe(
      '("res_id" not in (select distinct "sub"."res_id" from "res_mark_as_read" as "sub" where (("sub"."user_id" = $1::integer) and ("sub"."basket_id" = $2)) group by "sub"."res_id"))',
    )
    expect(parameters).toEqual(['19', "x'); drop"])
  })

  it('refuses a condition that could fail on a row of a record the caller may not see', () => {
    for (const condition of ['1 / (item_id - 3) = 1', 'process_comment::integer = 1', 'substring(item_type, 1, 2) = 1'])
      expect(() => basketSql(`res_id in (select res_id from listinstance where ${condition})`), condition).toThrow(
        /a sub-select's condition may not compute values that can fail on a row/,
      )
  })
})

describe('on PostgreSQL (PGlite): every random sub-select compiles to SQL PostgreSQL parses', () => {
  let pg: PGlite
  beforeAll(async () => {
    pg = new PGlite()
    const type = {
      bigint: 'bigint',
      integer: 'integer',
      text: 'text',
      timestamp: 'timestamptz',
      json: 'jsonb',
      boolean: 'boolean',
    }
    const columns = VIEW_COLUMN_NAMES.map((c) => `${c} ${type[VIEW_COLUMNS.get(c) ?? 'text']}`).join(', ')
    await pg.exec(`create table res_view_letterbox (${columns}, fulltext_document tsvector);
      create text search configuration mailroom_fr (copy = pg_catalog.french);
      create table listinstance (listinstance_id serial, res_id bigint not null, sequence integer, item_id integer not null,
        item_type text, item_mode text, added_by_user integer, viewed integer, difflist_type text, process_date timestamptz,
        process_comment text, signatory boolean, requested_signature boolean, delegate integer);
      create table res_mark_as_read (res_id bigint not null, user_id integer not null, basket_id text not null);
      create table acknowledgement_receipts (id serial, res_id bigint not null, type text, format text, user_id integer,
        contact_id integer, creation_date timestamptz, send_date timestamptz);
      create table users_entities (user_id integer not null, entity_id text not null, user_role text, primary_entity text)`)
  })
  afterAll(async () => {
    await pg?.close()
  })

  it('(type errors aside)', async () => {
    expect(Object.keys(SUBQUERY_TABLES)).toHaveLength(4)
    const outcomes = new Map<string, number>()
    const sub = clauseArbitrary({ subqueries: true, maxDepth: 2 }).filter((ast) => printClause(ast).includes('select'))
    await fc.assert(
      fc.asyncProperty(sub, async (ast) => {
        let query: { sql: string; parameters: readonly unknown[] }
        try {
          query = sql`select res_id from res_view_letterbox where ${compileClause(ast)}`.compile(db)
        } catch (error) {
          if (isDomainError(error)) return
          throw error
        }
        try {
          await pg.query(query.sql, [...query.parameters])
        } catch (error) {
          const code = (error as { code?: string }).code
          // 42601 syntax error, 42703 unknown column, 42P18 untyped parameter, 42P01 unknown table: the compiler's fault.
          expect(
            ['42601', '42703', '42P18', '42P01'],
            `${code} ${(error as Error).message}: ${query.sql}`,
          ).not.toContain(code)
          outcomes.set(code ?? '?', (outcomes.get(code ?? '?') ?? 0) + 1)
          return
        }
        outcomes.set('ok', (outcomes.get('ok') ?? 0) + 1)
      }),
      { numRuns: 200, seed: 53 },
    )
    // Random conditions are mostly ill-typed (PostgreSQL parses the text before it types it): some run.
    expect(outcomes.get('ok'), JSON.stringify([...outcomes])).toBeGreaterThan(3)
  }, 120_000)
})
