import type { ClauseAst, JsonAccessExpr, StringLiteral } from '@mailroom/core'
import { type Expression, type SqlBool, sql } from 'kysely'
import { conjuncts } from './compile-clause.js'

/** A top-level `json_column ->> 'key' = 'text'` condition of a clause. */
interface JsonTextEquality {
  readonly column: string
  readonly key: string
  readonly text: string
}

function asJsonTextEquality(node: ClauseAst): JsonTextEquality | null {
  if (node.kind !== 'comparison' || node.op !== '=') return null
  const pick = (access: ClauseAst, literal: ClauseAst): JsonTextEquality | null => {
    if (access.kind !== 'json' || access.op !== '->>' || literal.kind !== 'string') return null
    const json = access as JsonAccessExpr
    if (json.operand.kind !== 'column' || json.key.kind !== 'string') return null
    return { column: json.operand.name, key: json.key.value, text: (literal as StringLiteral).value }
  }
  return pick(node.left, node.right) ?? pick(node.right, node.left)
}

/** The JSON values whose `->>` text is `text`: the string itself, and what `text` denotes as JSON if it parses. */
function candidateValues(text: string): unknown[] {
  const values: unknown[] = [text]
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed !== null && typeof parsed !== 'string') values.push(parsed)
  } catch {
    // Not JSON text: only a JSON string can render to it.
  }
  return values
}

/**
 * Containment conditions implied by the clause, which the GIN indexes on custom_fields and external_id can
 * serve: `col ->> 'k' = 'v'` (at the top level of the clause) implies `col @> {"k": "v"}`, or `col @> {"k": v}`
 * when `v` is JSON text of a number, boolean, array or object. Each hint is a necessary condition, so ANDing
 * it to the search changes no result; it only lets PostgreSQL find the few matching rows through the index
 * instead of filtering every row. Keys and values are bound parameters. Null when the clause offers none.
 */
export function jsonIndexHints(clause: ClauseAst): Expression<SqlBool> | null {
  const hints: Expression<SqlBool>[] = []
  for (const part of conjuncts(clause)) {
    const equality = asJsonTextEquality(part)
    if (!equality) continue
    const alternatives = candidateValues(equality.text).map(
      (value) =>
        sql<SqlBool>`${sql.id(equality.column)} @> ${sql.val(JSON.stringify({ [equality.key]: value }))}::jsonb`,
    )
    hints.push(sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`)
  }
  return hints.length === 0 ? null : sql<SqlBool>`(${sql.join(hints, sql` and `)})`
}
