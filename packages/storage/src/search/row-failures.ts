import type { ClauseAst } from '@mailroom/core'

/** Functions of the clause language that raise no error whatever the values they are given. */
const TOTAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'lower',
  'upper',
  'trim',
  'coalesce',
  'length',
  'now',
  'current_date',
  'current_timestamp',
  'greatest',
  'least',
])

const isLiteral = (node: ClauseAst) =>
  node.kind === 'string' || node.kind === 'number' || node.kind === 'boolean' || node.kind === 'null'

/** A LIKE pattern ending with an unpaired backslash, which PostgreSQL refuses for every row it is matched on. */
const ENDS_WITH_ESCAPE = /(^|[^\\])(\\\\)*\\$/

/**
 * True when PostgreSQL may raise an error evaluating the clause on a record, depending on that record's values:
 * arithmetic (division by zero, overflow), casts of a column or computed value (but to text), functions that refuse some
 * arguments (`substring`, `date_trunc`, `to_char`, `date`, `abs`), a LIKE pattern that is computed or ends with
 * an escape. Comparisons, IN lists, LIKE with a literal pattern, JSON access and the total functions above never
 * raise on a row's values (an error of theirs comes from the clause's text, row or no row).
 */
export function mayFailOnRow(node: ClauseAst): boolean {
  switch (node.kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'null':
    case 'typed':
    case 'column':
    case 'table-column':
    case 'macro':
    case 'fulltext':
      return false
    case 'arithmetic':
      return true
    case 'negate':
      return !isLiteral(node.operand)
    case 'cast':
      // Every value has a text form: `external_id::text like …` (the capture tools' lookup) cannot fail.
      return node.type !== 'text' && !isLiteral(node.operand) ? true : mayFailOnRow(node.operand)
    case 'logical':
    case 'comparison':
    case 'concat':
      return mayFailOnRow(node.left) || mayFailOnRow(node.right)
    case 'not':
    case 'is':
    case 'json':
      return mayFailOnRow(node.operand)
    case 'call':
      return !TOTAL_FUNCTIONS.has(node.name) || node.args.some(mayFailOnRow)
    case 'extract':
      return mayFailOnRow(node.source)
    case 'in':
      return mayFailOnRow(node.operand) || node.items.some(mayFailOnRow)
    case 'in-select':
      // Its own condition never may (compile-clause.ts refuses it): only the values compared with its rows.
      return node.operands.some(mayFailOnRow)
    case 'between':
      return mayFailOnRow(node.operand) || mayFailOnRow(node.low) || mayFailOnRow(node.high)
    case 'like':
      return mayFailOnRow(node.operand) || node.pattern.kind !== 'string' || ENDS_WITH_ESCAPE.test(node.pattern.value)
  }
}
