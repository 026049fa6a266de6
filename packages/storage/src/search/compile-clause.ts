/**
 * Compiles search trees of @mailroom/core to parameterised PostgreSQL through kysely.
 * Identifiers come from the view catalogue (via sql.id / dynamic refs), keywords, operators, function
 * and type names from the constant fragments below, and every literal is a bound parameter:
 * no caller text ever becomes SQL text. Every compound node is parenthesised, so precedence cannot leak.
 */
import {
  type ArithmeticOperator,
  type CastType,
  type ClauseAst,
  type ComparisonOperator,
  type ExtractField,
  type FullTextLanguage,
  fail,
  type IsExpr,
  type NumberLiteral,
  type OrderItem,
  type SearchFunctionName,
  type SearchQuery,
  type SubSelect,
  type TypedLiteralType,
  type ViewColumnName,
} from '@mailroom/core'
import { fullTextQueries, SEARCH_VIEW_NAME } from '@mailroom/core/internal'
import {
  type Expression,
  type Kysely,
  type OrderByItemBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely'
import {
  indexedJsonKey,
  isColumnMembership,
  isRecordMembership,
  isServedByRecordIndexes,
} from './indexed-alternatives.js'
import { mayFailOnRow } from './row-failures.js'

type Fragment = RawBuilder<unknown>

const COMPARISON: Readonly<Record<ComparisonOperator, Fragment>> = {
  '=': sql`=`,
  '<>': sql`<>`,
  '<': sql`<`,
  '<=': sql`<=`,
  '>': sql`>`,
  '>=': sql`>=`,
}

const ARITHMETIC: Readonly<Record<ArithmeticOperator, Fragment>> = {
  '+': sql`+`,
  '-': sql`-`,
  '*': sql`*`,
  '/': sql`/`,
  '%': sql`%`,
}

const TYPES: Readonly<Record<CastType | TypedLiteralType, Fragment>> = {
  text: sql`text`,
  integer: sql`integer`,
  bigint: sql`bigint`,
  numeric: sql`numeric`,
  date: sql`date`,
  timestamp: sql`timestamp`,
  boolean: sql`boolean`,
  interval: sql`interval`,
}

const FUNCTIONS: Readonly<Record<SearchFunctionName, Fragment>> = {
  lower: sql`lower`,
  upper: sql`upper`,
  trim: sql`trim`,
  coalesce: sql`coalesce`,
  length: sql`length`,
  substring: sql`substring`,
  date: sql`date`,
  date_trunc: sql`date_trunc`,
  now: sql`now`,
  current_date: sql`current_date`,
  current_timestamp: sql`current_timestamp`,
  to_char: sql`to_char`,
  abs: sql`abs`,
  greatest: sql`greatest`,
  least: sql`least`,
}

const EXTRACT_FIELDS: Readonly<Record<ExtractField, Fragment>> = {
  century: sql`century`,
  day: sql`day`,
  decade: sql`decade`,
  dow: sql`dow`,
  doy: sql`doy`,
  epoch: sql`epoch`,
  hour: sql`hour`,
  isodow: sql`isodow`,
  isoyear: sql`isoyear`,
  microseconds: sql`microseconds`,
  millennium: sql`millennium`,
  milliseconds: sql`milliseconds`,
  minute: sql`minute`,
  month: sql`month`,
  quarter: sql`quarter`,
  second: sql`second`,
  timezone: sql`timezone`,
  timezone_hour: sql`timezone_hour`,
  timezone_minute: sql`timezone_minute`,
  week: sql`week`,
  year: sql`year`,
}

const KEYWORD = {
  true: sql`true`,
  false: sql`false`,
  null: sql`null`,
  and: sql`and`,
  or: sql`or`,
  not: sql`not`,
  in: sql`in`,
  notIn: sql`not in`,
  between: sql`between`,
  notBetween: sql`not between`,
  like: sql`like`,
  notLike: sql`not like`,
  ilike: sql`ilike`,
  notIlike: sql`not ilike`,
  is: sql`is`,
  isNot: sql`is not`,
  concat: sql`||`,
  arrow: sql`->`,
  arrowText: sql`->>`,
} as const

const INT4_MAX = 2147483647n
const INT8_MAX = 9223372036854775807n

/**
 * A number literal as a parameter typed the way PostgreSQL types the same literal written inline
 * (integer, then bigint, then numeric), so arithmetic and comparisons resolve exactly as in plain SQL.
 */
function numberParameter(literal: NumberLiteral): Fragment {
  const n = wholeNumberOf(literal)
  const type: CastType = n === null ? 'numeric' : n <= INT4_MAX ? 'integer' : n <= INT8_MAX ? 'bigint' : 'numeric'
  return sql`${sql.val(literal.value)}::${TYPES[type]}`
}

/** The exact value of a whole-number literal (digits only), else null. */
function wholeNumberOf(node: ClauseAst): bigint | null {
  return node.kind === 'number' && /^[0-9]+$/.test(node.value) ? BigInt(node.value) : null
}

/**
 * The value of a comparison of two whole-number literals (`1=1`, the perimeter of groups that see everything),
 * else null. Written as parameters, `$1::integer = $2::integer` is a condition PostgreSQL can only fold while
 * planning for those values: a kept (generic) plan then carries the perimeter's other branches and reads the
 * table. The value is computed here exactly (BigInt), as PostgreSQL computes it; no caller text reaches the SQL.
 */
function comparedIntegers(op: ComparisonOperator, left: ClauseAst, right: ClauseAst): boolean | null {
  const a = wholeNumberOf(left)
  const b = wholeNumberOf(right)
  if (a === null || b === null) return null
  switch (op) {
    case '=':
      return a === b
    case '<>':
      return a !== b
    case '<':
      return a < b
    case '<=':
      return a <= b
    case '>':
      return a > b
    case '>=':
      return a >= b
  }
}

function parenthesised(fragment: Fragment): Fragment {
  return sql`(${fragment})`
}

/**
 * Where a node is compiled: in a sub-select's condition its table is `sub` and the record's columns are named
 * through the view (`res_view_letterbox.res_id`), which every query the clause is compiled into reads unaliased.
 * `perimeter-index`: a perimeter written for a search narrowed by its words (perimeter-guard.ts, `PerimeterShape`),
 * where a record's membership of a sub-select's rows is written as an array read once.
 * `basket`: a basket's selection (its count, its list, the letters an action takes), where an OR that indexes can
 * serve alternative by alternative (`isServedByRecordIndexes`) is compiled in `basket-index`, its memberships
 * written as arrays an index reads (`col = any(array(…))`): `res_id in (select …) or res_id in (select …)` is then
 * two scans of the primary key rather than a test of every record against two hashed sets.
 */
type Scope = 'clause' | 'subquery' | 'perimeter-index' | 'basket' | 'basket-index'

/** The alias of a sub-select's table (a constant: a sub-select never holds another). */
const SUBQUERY_ALIAS = 'sub'

/** Compiles an operand, giving a bare string literal the type text where nothing else would type it. */
function compileTyped(node: ClauseAst, fullText: FullTextSql, scope: Scope = 'clause'): Fragment {
  return node.kind === 'string' ? sql`${sql.val(node.value)}::${TYPES.text}` : compileNode(node, fullText, scope)
}

/**
 * `select … from table as sub [where …] [group by …] [order by …] [limit n]`: the table and column names are the
 * allow-list's (subquery-tables.ts), the limit a bound parameter. A condition that could raise an error on a row
 * is refused: the sub-select reads rows of records outside the caller's perimeter (as a hashed set, before any of
 * the clause's rows is tested), and an error there would tell the caller that such a row exists.
 */
function compileSubSelect(select: SubSelect, fullText: FullTextSql): Fragment {
  if (select.where !== null && mayFailOnRow(select.where))
    fail('SEARCH_CLAUSE_SYNTAX', { problem: 'subquery-may-fail' })
  const column = (name: string) => sql.id(SUBQUERY_ALIAS, name)
  const parts: Fragment[] = [
    sql`select ${select.distinct ? sql`distinct ` : sql``}${sql.join(select.columns.map(column))} from ${sql.id(select.table)} as ${sql.id(SUBQUERY_ALIAS)}`,
  ]
  if (select.where !== null) parts.push(sql`where ${compileNode(select.where, fullText, 'subquery')}`)
  if (select.groupBy.length > 0) parts.push(sql`group by ${sql.join(select.groupBy.map(column))}`)
  if (select.orderBy.length > 0)
    parts.push(
      sql`order by ${sql.join(select.orderBy.map((o) => sql`${column(o.column)} ${o.direction === 'desc' ? sql`desc` : sql`asc`}`))}`,
    )
  if (select.limit !== null) parts.push(sql`limit ${sql.val(select.limit)}::${TYPES.bigint}`)
  return sql.join(parts, sql` `)
}

/**
 * The text search configuration of an installation's index (migration 0016: accents folded, then stemmed);
 * the full-text conditions use the one the index was built with.
 */
export type FullTextConfig = 'mailroom_fr' | 'mailroom_en'
export const DEFAULT_FULLTEXT_CONFIG: FullTextConfig = 'mailroom_fr'

/** The configuration of a language setting. */
export function fullTextConfigOf(language: FullTextLanguage): FullTextConfig {
  return language === 'en' ? 'mailroom_en' : 'mailroom_fr'
}

/** The caller's words as a tsquery (web-search syntax, never an error on odd input), a bound parameter. */
export function fullTextQuery(words: string, language: FullTextConfig): Fragment {
  return sql`websearch_to_tsquery(${sql.val(language)}::regconfig, ${sql.val(words)}::text)`
}

/**
 * How the full-text conditions of a clause become SQL: over the database's own index (databaseFullText), or
 * over the candidates an external index proposed (candidateFullText, full-text-candidates.ts). `match`,
 * `rank` and `excerpt` are correlated with the searched view's row; `filter` is the condition a search ANDs
 * at its top (the clause's top level, a criterion of POST /rest/search), written for the planner to start from.
 */
export interface FullTextSql {
  match(words: string): Fragment
  rank(words: string): Fragment
  excerpt(words: readonly string[]): RawBuilder<string | null>
  filter(words: string): Fragment
}

/** How `ts_headline` writes an excerpt: the words between `**`, two fragments of 12 to 35 words. */
const HEADLINE_OPTIONS = 'StartSel=**, StopSel=**, MaxWords=35, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'

/**
 * The excerpt of the kept text `ft` (a row of `fulltext_texts` under that name) for `query`. A long text is
 * written from its passage that matches best (migration 0022: `ts_headline` parses all the text it is given, 18–21
 * ms for 210 KB against about 1 ms for a passage), the first one on a tie; a text without passages, whole.
 */
export function fullTextExcerpt(language: FullTextConfig, query: Fragment): RawBuilder<string | null> {
  const headline = (content: Fragment) =>
    sql`ts_headline(${sql.val(language)}::regconfig, ${content}, ${query}, ${sql.val(HEADLINE_OPTIONS)}::text)`
  return sql<string | null>`coalesce((select ${headline(sql`p.content`)} from fulltext_passages as p
      where p.file_kind = ft.file_kind and p.file_id = ft.file_id
      order by p.document @@ ${query} desc, ts_rank(p.document, ${query}) desc, p.seq limit 1),
    ${headline(sql`ft.content`)})`
}

/**
 * The full-text conditions over the record's own words, `res_letterbox.fulltext_document` (every kept text of
 * the record, its attachments' included, under a GIN index: migration 0019), which the view carries: a match is
 * a condition on the record's row, so PostgreSQL can AND the words' index with the perimeter's indexes and read
 * only the records the caller may see. The excerpt reads the texts themselves (`fulltext_texts`), for the
 * page's rows only.
 */
export function databaseFullText(language: FullTextConfig = DEFAULT_FULLTEXT_CONFIG): FullTextSql {
  const viewResId = sql.id(SEARCH_VIEW_NAME, 'res_id')
  const document = sql.id(SEARCH_VIEW_NAME, 'fulltext_document')
  const match = (words: string) => sql`(${document} @@ ${fullTextQuery(words, language)})`
  return {
    match,
    // How well the record's words match (cover density), 0 when they do not or the record has no text.
    rank: (words) => sql`coalesce(ts_rank_cd(${document}, ${fullTextQuery(words, language)}), ${sql.val(0)})`,
    // The best-matching file's text, highlighted.
    excerpt(words) {
      if (words.length === 0) return sql<null>`null::text`
      const query = sql.join(
        words.map((w) => fullTextQuery(w, language)),
        sql` || `,
      )
      return sql<
        string | null
      >`(select ${fullTextExcerpt(language, sql`q.query`)} from fulltext_texts as ft, (select ${query} as query) as q where ft.res_id = ${viewResId} and ft.document @@ q.query order by ts_rank_cd(ft.document, q.query) desc limit 1)`
    },
    filter: match,
  }
}

const DEFAULT_FULLTEXT_SQL = databaseFullText()

/**
 * Compiles a clause tree (macros already expanded) to a kysely SQL fragment. String literals are untyped
 * parameters so PostgreSQL infers their type from the other operand (a timestamp column takes a date string).
 * An empty IN list compiles to FALSE, an empty NOT IN list to TRUE.
 */
export function compileClause(node: ClauseAst, fullText: FullTextSql = DEFAULT_FULLTEXT_SQL): RawBuilder<unknown> {
  return compileNode(node, fullText, 'clause')
}

/**
 * A perimeter's clause (groups', baskets'): as compileClause, or with `index` for a search narrowed by its words,
 * the sub-selects that are a set of records (`isRecordMembership`) written `res_id = any(array(…))`, so that
 * PostgreSQL can OR them by primary key beside the words index's scans.
 */
export function compilePerimeterClause(node: ClauseAst, shape: 'filter' | 'index'): RawBuilder<unknown> {
  return compileNode(node, DEFAULT_FULLTEXT_SQL, shape === 'index' ? 'perimeter-index' : 'clause')
}

/**
 * A basket's clause (macros expanded for its owner), as compileClause, its ORs that indexes serve alternative by
 * alternative written for them (`basket` scope): the same records, read through the indexes.
 */
export function compileBasketClause(node: ClauseAst): RawBuilder<unknown> {
  return compileNode(node, DEFAULT_FULLTEXT_SQL, 'basket')
}

/** The scope of an OR's alternatives: in a basket, `basket-index` when indexes serve each of them. */
function alternativesScope(node: ClauseAst, scope: Scope): Scope {
  if (scope === 'basket' || scope === 'basket-index') return isServedByRecordIndexes(node) ? 'basket-index' : 'clause'
  return scope
}

/**
 * `(column ? 'key' and <test>)` for `<test>` = `column ->> 'key' is not null` (or `->`) on a JSON column under a GIN
 * index: the test implies the key, so the guard changes no result, and the index finds the few records holding the
 * key where the test alone reads every record (`custom_fields->>'1' is not null`, a sample basket's).
 */
function withJsonKeyGuard(node: IsExpr, test: Fragment, compile: (child: ClauseAst) => Fragment): Fragment {
  if (!node.negated || node.test !== 'null' || node.operand.kind !== 'json') return test
  const indexed = indexedJsonKey(node.operand)
  if (indexed === null) return test
  const column = compile(node.operand.operand)
  return parenthesised(sql`${column} ? ${sql.val(indexed.key)}::${TYPES.text} ${KEYWORD.and} ${test}`)
}

function compileNode(node: ClauseAst, fullText: FullTextSql, scope: Scope): RawBuilder<unknown> {
  const compile = (child: ClauseAst) => compileNode(child, fullText, scope)
  switch (node.kind) {
    case 'string':
      return sql.val(node.value)
    case 'number':
      return numberParameter(node)
    case 'boolean':
      return node.value ? KEYWORD.true : KEYWORD.false
    case 'null':
      return KEYWORD.null
    case 'typed':
      return sql`${sql.val(node.value)}::${TYPES[node.type]}`
    case 'column':
      return scope === 'subquery' ? sql.id(SEARCH_VIEW_NAME, node.name) : sql.id(node.name)
    case 'table-column':
      return sql.id(SUBQUERY_ALIAS, node.name)
    case 'in-select': {
      if (scope === 'perimeter-index' && isRecordMembership(node))
        return parenthesised(sql`${sql.id('res_id')} = any(array(${compileSubSelect(node.select, fullText)}))`)
      if (scope === 'basket-index' && isColumnMembership(node))
        return parenthesised(
          sql`${compile(node.operands[0] as ClauseAst)} = any(array(${compileSubSelect(node.select, fullText)}))`,
        )
      const operands = node.operands.map(compile)
      const left = operands.length === 1 ? (operands[0] as Fragment) : sql`(${sql.join(operands)})`
      return parenthesised(
        sql`${left} ${node.negated ? KEYWORD.notIn : KEYWORD.in} (${compileSubSelect(node.select, fullText)})`,
      )
    }
    case 'logical': {
      const inner = node.op === 'or' ? alternativesScope(node, scope) : scope
      const side = (child: ClauseAst) => compileNode(child, fullText, inner)
      return parenthesised(sql`${side(node.left)} ${KEYWORD[node.op]} ${side(node.right)}`)
    }
    case 'not': {
      // Under NOT a membership is tested on each record read: it keeps its hashed form.
      const inner = scope === 'basket' || scope === 'basket-index' ? 'clause' : scope
      return parenthesised(sql`${KEYWORD.not} ${compileNode(node.operand, fullText, inner)}`)
    }
    case 'comparison': {
      const folded = comparedIntegers(node.op, node.left, node.right)
      if (folded !== null) return folded ? KEYWORD.true : KEYWORD.false
      return parenthesised(sql`${compile(node.left)} ${COMPARISON[node.op]} ${compile(node.right)}`)
    }
    case 'arithmetic':
      return parenthesised(sql`${compile(node.left)} ${ARITHMETIC[node.op]} ${compile(node.right)}`)
    case 'concat':
      return parenthesised(sql`${compile(node.left)} ${KEYWORD.concat} ${compile(node.right)}`)
    case 'json': {
      const key =
        node.key.kind === 'string'
          ? sql`${sql.val(node.key.value)}::${TYPES.text}`
          : sql`${sql.val(node.key.value)}::${TYPES.integer}`
      return parenthesised(sql`${compile(node.operand)} ${node.op === '->' ? KEYWORD.arrow : KEYWORD.arrowText} ${key}`)
    }
    case 'negate':
      // The operand is a parameter, an identifier or parenthesised: never a second `-` that would form `--`.
      return parenthesised(sql`-${compile(node.operand)}`)
    case 'cast':
      return parenthesised(sql`${compile(node.operand)}::${TYPES[node.type]}`)
    case 'call':
      if (node.name === 'current_date' || node.name === 'current_timestamp') return FUNCTIONS[node.name]
      return sql`${FUNCTIONS[node.name]}(${sql.join(node.args.map(compile))})`
    case 'extract':
      return sql`extract(${EXTRACT_FIELDS[node.field]} from ${compile(node.source)})`
    case 'in':
      if (node.items.length === 0) return node.negated ? KEYWORD.true : KEYWORD.false
      return parenthesised(
        sql`${compile(node.operand)} ${node.negated ? KEYWORD.notIn : KEYWORD.in} (${sql.join(node.items.map(compile))})`,
      )
    case 'between':
      return parenthesised(
        sql`${compile(node.operand)} ${node.negated ? KEYWORD.notBetween : KEYWORD.between} ${compile(node.low)} ${KEYWORD.and} ${compile(node.high)}`,
      )
    case 'like': {
      const op =
        node.op === 'like'
          ? node.negated
            ? KEYWORD.notLike
            : KEYWORD.like
          : node.negated
            ? KEYWORD.notIlike
            : KEYWORD.ilike
      return parenthesised(sql`${compile(node.operand)} ${op} ${compile(node.pattern)}`)
    }
    case 'is':
      return withJsonKeyGuard(
        node,
        parenthesised(
          sql`${compileTyped(node.operand, fullText, scope)} ${node.negated ? KEYWORD.isNot : KEYWORD.is} ${KEYWORD[node.test]}`,
        ),
        compile,
      )
    case 'fulltext':
      return node.measure === 'match' ? fullText.match(node.query) : fullText.rank(node.query)
    case 'macro':
      return fail('SEARCH_MACRO_NOT_EXPANDED')
  }
}

/** The result column of the excerpt (SearchQuery.fulltextExcerpt). */
export const FULLTEXT_EXCERPT_COLUMN = 'fulltext_excerpt'

/** The view as kysely sees it for searches: every catalogue column, values of any type. */
export interface SearchViewDatabase {
  res_view_letterbox: Record<ViewColumnName, unknown>
}

/** One result row of a search: the requested columns. */
export type SearchRow = Record<string, unknown>

/**
 * The user's perimeter: a group-clause tree (macros expanded), a kysely condition built elsewhere
 * (e.g. diffusion-list sub-queries), or null for a root user who sees every record.
 */
export type SearchPerimeter = ClauseAst | Expression<SqlBool> | null

function isClauseAst(perimeter: ClauseAst | Expression<SqlBool>): perimeter is ClauseAst {
  return 'kind' in perimeter && typeof perimeter.kind === 'string'
}

function orderModifiers(item: OrderItem): (builder: OrderByItemBuilder) => OrderByItemBuilder {
  return (builder) => {
    const directed = item.direction === 'desc' ? builder.desc() : builder.asc()
    if (item.nulls === 'first') return directed.nullsFirst()
    if (item.nulls === 'last') return directed.nullsLast()
    return directed
  }
}

/** The conditions that must hold for the whole clause to hold: the operands of its top-level ANDs. */
export function conjuncts(node: ClauseAst): ClauseAst[] {
  return node.kind === 'logical' && node.op === 'and' ? [...conjuncts(node.left), ...conjuncts(node.right)] : [node]
}

/** True when a full-text match is ANDed at the top of the clause: every record it finds holds the words. */
export function isNarrowedByWords(clause: ClauseAst): boolean {
  return conjuncts(clause).some((node) => node.kind === 'fulltext' && node.measure === 'match')
}

/**
 * The clause, its full-text conditions ANDed at the top written in their `filter` form (for the database's
 * index the same condition on the record's words; for an external index's candidates an array of records read
 * by primary key). Elsewhere (under OR, NOT) a condition keeps its `match` form.
 */
function compileTopLevel(node: ClauseAst, fullText: FullTextSql): Fragment {
  if (node.kind === 'logical' && node.op === 'and')
    return parenthesised(
      sql`${compileTopLevel(node.left, fullText)} ${KEYWORD.and} ${compileTopLevel(node.right, fullText)}`,
    )
  if (node.kind === 'fulltext' && node.measure === 'match') return fullText.filter(node.query)
  return compileClause(node, fullText)
}

/**
 * `(perimeter) AND (clause)`, the clause's conditions that may raise an error on a record's values (`mayFailOnRow`)
 * evaluated only on the records of the perimeter: PostgreSQL orders a WHERE's conditions as it likes, and a
 * `1/(res_id - 42)` tried on a record outside the perimeter would answer 400 where the caller may not learn that
 * the record exists. A CASE evaluates its THEN for the rows its WHEN lets through only, so those conditions sit in
 * one, after the perimeter; the others stay where the planner can take them to an index (the words, a chrono).
 */
function withinPerimeter(
  clause: ClauseAst,
  perimeter: ClauseAst | Expression<SqlBool>,
  fullText: FullTextSql,
): RawBuilder<SqlBool> {
  const restriction = isClauseAst(perimeter) ? compileClause(perimeter, fullText) : perimeter
  const parts = conjuncts(clause)
  const failing = parts.filter(mayFailOnRow)
  if (failing.length === 0) return sql<SqlBool>`(${restriction}) ${KEYWORD.and} (${compileTopLevel(clause, fullText)})`
  const safe = parts.filter((part) => !mayFailOnRow(part)).map((part) => compileTopLevel(part, fullText))
  const guarded = sql.join(
    failing.map((part) => compileClause(part, fullText)),
    sql` ${KEYWORD.and} `,
  )
  return sql<SqlBool>`(${restriction})${sql.join(
    safe.map((part) => sql` ${KEYWORD.and} ${part}`),
    sql``,
  )} ${KEYWORD.and} (case when (${restriction}) then (${guarded}) else false end)`
}

/**
 * The select on `res_view_letterbox` of a checked search: `WHERE (perimeter) AND (clause)`, the requested
 * columns (plus res_id when files are wanted), the orderings then res_id as a tiebreaker, limit and offset.
 * A search for words without an ordering of its own gives the best matches first.
 */
export function compileSearch(
  db: Kysely<any>,
  query: SearchQuery,
  perimeter: SearchPerimeter,
  fullText: FullTextSql = DEFAULT_FULLTEXT_SQL,
): SelectQueryBuilder<SearchViewDatabase, typeof SEARCH_VIEW_NAME, SearchRow> {
  const view = db as Kysely<SearchViewDatabase>
  const where =
    perimeter === null
      ? sql<SqlBool>`(${compileTopLevel(query.clause, fullText)})`
      : withinPerimeter(query.clause, perimeter, fullText)
  const columns =
    query.withFile && !query.columns.includes('res_id') ? [...query.columns, 'res_id' as const] : query.columns
  let builder = view
    .selectFrom(SEARCH_VIEW_NAME)
    .select(columns.map((column) => view.dynamic.ref<ViewColumnName>(column)))
    .where(where) as unknown as SelectQueryBuilder<SearchViewDatabase, typeof SEARCH_VIEW_NAME, SearchRow>
  const words = fullTextQueries(query.clause)
  // The excerpts are sub-queries of the select list: PostgreSQL computes them after the limit, for the page only.
  if (query.fulltextExcerpt) builder = builder.select(fullText.excerpt(words).as(FULLTEXT_EXCERPT_COLUMN))
  for (const item of query.orderBy)
    builder = builder.orderBy(parenthesised(compileTyped(item.expr, fullText)), orderModifiers(item))
  // A full-text search without an ordering of its own gives the best matches first.
  if (query.orderBy.length === 0 && words.length > 0)
    builder = builder.orderBy(fullText.rank(words.join(' or ')), (order) => order.desc())
  const ordersByResId = query.orderBy.some((item) => item.expr.kind === 'column' && item.expr.name === 'res_id')
  if (!ordersByResId) builder = builder.orderBy(sql.id('res_id'))
  return builder.limit(query.limit).offset(query.offset)
}
