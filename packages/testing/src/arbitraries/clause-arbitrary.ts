/**
 * fast-check arbitraries of well-formed clause trees: every tree they build is one the parser can produce,
 * so print → parse must give it back. Core's and storage's tests reach this file by relative path (they
 * cannot depend on this package); the others import it from `@mailroom/testing`.
 */
import type {
  ClauseAst,
  MacroArg,
  MacroName,
  MacroRef,
  SearchFunctionName,
  SubqueryTableName,
  SubSelect,
} from '@mailroom/core'
import { SUBQUERY_TABLES, VIEW_COLUMN_NAMES, VIEW_COLUMNS } from '@mailroom/core'
import fc from 'fast-check'
import {
  ARITHMETIC_OPERATORS,
  CAST_TYPES,
  COMPARISON_OPERATORS,
  EXTRACT_FIELDS,
  MACROS,
  SEARCH_FUNCTIONS,
  TYPED_LITERAL_TYPES,
} from '../test-core-internals.js'

/** Text a string literal may hold: any Unicode but NUL. */
export const literalTextArbitrary: fc.Arbitrary<string> = fc
  .string({ unit: 'grapheme', maxLength: 12 })
  .map((s) => s.replaceAll('\0', ''))

const numberText: fc.Arbitrary<string> = fc.oneof(
  fc.nat().map(String),
  fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String),
  fc.tuple(fc.nat(999), fc.nat(999)).map(([a, b]) => `${a}.${b}`),
  fc.nat(999).map((b) => `.${b}`),
  fc.nat(99).map((a) => `${a}.`),
  fc.tuple(fc.nat(99), fc.constantFrom('e', 'E', 'e+', 'e-'), fc.nat(20)).map(([a, e, b]) => `${a}${e}${b}`),
)

const FUNCTION_NAMES = Object.keys(SEARCH_FUNCTIONS) as SearchFunctionName[]
const JSON_COLUMNS = VIEW_COLUMN_NAMES.filter((name) => VIEW_COLUMNS.get(name) === 'json')
const SCALAR_MACROS = (Object.keys(MACROS) as MacroName[]).filter((name) => !MACROS[name].list)
const LIST_MACROS = (Object.keys(MACROS) as MacroName[]).filter((name) => MACROS[name].list)

/** A macro reference as the parser builds it (bracketed ones get 1-3 arguments). */
export const macroArbitrary: fc.Arbitrary<MacroRef> = fc.letrec<{ macro: MacroRef; arg: MacroArg }>((tie) => ({
  macro: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'macro' },
    fc
      .constantFrom(...(Object.keys(MACROS) as MacroName[]).filter((n) => !MACROS[n].args))
      .map((name): MacroRef => ({ kind: 'macro', name, args: null })),
    fc
      .tuple(
        fc.constantFrom(...(Object.keys(MACROS) as MacroName[]).filter((n) => MACROS[n].args)),
        fc.array(tie('arg'), { minLength: 1, maxLength: 3 }),
      )
      .map(([name, args]): MacroRef => ({ kind: 'macro', name, args })),
  ),
  arg: fc.oneof(
    { depthIdentifier: 'macro' },
    literalTextArbitrary.map((value): MacroArg => ({ kind: 'string', value })),
    fc.nat().map((n): MacroArg => ({ kind: 'number', value: String(n) })),
    tie('macro'),
  ),
})).macro

/** Options of {@link clauseArbitrary}. */
export interface ClauseArbitraryOptions {
  readonly macros?: boolean
  readonly maxDepth?: number
  /** Sub-selects over every allow-listed table (an administrator's clause), operands as the parser requires. */
  readonly subqueries?: boolean
  /** Build a sub-select's condition over this table: its columns beside the record's, no full-text, no sub-select. */
  readonly table?: SubqueryTableName
}

const SUBQUERY_TABLE_NAMES = Object.keys(SUBQUERY_TABLES) as SubqueryTableName[]

/** A sub-select with its operands: the record's res_id first over a table of records' facts. */
function inSelectArbitrary(macros: boolean, operand: fc.Arbitrary<ClauseAst>): fc.Arbitrary<ClauseAst> {
  return fc.constantFrom(...SUBQUERY_TABLE_NAMES).chain((table) => {
    const { record, selectable, columns } = SUBQUERY_TABLES[table]
    const chosen: fc.Arbitrary<string[]> =
      record === null
        ? fc.subarray([...selectable], { minLength: 1 })
        : fc.subarray(selectable.filter((c) => c !== record)).map((rest) => [record, ...rest.slice(0, 1)])
    return fc
      .record({
        columns: chosen,
        negated: fc.boolean(),
        distinct: fc.boolean(),
        where: fc.option(clauseArbitrary({ macros, maxDepth: 2, table }), { nil: null }),
        grouped: fc.boolean(),
        orderBy: fc.array(
          fc.record({
            column: fc.constantFrom(...columns),
            direction: fc.constantFrom('asc' as const, 'desc' as const),
          }),
          { maxLength: 2 },
        ),
        limit: fc.option(fc.nat(1000).map(String), { nil: null }),
        others: fc.array(operand, { minLength: 2, maxLength: 2 }),
      })
      .map(({ columns: selected, negated, distinct, where, grouped, orderBy: ordering, limit, others }): ClauseAst => {
        // As PostgreSQL takes them: grouped by the selected columns, ordered by them when grouped or distinct.
        const groupBy = grouped ? selected : []
        const orderBy = grouped || distinct ? ordering.filter((o) => selected.includes(o.column)) : ordering
        const select: SubSelect = { kind: 'select', table, distinct, columns: selected, where, groupBy, orderBy, limit }
        const operands: ClauseAst[] =
          record === null
            ? others.slice(0, selected.length)
            : [{ kind: 'column', name: 'res_id' }, ...others.slice(0, selected.length - 1)]
        return { kind: 'in-select', negated, operands, select }
      })
  })
}

/** Well-formed clause trees; with `macros`, scalar macros anywhere and list macros as IN items. */
export function clauseArbitrary(options: ClauseArbitraryOptions = {}): fc.Arbitrary<ClauseAst> {
  const macros = options.macros === true
  const maxDepth = options.maxDepth ?? 4
  const jsonChain: fc.Arbitrary<ClauseAst> = fc
    .tuple(
      fc.constantFrom(...JSON_COLUMNS),
      fc.array(
        fc.oneof(
          literalTextArbitrary.map((v) => ({ kind: 'string' as const, value: v })),
          fc.nat(50).map((n) => ({ kind: 'number' as const, value: String(n) })),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      fc.constantFrom('->' as const, '->>' as const),
    )
    .map(([column, keys, last]) => {
      let node: ClauseAst = { kind: 'column', name: column }
      keys.forEach((key, index) => {
        node = { kind: 'json', op: index === keys.length - 1 ? last : '->', operand: node, key }
      })
      return node
    })
  const leaves: fc.Arbitrary<ClauseAst>[] = [
    literalTextArbitrary.map((value): ClauseAst => ({ kind: 'string', value })),
    numberText.map((value): ClauseAst => ({ kind: 'number', value })),
    fc.boolean().map((value): ClauseAst => ({ kind: 'boolean', value })),
    fc.constant<ClauseAst>({ kind: 'null' }),
    fc
      .tuple(fc.constantFrom(...TYPED_LITERAL_TYPES), literalTextArbitrary)
      .map(([type, value]): ClauseAst => ({ kind: 'typed', type, value })),
    fc.constantFrom(...VIEW_COLUMN_NAMES).map((name): ClauseAst => ({ kind: 'column', name })),
    fc.constantFrom<ClauseAst>(
      { kind: 'call', name: 'now', args: [] },
      { kind: 'call', name: 'current_date', args: [] },
      { kind: 'call', name: 'current_timestamp', args: [] },
    ),
    jsonChain,
  ]
  if (options.table === undefined)
    leaves.push(
      fc
        .tuple(
          fc.constantFrom('match' as const, 'rank' as const),
          literalTextArbitrary.filter((words) => words.trim() !== ''),
        )
        .map(([measure, query]): ClauseAst => ({ kind: 'fulltext', measure, query })),
    )
  else
    leaves.push(
      fc
        .constantFrom(...SUBQUERY_TABLES[options.table].columns)
        .map((name): ClauseAst => ({ kind: 'table-column', name })),
    )
  if (macros)
    leaves.push(fc.constantFrom(...SCALAR_MACROS).map((name): ClauseAst => ({ kind: 'macro', name, args: null })))
  const listMacro: fc.Arbitrary<ClauseAst> = macroArbitrary.filter((m) => LIST_MACROS.includes(m.name))

  return fc.letrec<{ expr: ClauseAst }>((tie) => {
    const expr = tie('expr')
    const inItem = macros ? fc.oneof({ weight: 3, arbitrary: expr }, { weight: 1, arbitrary: listMacro }) : expr
    return {
      expr: fc.oneof(
        { maxDepth, depthIdentifier: 'clause', depthSize: 'small' },
        ...leaves,
        fc
          .tuple(fc.constantFrom('and' as const, 'or' as const), expr, expr)
          .map(([op, left, right]): ClauseAst => ({ kind: 'logical', op, left, right })),
        expr.map((operand): ClauseAst => ({ kind: 'not', operand })),
        fc
          .tuple(fc.constantFrom(...COMPARISON_OPERATORS), expr, expr)
          .map(([op, left, right]): ClauseAst => ({ kind: 'comparison', op, left, right })),
        fc
          .tuple(fc.constantFrom(...ARITHMETIC_OPERATORS), expr, expr)
          .map(([op, left, right]): ClauseAst => ({ kind: 'arithmetic', op, left, right })),
        fc.tuple(expr, expr).map(([left, right]): ClauseAst => ({ kind: 'concat', left, right })),
        expr.map((operand): ClauseAst => ({ kind: 'negate', operand })),
        fc
          .tuple(expr, fc.constantFrom(...CAST_TYPES))
          .map(([operand, type]): ClauseAst => ({ kind: 'cast', operand, type })),
        fc.constantFrom(...FUNCTION_NAMES.filter((n) => SEARCH_FUNCTIONS[n].min > 0)).chain((name) => {
          const { min, max } = SEARCH_FUNCTIONS[name]
          return fc
            .array(expr, { minLength: min, maxLength: Math.min(max, min + 2) })
            .map((args): ClauseAst => ({ kind: 'call', name, args }))
        }),
        fc
          .tuple(fc.constantFrom(...EXTRACT_FIELDS), expr)
          .map(([field, source]): ClauseAst => ({ kind: 'extract', field, source })),
        fc
          .tuple(fc.boolean(), expr, fc.array(inItem, { minLength: 1, maxLength: 4 }))
          .map(([negated, operand, items]): ClauseAst => ({ kind: 'in', negated, operand, items })),
        fc
          .tuple(fc.boolean(), expr, expr, expr)
          .map(([negated, operand, low, high]): ClauseAst => ({ kind: 'between', negated, operand, low, high })),
        fc
          .tuple(fc.constantFrom('like' as const, 'ilike' as const), fc.boolean(), expr, expr)
          .map(([op, negated, operand, pattern]): ClauseAst => ({ kind: 'like', op, negated, operand, pattern })),
        fc
          .tuple(fc.boolean(), expr, fc.constantFrom('null' as const, 'true' as const, 'false' as const))
          .map(([negated, operand, test]): ClauseAst => ({ kind: 'is', negated, operand, test })),
        ...(options.subqueries === true && options.table === undefined ? [inSelectArbitrary(macros, expr)] : []),
      ),
    }
  }).expr
}
