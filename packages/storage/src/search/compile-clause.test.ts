import { PGlite } from '@electric-sql/pglite'
import {
  type ClauseAst,
  isDomainError,
  parseClause,
  printClause,
  SUBQUERY_TABLES,
  VIEW_COLUMN_NAMES,
  VIEW_COLUMNS,
  type ViewColumnType,
} from '@mailroom/core'
import { expandMacros, type PerimeterContext } from '@mailroom/core/internal'
import fc from 'fast-check'
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clauseArbitrary, literalTextArbitrary } from '../../../testing/src/arbitraries/clause-arbitrary.js'
import { INJECTION_CORPUS } from '../../../testing/src/fixtures/injection-corpus.js'
import { parseSearchRequest } from '../../../testing/src/test-core-internals.js'
import { compileClause, compileSearch } from './compile-clause.js'

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
  primaryEntity: { id: 2, entityId: 'DGS' },
  allEntities: [
    { id: 2, entityId: 'DGS', parentEntityId: null, entityType: 'Direction', enabled: true },
    { id: 3, entityId: 'DSI', parentEntityId: 'DGS', entityType: 'Service', enabled: true },
  ],
}
const AGENT = expandMacros(
  parseClause('destination in (@my_entities, @subentities[@my_primary_entity])', { allowMacros: true }),
  CONTEXT,
)

function compiled(body: Record<string, unknown>, perimeter: ClauseAst | null = null) {
  return compileSearch(
    db,
    parseSearchRequest({ select: 'res_id', orderBy: ['res_id'], limit: 1, ...body }),
    perimeter,
  ).compile()
}

function clauseSql(clause: string): { sql: string; parameters: readonly unknown[] } {
  return sql`${compileClause(parseClause(clause))}`.compile(db)
}

describe('compileSearch: the clauses of B8.11', () => {
  const cases: [string, string, unknown[]][] = [
    ['1=1', 'true', []],
    [
      "alt_identifier='MAARCH/2021D/12' AND status <> 'DEL'",
      '(("alt_identifier" = $1) and ("status" <> $2))',
      ['MAARCH/2021D/12', 'DEL'],
    ],
    [
      "category_id='outgoing' AND alt_identifier='MAARCH/2021D/12' AND status <> 'DEL'",
      '((("category_id" = $1) and ("alt_identifier" = $2)) and ("status" <> $3))',
      ['outgoing', 'MAARCH/2021D/12', 'DEL'],
    ],
    [
      "status <> 'END' AND custom_fields ->> '3' = 'X'",
      '(("status" <> $1) and (("custom_fields" ->> $2::text) = $3))',
      ['END', '3', 'X'],
    ],
    ["external_id::text like '%<msgid>%'", '(("external_id"::text) like $1)', ['%<msgid>%']],
  ]

  it.each(cases)('%s (root)', (clause, where, parameters) => {
    const query = compiled({ clause })
    expect(query.sql).toBe(
      `select "res_id" from "res_view_letterbox" where (${where}) order by ("res_id") asc limit $${parameters.length + 1} offset $${parameters.length + 2}`,
    )
    expect(query.parameters).toEqual([...parameters, 1, 0])
  })

  it.each(cases)('%s (under the AGENT perimeter)', (clause, where, parameters) => {
    const query = compiled({ clause }, AGENT)
    const shifted = where.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + 2}`)
    expect(query.sql).toBe(
      `select "res_id" from "res_view_letterbox" where (("destination" in ($1, $2))) and (${shifted}) order by ("res_id") asc limit $${parameters.length + 3} offset $${parameters.length + 4}`,
    )
    expect(query.parameters).toEqual(['DSI', 'DSI', ...parameters, 1, 0])
  })
})

describe('compileSearch: shape', () => {
  it("matches the words on the record's own document, a condition of the view row the planner can AND with the perimeter", () => {
    const top = compiled({ clause: "status = 'NEW' and fulltext('toiture')" }, AGENT).sql
    expect(top).toContain('("res_view_letterbox"."fulltext_document" @@ websearch_to_tsquery(')
    // No sub-query reads the texts to decide which records match: only the excerpt reads them.
    expect(top).not.toContain('fulltext_texts')
    const under = compiled({ clause: "status = 'NEW' or fulltext('toiture')" }, AGENT).sql
    expect(under).toContain('("res_view_letterbox"."fulltext_document" @@ websearch_to_tsquery(')
    expect(under).not.toContain('fulltext_texts')
    const ranked = compiled({ clause: "fulltext('toiture')", orderBy: ["fulltext_rank('toit') desc"] }, AGENT).sql
    expect(ranked).toContain('ts_rank_cd("res_view_letterbox"."fulltext_document", websearch_to_tsquery(')
  })

  it('keeps a caller OR inside its parentheses under the perimeter', () => {
    expect(compiled({ clause: '1=1 OR 1=1' }, AGENT).sql).toBe(
      'select "res_id" from "res_view_letterbox" where (("destination" in ($1, $2))) and ((true or true)) order by ("res_id") asc limit $3 offset $4',
    )
  })

  it('selects every column for *, adds res_id for files, orders then breaks ties on res_id', () => {
    const query = compileSearch(
      db,
      parseSearchRequest({
        select: 'subject, *',
        clause: 'true',
        orderBy: ['lower(subject) desc nulls last', 'creation_date nulls first'],
        withFile: true,
        limit: 5000,
        offset: 20,
      }),
      null,
    ).compile()
    expect(query.sql).toBe(
      `select ${['subject', ...VIEW_COLUMN_NAMES.filter((c) => c !== 'subject')].map((c) => `"${c}"`).join(', ')} from "res_view_letterbox" where (true) order by (lower("subject")) desc nulls last, ("creation_date") asc nulls first, "res_id" limit $1 offset $2`,
    )
    expect(query.parameters).toEqual([5000, 20])
    expect(
      compileSearch(db, parseSearchRequest({ select: 'subject', clause: '1=1', withFile: true }), null).compile().sql,
    ).toMatch(/^select "subject", "res_id" from/)
  })

  it('accepts a perimeter built with kysely', () => {
    const perimeter = sql<boolean>`"typist" = ${19}`
    expect(compileSearch(db, parseSearchRequest({ select: 'res_id', clause: 'true' }), perimeter).compile().sql).toBe(
      'select "res_id" from "res_view_letterbox" where ("typist" = $1) and (true) order by "res_id" limit $2 offset $3',
    )
  })

  it('compiles an empty IN as FALSE and an empty NOT IN as TRUE', () => {
    const lonely = { ...CONTEXT, entities: [], primaryEntity: null }
    const empty = (clause: string) =>
      sql`${compileClause(expandMacros(parseClause(clause, { allowMacros: true }), lonely))}`.compile(db).sql
    expect(empty('destination in (@my_entities)')).toBe('false')
    expect(empty('destination not in (@my_entities)')).toBe('true')
    expect(empty("destination in (@my_entities, 'X')")).toBe('("destination" in ($1))')
  })

  it('types literals the way PostgreSQL types them inline', () => {
    expect(
      clauseSql('res_id = 2147483647 or res_id = 2147483648 or res_id = 99999999999999999999 or filesize > 1.5').sql,
    ).toBe(
      '(((("res_id" = $1::integer) or ("res_id" = $2::bigint)) or ("res_id" = $3::numeric)) or ("filesize" > $4::numeric))',
    )
    expect(
      clauseSql("doc_date = DATE '2021-01-01' and creation_date > now() - INTERVAL '1 day' and 'x' is null").sql,
    ).toBe('((("doc_date" = $1::date) and ("creation_date" > (now() - $2::interval))) and ($3::text is null))')
    expect(
      clauseSql("custom_fields -> 'a' -> 0 is not null and binding is true and subject is not false and null is null")
        .sql,
    ).toBe(
      '(((((("custom_fields" -> $1::text) -> $2::integer) is not null) and ("binding" is true)) and ("subject" is not false)) and (null is null))',
    )
    expect(
      clauseSql(
        "- -res_id < 0 and not (extract(year from doc_date) between 1 and 2) and substring(subject from 1 for 2) not ilike '%a%'",
      ).sql,
    ).toBe(
      '((((-(-"res_id")) < $1::integer) and (not (extract(year from "doc_date") between $2::integer and $3::integer))) and (substring("subject", $4::integer, $5::integer) not ilike $6))',
    )
    expect(clauseSql('doc_date <= current_date and creation_date <= current_timestamp').sql).toBe(
      '(("doc_date" <= current_date) and ("creation_date" <= current_timestamp))',
    )
  })

  it('refuses a tree whose macros were not expanded', () => {
    try {
      compileClause(parseClause('typist = @user_id', { allowMacros: true }))
      expect.unreachable()
    } catch (error) {
      expect(isDomainError(error) && error.code).toBe('SEARCH_MACRO_NOT_EXPANDED')
    }
  })
})

/** Words the compiler may emit: catalogue columns, its own keywords, operators, functions and types. */
const ALLOWED_WORDS = new Set([
  ...VIEW_COLUMN_NAMES.map((c) => `"${c}"`),
  ...'select from where order by asc desc nulls first last limit offset and or not in between like ilike is null true false'.split(
    ' ',
  ),
  ...'text integer bigint numeric date timestamp boolean interval extract'.split(' '),
  ...'lower upper trim coalesce length substring date_trunc now current_date current_timestamp to_char abs greatest least'.split(
    ' ',
  ),
  ...'century day decade dow doy epoch hour isodow isoyear microseconds millennium milliseconds minute month quarter second timezone timezone_hour timezone_minute week year'.split(
    ' ',
  ),
  '"res_view_letterbox"',
  // The full-text conditions over the record's words, and the excerpt's sub-query over the extracted texts.
  '"fulltext_document"',
  ...'as ft fulltext_texts res_id document websearch_to_tsquery regconfig ts_rank_cd'.split(' '),
  // The conditions that may fail on a record's values, evaluated after the perimeter (row-failures.ts).
  ...'case when then else end'.split(' '),
  // Sub-selects: the allow-listed tables and columns (subquery-tables.ts), under the alias "sub".
  ...Object.entries(SUBQUERY_TABLES).flatMap(([table, { columns }]) => [`"${table}"`, ...columns.map((c) => `"${c}"`)]),
  ...'"sub" distinct group'.split(' '),
])
// `?`: a JSON key's guard (`custom_fields ? $1`, which the column's GIN index serves).
const SQL_TOKEN = /\s+|"[a-z_0-9]+"|\$\d+|[a-z_]+[a-z_0-9]*|->>|->|::|\|\||<>|<=|>=|@@|[=<>+\-*/%(),.?]/gy

function assertOnlyAllowedSql(text: string): void {
  SQL_TOKEN.lastIndex = 0
  let consumed = 0
  for (const match of text.matchAll(SQL_TOKEN)) {
    const word = match[0]
    consumed += word.length
    if (/^("|[a-z_])/.test(word)) expect(ALLOWED_WORDS.has(word), `word ${word} in ${text}`).toBe(true)
  }
  expect(consumed, `unexpected text in ${text}`).toBe(text.length)
}

describe('properties', () => {
  const RUNS = { numRuns: 300, seed: 20101 }
  const MARK = 'Zq9'

  it('never puts caller literals into SQL text: only catalogue names, own keywords and $n placeholders', () => {
    const marked = literalTextArbitrary.map((s) => `${MARK}${s}`)
    fc.assert(
      fc.property(clauseArbitrary(), marked, (ast, mark) => {
        const clause = printClause({
          kind: 'logical',
          op: 'or',
          left: ast,
          right: {
            kind: 'comparison',
            op: '=',
            left: { kind: 'column', name: 'subject' },
            right: { kind: 'string', value: mark },
          },
        })
        const query = compileSearch(db, parseSearchRequest({ select: 'res_id', clause }), AGENT).compile()
        expect(query.sql).not.toContain(MARK)
        expect(query.parameters).toContain(mark)
        assertOnlyAllowedSql(query.sql)
        expect(
          query.sql.startsWith('select "res_id" from "res_view_letterbox" where (("destination" in ($1, $2))) and ('),
        ).toBe(true)
      }),
      RUNS,
    )
  })

  it('keeps every accepted random string or corpus payload inside the parentheses after the perimeter', () => {
    const prefix = 'select "res_id" from "res_view_letterbox" where (("destination" in ($1, $2))) and ('
    // The ordering follows: by res_id, or by rank first when the clause looks for words.
    const suffix = ') order by '
    const check = (clause: string) => {
      let query: { sql: string }
      try {
        query = compileSearch(db, parseSearchRequest({ select: 'res_id', clause }), AGENT).compile()
      } catch (error) {
        if (isDomainError(error)) return
        throw error
      }
      expect(query.sql.startsWith(prefix)).toBe(true)
      const inner = query.sql.slice(prefix.length, query.sql.lastIndexOf(suffix))
      // The caller's part is balanced and never closes the parenthesis opened for it.
      let depth = 0
      for (const c of inner) {
        depth += c === '(' ? 1 : c === ')' ? -1 : 0
        expect(depth).toBeGreaterThanOrEqual(0)
      }
      expect(depth).toBe(0)
      assertOnlyAllowedSql(query.sql)
    }
    for (const payload of INJECTION_CORPUS) check(payload)
    fc.assert(fc.property(fc.oneof(fc.string(), clauseArbitrary().map(printClause)), check), RUNS)
  })
})

function columnType(type: ViewColumnType): string {
  return {
    bigint: 'bigint',
    integer: 'integer',
    text: 'text',
    timestamp: 'timestamptz',
    json: 'jsonb',
    boolean: 'boolean',
  }[type]
}

describe('on PostgreSQL (PGlite)', () => {
  let pg: PGlite
  beforeAll(async () => {
    pg = new PGlite()
    const columns = VIEW_COLUMN_NAMES.map((c) => `${c} ${columnType(VIEW_COLUMNS.get(c) ?? 'text')}`).join(', ')
    await pg.exec(`create table res_view_letterbox (${columns}, fulltext_document tsvector);
      insert into res_view_letterbox (res_id, status, alt_identifier, category_id, destination, subject, creation_date, custom_fields, external_id, typist)
      values (1, 'NEW', 'MAARCH/2021D/12', 'outgoing', 'DSI', 'Hello', '2021-03-01 10:00:00+00', '{"3": "X"}', '{"emailId": "<msgid>"}', 19),
             (2, 'DEL', 'MAARCH/2021D/13', 'outgoing', 'PJS', 'World', '2021-04-01 10:00:00+00', '{"3": "Y"}', '{}', 20),
             (3, 'END', 'MAARCH/2021A/1', 'incoming', 'DSI', null, '2022-01-01 10:00:00+00', null, null, 19);
      create text search configuration mailroom_fr (copy = pg_catalog.french);
      create table fulltext_texts (file_kind text, file_id bigint, res_id bigint, content text, document tsvector);
      create table fulltext_passages (file_kind text, file_id bigint, seq integer, content text, document tsvector);
      insert into fulltext_texts values
        ('resource', 1, 1, 'La toiture du gymnase fuit', to_tsvector('mailroom_fr', 'La toiture du gymnase fuit')),
        ('resource', 2, 2, 'Le gymnase est fermé', to_tsvector('mailroom_fr', 'Le gymnase est fermé')),
        ('resource', 3, 3, 'Budget des écoles', to_tsvector('mailroom_fr', 'Budget des écoles'));
      update res_view_letterbox v set fulltext_document = ft.document from fulltext_texts ft where ft.res_id = v.res_id`)
  })
  afterAll(async () => {
    await pg?.close()
  })

  async function ids(body: Record<string, unknown>, perimeter: ClauseAst | null = null): Promise<number[]> {
    const query = compileSearch(db, parseSearchRequest({ select: 'res_id', limit: 100, ...body }), perimeter).compile()
    const result = await pg.query<{ res_id: number }>(query.sql, [...query.parameters])
    return result.rows.map((row) => Number(row.res_id))
  }

  it('runs the B8.11 clauses', async () => {
    expect(await ids({ clause: '1=1' })).toEqual([1, 2, 3])
    expect(await ids({ clause: "alt_identifier='MAARCH/2021D/12' AND status <> 'DEL'" })).toEqual([1])
    expect(
      await ids({ clause: "category_id='outgoing' AND alt_identifier='MAARCH/2021D/13' AND status <> 'DEL'" }),
    ).toEqual([])
    expect(await ids({ clause: "status <> 'END' AND custom_fields ->> '3' = 'X'" })).toEqual([1])
    expect(await ids({ clause: "external_id::text like '%<msgid>%'" })).toEqual([1])
  })

  it('keeps the perimeter whatever the caller ORs', async () => {
    expect(await ids({ clause: '1=1 OR 1=1' }, AGENT)).toEqual([1, 3])
    expect(await ids({ clause: "status = 'DEL' OR 1=1" }, AGENT)).toEqual([1, 3])
    const lonely = expandMacros(parseClause('destination in (@my_entities)', { allowMacros: true }), {
      ...CONTEXT,
      entities: [],
    })
    expect(await ids({ clause: '1=1 OR 1=1' }, lonely)).toEqual([])
  })

  it('lets PostgreSQL type string literals from their context', async () => {
    expect(await ids({ clause: "creation_date >= '2021-03-15' and creation_date < TIMESTAMP '2022-01-01'" })).toEqual([
      2,
    ])
    expect(
      await ids({ clause: "creation_date > now() - interval '100 years' and doc_date is null and 'x' is not null" }),
    ).toEqual([1, 2, 3])
    expect(await ids({ clause: "subject || '!' = 'Hello!' or coalesce(subject, 'none') = 'none'" })).toEqual([1, 3])
    expect(
      await ids({
        clause: "extract(year from creation_date) = 2022 or lower(subject) in ('world')",
        orderBy: ['res_id desc'],
      }),
    ).toEqual([3, 2])
    expect(await ids({ clause: 'typist = 19 and res_id between 2 and 3 and -res_id < -2' })).toEqual([3])
    expect(await ids({ clause: "to_char(creation_date, 'YYYY') = '2021' and res_id::text = '1'" })).toEqual([1])
    expect(await ids({ clause: 'true', orderBy: ['subject desc nulls last', "'x'"], limit: 2, offset: 1 })).toEqual([
      1, 3,
    ])
  })

  it('finds records by the words of their files, best first, with an excerpt, inside the perimeter', async () => {
    expect(await ids({ clause: "fulltext('gymnases')" })).toEqual([1, 2])
    expect(await ids({ clause: "fulltext('toiture gymnase')" })).toEqual([1])
    expect(await ids({ clause: 'fulltext(\'"gymnase fuit" or école\')' })).toEqual([1, 3])
    expect(await ids({ clause: "fulltext('gymnase -toiture')" })).toEqual([2])
    expect(await ids({ clause: "fulltext('gymnase')", orderBy: ["fulltext_rank('fermé') desc"] })).toEqual([2, 1])
    expect(await ids({ clause: "fulltext('gymnase') or fulltext('école')" }, AGENT)).toEqual([1, 3])
    // Odd words are never a syntax error: websearch_to_tsquery reads anything.
    expect(await ids({ clause: "fulltext('\"(!:&|')" })).toEqual([])
    const query = compileSearch(
      db,
      parseSearchRequest({ select: 'res_id, fulltext_excerpt', clause: "fulltext('toiture') and res_id > 0" }),
      null,
    ).compile()
    const rows = (await pg.query<{ res_id: number; fulltext_excerpt: string }>(query.sql, [...query.parameters])).rows
    expect(rows).toEqual([{ res_id: 1, fulltext_excerpt: '**toiture** du gymnase fuit' }])
    expect(query.sql).not.toContain('toiture')
  })

  it('folds a comparison of two whole numbers to the value PostgreSQL gives it, other comparisons not (property)', async () => {
    const whole = fc.oneof(fc.integer({ min: 0, max: 3 }), fc.bigInt({ min: 0n, max: 10n ** 30n })).map(String)
    const op = fc.constantFrom('=', '<>', '<', '<=', '>', '>=')
    await fc.assert(
      fc.asyncProperty(whole, op, whole, async (left, operator, right) => {
        const clause = `${left} ${operator} ${right}`
        const folded = clauseSql(clause)
        expect(folded.parameters).toEqual([])
        const { rows } = await pg.query<{ value: boolean }>(`select (${clause}) as value`)
        expect(folded.sql).toBe(rows[0]?.value ? 'true' : 'false')
      }),
      { numRuns: 200 },
    )
    // A side that is not a whole-number literal stays a comparison of parameters, evaluated by PostgreSQL.
    for (const clause of ['1.5 = 1.5', "'1' = '1'", '-1 = -1', 'res_id = 1', '1 = res_id'])
      expect(clauseSql(clause).sql).toMatch(/[=<>]/)
  })

  it('compiles every random tree to SQL PostgreSQL parses (type errors aside)', async () => {
    const outcomes = new Map<string, number>()
    await fc.assert(
      fc.asyncProperty(clauseArbitrary({ maxDepth: 3 }), async (ast) => {
        const query = compileSearch(
          db,
          {
            columns: ['res_id'],
            clause: ast,
            orderBy: [],
            limit: 1,
            offset: 0,
            withFile: false,
            sveStartDate: false,
            fulltextExcerpt: false,
          },
          AGENT,
        ).compile()
        try {
          await pg.query(query.sql, [...query.parameters])
        } catch (error) {
          const code = (error as { code?: string }).code
          // 42601 syntax error, 42703 unknown column, 42P18 untyped parameter: the compiler's fault, never the caller's.
          expect(['42601', '42703', '42P18'], `${code} ${(error as Error).message}: ${query.sql}`).not.toContain(code)
          outcomes.set(code ?? '?', (outcomes.get(code ?? '?') ?? 0) + 1)
          return
        }
        outcomes.set('ok', (outcomes.get('ok') ?? 0) + 1)
      }),
      { numRuns: 200, seed: 4242 },
    )
    expect(outcomes.get('ok')).toBeGreaterThan(10)
  }, 120_000)
})
