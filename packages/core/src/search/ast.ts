/**
 * The typed syntax tree of the search clause language: a small, allow-listed subset of PostgreSQL
 * expressions over the columns of `res_view_letterbox`, plus the perimeter macros of group clauses.
 * The storage compiler turns it into parameterised SQL; no caller text ever reaches SQL.
 */
import type { SubqueryTableName } from './subquery-tables.js'
import type { ViewColumnName } from './view-columns.js'

/** Types a value may be cast to (`x::t` or `CAST(x AS t)`); `int` is read as `integer`. */
export const CAST_TYPES = ['text', 'integer', 'bigint', 'numeric', 'date', 'timestamp', 'boolean'] as const
/** A type a value may be cast to. */
export type CastType = (typeof CAST_TYPES)[number]

/** Types of the `TYPE 'text'` literals. */
export const TYPED_LITERAL_TYPES = ['date', 'timestamp', 'interval'] as const
/** A type of a `TYPE 'text'` literal. */
export type TypedLiteralType = (typeof TYPED_LITERAL_TYPES)[number]

/** Comparison operators; `!=` is read as `<>`. */
export const COMPARISON_OPERATORS = ['=', '<>', '<', '<=', '>', '>='] as const
/** A comparison operator. */
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number]

/** Arithmetic operators. */
export const ARITHMETIC_OPERATORS = ['+', '-', '*', '/', '%'] as const
/** An arithmetic operator. */
export type ArithmeticOperator = (typeof ARITHMETIC_OPERATORS)[number]

/** The functions a clause may call, with the number of arguments each accepts. */
export const SEARCH_FUNCTIONS = {
  lower: { min: 1, max: 1 },
  upper: { min: 1, max: 1 },
  trim: { min: 1, max: 1 },
  coalesce: { min: 1, max: Number.POSITIVE_INFINITY },
  length: { min: 1, max: 1 },
  substring: { min: 2, max: 3 },
  date: { min: 1, max: 1 },
  date_trunc: { min: 2, max: 2 },
  now: { min: 0, max: 0 },
  current_date: { min: 0, max: 0 },
  current_timestamp: { min: 0, max: 0 },
  to_char: { min: 2, max: 2 },
  abs: { min: 1, max: 1 },
  greatest: { min: 1, max: Number.POSITIVE_INFINITY },
  least: { min: 1, max: Number.POSITIVE_INFINITY },
} as const satisfies Record<string, { min: number; max: number }>
/** A function a clause may call. */
export type SearchFunctionName = keyof typeof SEARCH_FUNCTIONS

/** Functions written without parentheses in SQL (`current_date`, not `current_date()`). */
export const BARE_FUNCTIONS: ReadonlySet<SearchFunctionName> = new Set<SearchFunctionName>([
  'current_date',
  'current_timestamp',
])

/** Fields `extract(field from x)` accepts. */
export const EXTRACT_FIELDS = [
  'century',
  'day',
  'decade',
  'dow',
  'doy',
  'epoch',
  'hour',
  'isodow',
  'isoyear',
  'microseconds',
  'millennium',
  'milliseconds',
  'minute',
  'month',
  'quarter',
  'second',
  'timezone',
  'timezone_hour',
  'timezone_minute',
  'week',
  'year',
] as const
/** A field of `extract`. */
export type ExtractField = (typeof EXTRACT_FIELDS)[number]

/**
 * The perimeter macros of group security clauses (reference §7). `args` says whether the macro takes a
 * bracketed argument list; `list` whether it yields a list of values (and may then only be an IN item).
 */
export const MACROS = {
  user_id: { args: false, list: false },
  user: { args: false, list: false },
  email: { args: false, list: false },
  my_primary_entity: { args: false, list: false },
  my_primary_entity_id: { args: false, list: false },
  my_entities: { args: false, list: true },
  my_entities_id: { args: false, list: true },
  all_entities: { args: false, list: true },
  subentities: { args: true, list: true },
  subentities_id: { args: true, list: true },
  immediate_children: { args: true, list: true },
  parent_entity: { args: true, list: true },
  sisters_entities: { args: true, list: true },
  entity_type: { args: true, list: true },
} as const satisfies Record<string, { args: boolean; list: boolean }>
/** The name of a perimeter macro, without its `@`. */
export type MacroName = keyof typeof MACROS

/** A quoted string literal. */
export interface StringLiteral {
  readonly kind: 'string'
  readonly value: string
}
/** A number literal, kept as written (digits, optional fraction and exponent; never negative). */
export interface NumberLiteral {
  readonly kind: 'number'
  readonly value: string
}
/** TRUE or FALSE. */
export interface BooleanLiteral {
  readonly kind: 'boolean'
  readonly value: boolean
}
/** NULL. */
export interface NullLiteral {
  readonly kind: 'null'
}
/** `DATE '…'`, `TIMESTAMP '…'` or `INTERVAL '…'`. */
export interface TypedLiteral {
  readonly kind: 'typed'
  readonly type: TypedLiteralType
  readonly value: string
}
/** A column of the view. */
export interface ColumnRef {
  readonly kind: 'column'
  readonly name: ViewColumnName
}
/** `left AND right` or `left OR right`. */
export interface LogicalExpr {
  readonly kind: 'logical'
  readonly op: 'and' | 'or'
  readonly left: ClauseAst
  readonly right: ClauseAst
}
/** `NOT operand`. */
export interface NotExpr {
  readonly kind: 'not'
  readonly operand: ClauseAst
}
/** `left op right` with a comparison operator. */
export interface ComparisonExpr {
  readonly kind: 'comparison'
  readonly op: ComparisonOperator
  readonly left: ClauseAst
  readonly right: ClauseAst
}
/** `left op right` with an arithmetic operator. */
export interface ArithmeticExpr {
  readonly kind: 'arithmetic'
  readonly op: ArithmeticOperator
  readonly left: ClauseAst
  readonly right: ClauseAst
}
/** `left || right`. */
export interface ConcatExpr {
  readonly kind: 'concat'
  readonly left: ClauseAst
  readonly right: ClauseAst
}
/** `operand -> key` (jsonb) or `operand ->> key` (text); operand is json-typed, key a literal. */
export interface JsonAccessExpr {
  readonly kind: 'json'
  readonly op: '->' | '->>'
  readonly operand: ClauseAst
  readonly key: StringLiteral | NumberLiteral
}
/** Unary minus. */
export interface NegateExpr {
  readonly kind: 'negate'
  readonly operand: ClauseAst
}
/** `operand::type` (also written `CAST(operand AS type)`). */
export interface CastExpr {
  readonly kind: 'cast'
  readonly operand: ClauseAst
  readonly type: CastType
}
/** A call of an allow-listed function. */
export interface CallExpr {
  readonly kind: 'call'
  readonly name: SearchFunctionName
  readonly args: readonly ClauseAst[]
}
/** `extract(field from source)`. */
export interface ExtractExpr {
  readonly kind: 'extract'
  readonly field: ExtractField
  readonly source: ClauseAst
}
/** `operand [NOT] IN (items)`; items is never empty when parsed, but may be after macro expansion. */
export interface InExpr {
  readonly kind: 'in'
  readonly negated: boolean
  readonly operand: ClauseAst
  readonly items: readonly ClauseAst[]
}
/** `operand [NOT] BETWEEN low AND high`. */
export interface BetweenExpr {
  readonly kind: 'between'
  readonly negated: boolean
  readonly operand: ClauseAst
  readonly low: ClauseAst
  readonly high: ClauseAst
}
/** `operand [NOT] LIKE|ILIKE pattern`. */
export interface LikeExpr {
  readonly kind: 'like'
  readonly op: 'like' | 'ilike'
  readonly negated: boolean
  readonly operand: ClauseAst
  readonly pattern: ClauseAst
}
/** `operand IS [NOT] NULL|TRUE|FALSE`. */
export interface IsExpr {
  readonly kind: 'is'
  readonly negated: boolean
  readonly operand: ClauseAst
  readonly test: 'null' | 'true' | 'false'
}
/** The clause functions over the text of the record's files (full-text search, issue 35). */
export const FULLTEXT_FUNCTIONS = { fulltext: 'match', fulltext_rank: 'rank' } as const
/** A full-text function's name. */
export type FullTextFunctionName = keyof typeof FULLTEXT_FUNCTIONS

/**
 * `fulltext('words')`: true when the text of one of the record's files (its document, its attachments)
 * holds the words (web-search syntax: "a phrase", or, -excluded; accents and case ignored, words stemmed);
 * `fulltext_rank('words')`: how well it matches (0 when not), to order by.
 */
export interface FullTextExpr {
  readonly kind: 'fulltext'
  readonly measure: (typeof FULLTEXT_FUNCTIONS)[FullTextFunctionName]
  readonly query: string
}

/** An argument of a bracketed macro: another macro or a literal. */
export type MacroArg = MacroRef | StringLiteral | NumberLiteral
/** A perimeter macro (only in group clauses); `args` is null for the macros without brackets. */
export interface MacroRef {
  readonly kind: 'macro'
  readonly name: MacroName
  readonly args: readonly MacroArg[] | null
}

/** A column of the table a sub-select reads (in its condition only; the view's columns stay `column`). */
export interface TableColumnRef {
  readonly kind: 'table-column'
  readonly name: string
}

/** One ordering of a sub-select: a column of its table and a direction. */
export interface SubSelectOrder {
  readonly column: string
  readonly direction: 'asc' | 'desc'
}

/**
 * `select [distinct] columns from table [where condition] [group by columns] [order by …] [limit n]`, over an
 * allow-listed table (subquery-tables.ts). In its condition a bare name is a column of that table and
 * `res_view_letterbox.name` the record's (the sub-select is correlated with it).
 */
export interface SubSelect {
  readonly kind: 'select'
  readonly table: SubqueryTableName
  readonly distinct: boolean
  readonly columns: readonly string[]
  readonly where: ClauseAst | null
  readonly groupBy: readonly string[]
  readonly orderBy: readonly SubSelectOrder[]
  /** Digits, or null. */
  readonly limit: string | null
}

/** `operand [NOT] IN (select …)`, or `(a, b) [NOT] IN (select x, y …)`: as many operands as selected columns. */
export interface InSelectExpr {
  readonly kind: 'in-select'
  readonly negated: boolean
  readonly operands: readonly ClauseAst[]
  readonly select: SubSelect
}

/** Any node of a clause. */
export type ClauseAst =
  | StringLiteral
  | NumberLiteral
  | BooleanLiteral
  | NullLiteral
  | TypedLiteral
  | ColumnRef
  | LogicalExpr
  | NotExpr
  | ComparisonExpr
  | ArithmeticExpr
  | ConcatExpr
  | JsonAccessExpr
  | NegateExpr
  | CastExpr
  | CallExpr
  | ExtractExpr
  | InExpr
  | BetweenExpr
  | LikeExpr
  | IsExpr
  | FullTextExpr
  | MacroRef
  | TableColumnRef
  | InSelectExpr

/** One ordering of `orderBy`: an expression, a direction and where NULLs go (null = PostgreSQL's default). */
export interface OrderItem {
  readonly expr: ClauseAst
  readonly direction: 'asc' | 'desc'
  readonly nulls: 'first' | 'last' | null
}

/**
 * The words of every `fulltext(...)` condition of a clause, in order (they choose the excerpt's highlights);
 * with `measures: 'all'`, those of `fulltext_rank(...)` too.
 */
export function fullTextQueries(ast: ClauseAst, measures: 'match' | 'all' = 'match'): string[] {
  const found: string[] = []
  const visit = (node: ClauseAst): void => {
    switch (node.kind) {
      case 'fulltext':
        if (node.measure === 'match' || measures === 'all') found.push(node.query)
        return
      case 'logical':
      case 'comparison':
      case 'arithmetic':
      case 'concat':
        visit(node.left)
        visit(node.right)
        return
      case 'not':
      case 'negate':
      case 'cast':
      case 'is':
      case 'json':
        visit(node.operand)
        return
      case 'call':
        node.args.forEach(visit)
        return
      case 'extract':
        visit(node.source)
        return
      case 'in':
        visit(node.operand)
        node.items.forEach(visit)
        return
      case 'between':
        visit(node.operand)
        visit(node.low)
        visit(node.high)
        return
      case 'like':
        visit(node.operand)
        visit(node.pattern)
        return
      case 'in-select':
        node.operands.forEach(visit)
        if (node.select.where) visit(node.select.where)
        return
      default:
        return
    }
  }
  visit(ast)
  return found
}

/** True when `ast` still holds a perimeter macro somewhere. */
export function containsMacro(ast: ClauseAst): boolean {
  switch (ast.kind) {
    case 'macro':
      return true
    case 'logical':
    case 'comparison':
    case 'arithmetic':
    case 'concat':
      return containsMacro(ast.left) || containsMacro(ast.right)
    case 'not':
    case 'negate':
    case 'cast':
    case 'is':
    case 'json':
      return containsMacro(ast.operand)
    case 'call':
      return ast.args.some(containsMacro)
    case 'extract':
      return containsMacro(ast.source)
    case 'in':
      return containsMacro(ast.operand) || ast.items.some(containsMacro)
    case 'between':
      return containsMacro(ast.operand) || containsMacro(ast.low) || containsMacro(ast.high)
    case 'like':
      return containsMacro(ast.operand) || containsMacro(ast.pattern)
    case 'in-select':
      return ast.operands.some(containsMacro) || (ast.select.where !== null && containsMacro(ast.select.where))
    default:
      return false
  }
}
