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
  fail,
  type NumberLiteral,
  type OrderItem,
  type SearchFunctionName,
  type SearchQuery,
  type TypedLiteralType,
  type ViewColumnName,
} from '@mailroom/core'
import { SEARCH_VIEW_NAME } from '@mailroom/core/internal'
import {
  type Expression,
  type Kysely,
  type OrderByItemBuilder,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely'

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
  let type: CastType = 'numeric'
  if (/^[0-9]+$/.test(literal.value)) {
    const n = BigInt(literal.value)
    type = n <= INT4_MAX ? 'integer' : n <= INT8_MAX ? 'bigint' : 'numeric'
  }
  return sql`${sql.val(literal.value)}::${TYPES[type]}`
}

function parenthesised(fragment: Fragment): Fragment {
  return sql`(${fragment})`
}

/** Compiles an operand, giving a bare string literal the type text where nothing else would type it. */
function compileTyped(node: ClauseAst): Fragment {
  return node.kind === 'string' ? sql`${sql.val(node.value)}::${TYPES.text}` : compileClause(node)
}

/**
 * Compiles a clause tree (macros already expanded) to a kysely SQL fragment. String literals are untyped
 * parameters so PostgreSQL infers their type from the other operand (a timestamp column takes a date string).
 * An empty IN list compiles to FALSE, an empty NOT IN list to TRUE.
 */
export function compileClause(node: ClauseAst): RawBuilder<unknown> {
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
      return sql.id(node.name)
    case 'logical':
      return parenthesised(sql`${compileClause(node.left)} ${KEYWORD[node.op]} ${compileClause(node.right)}`)
    case 'not':
      return parenthesised(sql`${KEYWORD.not} ${compileClause(node.operand)}`)
    case 'comparison':
      return parenthesised(sql`${compileClause(node.left)} ${COMPARISON[node.op]} ${compileClause(node.right)}`)
    case 'arithmetic':
      return parenthesised(sql`${compileClause(node.left)} ${ARITHMETIC[node.op]} ${compileClause(node.right)}`)
    case 'concat':
      return parenthesised(sql`${compileClause(node.left)} ${KEYWORD.concat} ${compileClause(node.right)}`)
    case 'json': {
      const key =
        node.key.kind === 'string'
          ? sql`${sql.val(node.key.value)}::${TYPES.text}`
          : sql`${sql.val(node.key.value)}::${TYPES.integer}`
      return parenthesised(
        sql`${compileClause(node.operand)} ${node.op === '->' ? KEYWORD.arrow : KEYWORD.arrowText} ${key}`,
      )
    }
    case 'negate':
      // The operand is a parameter, an identifier or parenthesised: never a second `-` that would form `--`.
      return parenthesised(sql`-${compileClause(node.operand)}`)
    case 'cast':
      return parenthesised(sql`${compileClause(node.operand)}::${TYPES[node.type]}`)
    case 'call':
      if (node.name === 'current_date' || node.name === 'current_timestamp') return FUNCTIONS[node.name]
      return sql`${FUNCTIONS[node.name]}(${sql.join(node.args.map(compileClause))})`
    case 'extract':
      return sql`extract(${EXTRACT_FIELDS[node.field]} from ${compileClause(node.source)})`
    case 'in':
      if (node.items.length === 0) return node.negated ? KEYWORD.true : KEYWORD.false
      return parenthesised(
        sql`${compileClause(node.operand)} ${node.negated ? KEYWORD.notIn : KEYWORD.in} (${sql.join(node.items.map(compileClause))})`,
      )
    case 'between':
      return parenthesised(
        sql`${compileClause(node.operand)} ${node.negated ? KEYWORD.notBetween : KEYWORD.between} ${compileClause(node.low)} ${KEYWORD.and} ${compileClause(node.high)}`,
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
      return parenthesised(sql`${compileClause(node.operand)} ${op} ${compileClause(node.pattern)}`)
    }
    case 'is':
      return parenthesised(
        sql`${compileTyped(node.operand)} ${node.negated ? KEYWORD.isNot : KEYWORD.is} ${KEYWORD[node.test]}`,
      )
    case 'macro':
      return fail('SEARCH_MACRO_NOT_EXPANDED')
  }
}

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

/**
 * The select on `res_view_letterbox` of a checked search: `WHERE (perimeter) AND (clause)`, the requested
 * columns (plus res_id when files are wanted), the orderings then res_id as a tiebreaker, limit and offset.
 */
export function compileSearch(
  db: Kysely<any>,
  query: SearchQuery,
  perimeter: SearchPerimeter,
): SelectQueryBuilder<SearchViewDatabase, typeof SEARCH_VIEW_NAME, SearchRow> {
  const view = db as Kysely<SearchViewDatabase>
  const clause = compileClause(query.clause)
  const where =
    perimeter === null
      ? sql<SqlBool>`(${clause})`
      : sql<SqlBool>`(${isClauseAst(perimeter) ? compileClause(perimeter) : perimeter}) ${KEYWORD.and} (${clause})`
  const columns =
    query.withFile && !query.columns.includes('res_id') ? [...query.columns, 'res_id' as const] : query.columns
  let builder = view
    .selectFrom(SEARCH_VIEW_NAME)
    .select(columns.map((column) => view.dynamic.ref<ViewColumnName>(column)))
    .where(where) as unknown as SelectQueryBuilder<SearchViewDatabase, typeof SEARCH_VIEW_NAME, SearchRow>
  for (const item of query.orderBy)
    builder = builder.orderBy(parenthesised(compileTyped(item.expr)), orderModifiers(item))
  const ordersByResId = query.orderBy.some((item) => item.expr.kind === 'column' && item.expr.name === 'res_id')
  if (!ordersByResId) builder = builder.orderBy(sql.id('res_id'))
  return builder.limit(query.limit).offset(query.offset)
}
