import type { ClauseAst } from '@mailroom/core'
import { isRecordMembership } from '../search/compile-clause.js'

/**
 * The columns the records' words index carries beside the words (migration 0023): those 20.10's security clauses
 * are written on, and the typist every perimeter holds.
 */
export const WORDS_INDEX_COLUMNS: ReadonlySet<string> = new Set(['destination', 'typist', 'dest_user', 'initiator'])

const isLiteral = (node: ClauseAst) => node.kind === 'string' || node.kind === 'number'
const isIndexedColumn = (node: ClauseAst) => node.kind === 'column' && WORDS_INDEX_COLUMNS.has(node.name)

/**
 * True when the words index can find the records a (group or basket) clause grants among those holding some words:
 * each alternative of its ORs is, or ANDs, an equality or IN list of literals on a column of the index, a set of
 * records read by a sub-select (`isRecordMembership`: compiled for this shape as an array the primary key serves),
 * or is a constant (`1=1`, `1=0`, an emptied IN list, compiled to TRUE or FALSE). PostgreSQL then ORs one index scan
 * per alternative; any other alternative makes it read every record holding the words.
 */
export function isServedByWordsIndex(clause: ClauseAst): boolean {
  switch (clause.kind) {
    case 'boolean':
      return true
    case 'logical':
      return clause.op === 'or'
        ? isServedByWordsIndex(clause.left) && isServedByWordsIndex(clause.right)
        : isServedByWordsIndex(clause.left) || isServedByWordsIndex(clause.right)
    case 'comparison':
      if (clause.op !== '=') return false
      if (clause.left.kind === 'number' && clause.right.kind === 'number') return true
      return (
        (isIndexedColumn(clause.left) && isLiteral(clause.right)) ||
        (isLiteral(clause.left) && isIndexedColumn(clause.right))
      )
    case 'in-select':
      return isRecordMembership(clause)
    case 'in':
      if (clause.items.length === 0) return true
      return !clause.negated && isIndexedColumn(clause.operand) && clause.items.every(isLiteral)
    default:
      return false
  }
}
