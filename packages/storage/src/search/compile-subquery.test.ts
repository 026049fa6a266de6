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
import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type RawBuilder,
  sql,
} from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clauseArbitrary } from '../../../testing/src/arbitraries/clause-arbitrary.js'
import { compileBasketClause, compileClause } from './compile-clause.js'

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

/** A basket's selection as a basket's count compiles it (compileBasketClause). */
function basketSelectionSql(clause: string): string {
  const tree = expandMacros(parseClause(clause, { allowMacros: true, author: 'administrator' }), CONTEXT)
  return sql`${compileBasketClause(tree)}`.compile(db).sql
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

describe("a basket's selection: the ORs indexes serve", () => {
  const copies =
    "res_id in (select res_id from listinstance where item_type = 'user_id' and item_id = @user_id and item_mode = 'cc')"
  const entityCopies =
    "res_id in (select res_id from listinstance where item_type = 'entity_id' and item_mode = 'cc' and item_id in (@my_entities_id))"

  it('writes the memberships of an OR of memberships as arrays the primary key reads', () => {
    const text = basketSelectionSql(`(${copies} or ${entityCopies}) and status not in ('DEL', 'END')`)
    expect(text).toBe(
      '((("res_id" = any(array(select "sub"."res_id" from "listinstance" as "sub" where ((("sub"."item_type" = $1) and ("sub"."item_id" = $2::integer)) and ("sub"."item_mode" = $3))))) or ("res_id" = any(array(select "sub"."res_id" from "listinstance" as "sub" where ((("sub"."item_type" = $4) and ("sub"."item_mode" = $5)) and ("sub"."item_id" in ($6::integer))))))) and ("status" not in ($7, $8)))',
    )
  })

  it("writes a column's membership as an array beside the other indexed alternatives", () => {
    const text = basketSelectionSql(
      "status = 'EAVIS' and (dest_user = @user_id or dest_user in (select user_id from users_entities where entity_id in (@my_entities)) or destination in ('PE'))",
    )
    expect(text).toContain(
      '("dest_user" = any(array(select "sub"."user_id" from "users_entities" as "sub" where ("sub"."entity_id" in ($3)))))',
    )
  })

  it('keeps the hashed form where a record is tested against the set: an alternative no index serves, NOT, alone', () => {
    for (const clause of [
      `${copies} or subject like 'a%'`,
      `${copies} or status <> 'END'`,
      `not (${copies} or ${entityCopies})`,
      `${copies} and status = 'NEW'`,
      "dest_user in (select user_id from users_entities where entity_id = 'PJS') or res_id in (select res_id from listinstance where item_mode = 'avis' and res_view_letterbox.res_id = res_id)",
    ])
      expect(basketSelectionSql(clause), clause).not.toContain('any(array(')
    // Searches keep the form they had: the compiler of clauses writes no array.
    expect(basketSql(`${copies} or ${entityCopies}`).sql).not.toContain('any(array(')
  })

  it("guards `->> 'key' is not null` on an indexed JSON column with `? 'key'`, which its GIN index serves", () => {
    expect(basketSql("custom_fields->>'1' is not null").sql).toBe(
      '("custom_fields" ? $1::text and (("custom_fields" ->> $2::text) is not null))',
    )
    expect(basketSql("external_id->'k' is not null").sql).toContain('"external_id" ? $1::text and')
    for (const clause of [
      "custom_fields->>'1' is null",
      "(custom_fields->'a')->>'1' is not null",
      'custom_fields->>0 is not null',
    ])
      expect(basketSql(clause).sql, clause).not.toContain('?')
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

describe("on PostgreSQL (PGlite): a basket's selection selects what its clause says", () => {
  let pg: PGlite
  beforeAll(async () => {
    pg = new PGlite()
    await pg.exec(`create table res_view_letterbox (res_id bigint primary key, status text, dest_user integer,
        destination text, subject text, custom_fields jsonb, external_id jsonb, fulltext_document tsvector);
      insert into res_view_letterbox
        select g, (array['NEW', 'END', 'EAVIS', 'COU', 'DEL'])[1 + g % 5], (array[3, 5, 7, null])[1 + g % 4],
          (array['PJS', 'PE', 'DSI', null])[1 + g % 4 + g / 20 % 2 - (g % 4 + g / 20 % 2) / 4 * 4],
          (array['a', 'b', null])[1 + g % 3],
          (array[null, '{}', '{"1": "2026-01-01"}', '{"1": null}', '{"1": ""}', '{"2": 1}'])[1 + g % 6]::jsonb,
          (array['{}', '{"k": 1}', null])[1 + g % 3]::jsonb, null
        from generate_series(1, 60) g;
      create table listinstance (listinstance_id serial, res_id bigint not null, item_id integer not null,
        item_type text, item_mode text, difflist_type text, process_date timestamptz);
      insert into listinstance (res_id, item_id, item_type, item_mode, difflist_type, process_date)
        select g, (array[3, 5, 7])[1 + g % 3], 'user_id', (array['dest', 'cc', 'avis'])[1 + g % 3 + g / 7 % 2 - (g % 3 + g / 7 % 2) / 3 * 3],
          'entity_id', case when g % 4 = 0 then now() end from generate_series(1, 60) g
        union all select g, (array[6, 7])[1 + g % 2], 'entity_id', 'cc', 'entity_id', null from generate_series(1, 60, 7) g;
      create table res_mark_as_read (res_id bigint not null, user_id integer not null, basket_id text not null);
      insert into res_mark_as_read select g, 3, 'CopyMailBasket' from generate_series(1, 60, 5) g;
      create table users_entities (user_id integer not null, entity_id text not null);
      insert into users_entities values (3, 'PJS'), (5, 'PE'), (7, 'PJS')`)
  })
  afterAll(async () => {
    await pg?.close()
  })

  /** Conditions of the shapes the sample's baskets are written in, all macro-free so they also run as written. */
  const INDEXED = [
    "res_id in (select res_id from listinstance where item_type = 'user_id' and item_id = 3 and item_mode = 'cc')",
    "res_id in (select res_id from listinstance where item_type = 'entity_id' and item_mode = 'cc' and item_id in (6, 8))",
    "dest_user in (select user_id from users_entities where entity_id in ('PJS'))",
    "status = 'EAVIS'",
    "status in ('NEW', 'COU')",
    'dest_user = 3',
    "destination in ('PE')",
    '1=0',
  ]
  const OTHERS = [
    'res_id not in (select res_id from res_mark_as_read where user_id = 3)',
    "res_id in (select res_id from listinstance where item_mode = 'avis' and process_date is null and res_view_letterbox.res_id = res_id group by res_id)",
    "status <> 'END'",
    "subject like 'a%'",
    "custom_fields->>'1' is not null",
    "custom_fields->'1' is not null",
    "external_id->>'k' is not null",
    '1=1',
  ]
  const either = (l: string, op: string, r: string) => `(${l}) ${op} (${r})`
  /** ORs of indexed conditions (some ANDed with others), which a basket writes for the indexes, among any others. */
  const indexedOr = fc
    .array(
      fc.oneof(
        fc.constantFrom(...INDEXED),
        fc.tuple(fc.constantFrom(...INDEXED), fc.constantFrom(...OTHERS)).map(([l, r]) => either(l, 'and', r)),
      ),
      { minLength: 2, maxLength: 3 },
    )
    .map((alternatives) => alternatives.map((a) => `(${a})`).join(' or '))
  const clause: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(...INDEXED, ...OTHERS),
      indexedOr,
      fc.tuple(tie('node'), fc.constantFrom('and', 'or'), tie('node')).map(([l, op, r]) => either(l, op, r)),
      tie('node').map((n) => `not (${n})`),
    ),
  })).node

  async function selected(where: RawBuilder<unknown>): Promise<number[]> {
    const query = sql`select res_id from res_view_letterbox where ${where} order by res_id`.compile(db)
    return (await pg.query<{ res_id: number }>(query.sql, [...query.parameters])).rows.map((r) => Number(r.res_id))
  }

  it('the same records as the clause run as written, and as a search compiles it (property)', async () => {
    let arrays = 0
    let found = 0
    await fc.assert(
      fc.asyncProperty(clause, async (text) => {
        const tree = parseClause(text, { allowMacros: true, author: 'administrator' })
        const written = await selected(sql.raw(text))
        const basket = compileBasketClause(tree)
        expect(await selected(basket), text).toEqual(written)
        expect(await selected(compileClause(tree)), text).toEqual(written)
        if (basket.compile(db).sql.includes('any(array(')) arrays++
        if (written.length > 0 && written.length < 60) found++
      }),
      { numRuns: 300, seed: 5329 },
    )
    // The property tried the arrays, on clauses that keep some records and leave others.
    expect([arrays > 40, found > 150]).toEqual([true, true])
  }, 120_000)
})
