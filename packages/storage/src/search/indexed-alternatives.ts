import type { ClauseAst, InSelectExpr } from '@mailroom/core'

/**
 * The record's columns that lead a btree index of `res_letterbox` (migrations 0001, 0028, 0030; a test holds
 * the list to the database's indexes): an equality, a range or an IN list on one of them, or a membership of its
 * values in a sub-select's rows written as an array, is an index scan PostgreSQL can OR with others.
 */
export const RECORD_INDEX_COLUMNS: ReadonlySet<string> = new Set([
  'res_id',
  'status',
  'destination',
  'dest_user',
  'typist',
  'category_id',
  'creation_date',
  'alt_identifier',
])

/** The record's JSON columns under a GIN index (`jsonb_ops`), which serves `column ? 'key'`. */
export const JSON_INDEX_COLUMNS: ReadonlySet<string> = new Set(['custom_fields', 'external_id'])

/** A node the record is tested on without its own columns: no `res_view_letterbox.x` anywhere in it. */
function isUncorrelated(node: ClauseAst): boolean {
  if (node.kind === 'column') return false
  return Object.values(node).every((value) => {
    if (Array.isArray(value))
      return value.every((item) => typeof item !== 'object' || item === null || isUncorrelated(item))
    return typeof value !== 'object' || value === null || !('kind' in value) || isUncorrelated(value as ClauseAst)
  })
}

/**
 * `column IN (select x from … where <no column of the record>)` without ordering or limit: a set of values that does
 * not depend on the record tested, which an index on the column can serve as an array (`column = any(array(…))`).
 */
export function isColumnMembership(node: ClauseAst): node is InSelectExpr {
  if (node.kind !== 'in-select' || node.negated || node.operands.length !== 1) return false
  const [operand] = node.operands
  const { select } = node
  return (
    operand?.kind === 'column' &&
    select.orderBy.length === 0 &&
    select.limit === null &&
    (select.where === null || isUncorrelated(select.where))
  )
}

/** A column membership of the record's own id: a set of records, which the primary key serves. */
export function isRecordMembership(node: ClauseAst): node is InSelectExpr {
  return isColumnMembership(node) && node.operands[0]?.kind === 'column' && node.operands[0].name === 'res_id'
}

/** Indexes that can each serve an alternative of an OR, as a condition's compilation counts on them. */
export interface ServingIndexes {
  /** The record's columns they find values of. */
  readonly columns: ReadonlySet<string>
  /** Whether they order the values (btree: ranges and BETWEEN too) or only find them (GIN: equalities). */
  readonly ordered: boolean
  /** The memberships in a sub-select's rows they serve, written as arrays. */
  readonly membership: (node: InSelectExpr) => boolean
}

const isLiteral = (node: ClauseAst) => node.kind === 'string' || node.kind === 'number'
const RANGES = new Set(['=', '<', '<=', '>', '>='])

/**
 * True when one index scan per alternative can find the records a condition holds: each alternative of its ORs
 * is, or ANDs, an equality (a range, on `ordered` indexes) or IN list of literals on a column they find, a
 * membership they serve, or a constant (`1=1`, `1=0`, an emptied IN list, compiled to TRUE or FALSE). PostgreSQL
 * can then OR the scans and read only the records the condition keeps; any other alternative makes it test the
 * condition on every record it reads.
 */
export function isServedByIndexes(node: ClauseAst, indexes: ServingIndexes): boolean {
  const isFound = (column: ClauseAst) => column.kind === 'column' && indexes.columns.has(column.name)
  switch (node.kind) {
    case 'boolean':
      return true
    case 'logical':
      return node.op === 'or'
        ? isServedByIndexes(node.left, indexes) && isServedByIndexes(node.right, indexes)
        : isServedByIndexes(node.left, indexes) || isServedByIndexes(node.right, indexes)
    case 'comparison':
      if (node.left.kind === 'number' && node.right.kind === 'number') return true
      if (node.op !== '=' && !(indexes.ordered && RANGES.has(node.op))) return false
      return (isFound(node.left) && isLiteral(node.right)) || (isLiteral(node.left) && isFound(node.right))
    case 'in':
      if (node.items.length === 0) return true
      return !node.negated && isFound(node.operand) && node.items.every(isLiteral)
    case 'between':
      return indexes.ordered && !node.negated && isFound(node.operand) && isLiteral(node.low) && isLiteral(node.high)
    case 'in-select':
      return indexes.membership(node)
    default:
      return false
  }
}

/** The btree indexes of the record's columns (RECORD_INDEX_COLUMNS), the memberships of those columns. */
const RECORD_INDEXES: ServingIndexes = {
  columns: RECORD_INDEX_COLUMNS,
  ordered: true,
  membership: (node) =>
    isColumnMembership(node) && node.operands[0]?.kind === 'column' && RECORD_INDEX_COLUMNS.has(node.operands[0].name),
}

/**
 * True when the record's btree indexes serve a condition alternative by alternative (`isServedByIndexes`), a
 * membership of an indexed column in a sub-select's rows written as an array for them (`col = any(array(…))`).
 * Otherwise PostgreSQL tests the condition on every record it reads, where an array would be searched from its start
 * for each one: the memberships then keep their `IN (select …)` form (a hashed set).
 */
export function isServedByRecordIndexes(node: ClauseAst): boolean {
  return isServedByIndexes(node, RECORD_INDEXES)
}

/**
 * The JSON column and key of `column ->> 'key'` or `column -> 'key'` on a column under a GIN index, else null: a
 * value there that is not NULL implies `column ? 'key'`, which the index serves.
 */
export function indexedJsonKey(node: ClauseAst): { column: string; key: string } | null {
  if (node.kind !== 'json' || node.key.kind !== 'string' || node.operand.kind !== 'column') return null
  return JSON_INDEX_COLUMNS.has(node.operand.name) ? { column: node.operand.name, key: node.key.value } : null
}
