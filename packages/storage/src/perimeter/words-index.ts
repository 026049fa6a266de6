import type { ClauseAst } from '@mailroom/core'
import { isRecordMembership, isServedByIndexes, type ServingIndexes } from '../search/indexed-alternatives.js'

/**
 * The columns the records' words index carries beside the words (migration 0023): those 20.10's security clauses
 * are written on, and the typist every perimeter holds.
 */
export const WORDS_INDEX_COLUMNS: ReadonlySet<string> = new Set(['destination', 'typist', 'dest_user', 'initiator'])

const WORDS_INDEX: ServingIndexes = { columns: WORDS_INDEX_COLUMNS, ordered: false, membership: isRecordMembership }

/**
 * True when the words index can find the records a (group or basket) clause grants among those holding some words:
 * each alternative of its ORs is, or ANDs, an equality or IN list of literals on a column of the index, a set of
 * records read by a sub-select (`isRecordMembership`: compiled for this shape as an array the primary key serves),
 * or is a constant (`isServedByIndexes`). PostgreSQL then ORs one index scan per alternative; any other alternative
 * makes it read every record holding the words.
 */
export function isServedByWordsIndex(clause: ClauseAst): boolean {
  return isServedByIndexes(clause, WORDS_INDEX)
}
