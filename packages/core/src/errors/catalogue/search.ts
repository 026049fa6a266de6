import {
  MAX_CLAUSE_BYTES,
  MAX_IN_LIST_ITEMS,
  MAX_NESTING_DEPTH,
  MAX_ORDER_BY_ITEMS,
  MAX_SUBQUERIES,
  MAX_TEXT_VALUES,
  MAX_TREE_HEIGHT,
} from '../../search/limits.js'
import { defineErrors } from '../error-definition.js'

/** The operator setting that caps the records one search returns (off by default). */
export const SEARCH_CEILING_SETTING = 'MAILROOM_SEARCH_MAX_RESULTS'

const SELECT_INVALID = 'Bad Request: select is not valid'
const CLAUSE_INVALID = 'Bad Request: clause is not valid'
const ORDER_BY_INVALID = 'Bad Request: orderBy parameter not valid'

/** Longest piece of caller text echoed in an error, so a huge token never floods a response. */
const MAX_ECHO = 40

function quote(token: string | undefined): string {
  const text = token ?? ''
  return JSON.stringify(text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}...` : text)
}

/** What is wrong with a select, clause or orderBy text: each problem renders the offending token. */
const SYNTAX_PROBLEMS = {
  'unexpected-character': (t: string) => `unexpected character ${t}`,
  'unterminated-string': (t: string) => `unterminated string literal ${t}`,
  'forbidden-string-character': (t: string) => `string literal ${t} holds a NUL character or a lone surrogate`,
  'malformed-number': (t: string) => `malformed number ${t}`,
  comment: (t: string) => `comments are not allowed: ${t}`,
  semicolon: (t: string) => `statement separators are not allowed: ${t}`,
  'quoted-identifier': (t: string) => `quoted identifiers are not allowed: ${t}`,
  parameter: (t: string) => `parameters are not allowed: ${t}`,
  subquery: (t: string) => `sub-queries are not allowed: ${t}`,
  'nested-subquery': (t: string) => `a sub-select may not hold another sub-select: ${t}`,
  'too-many-subqueries': (t: string) => `more than ${MAX_SUBQUERIES} sub-selects, first extra one ${t}`,
  'subquery-table-not-allowed': (t: string) =>
    `table ${t} may only be read by an administrator's clause (a basket's, a group's), not by a search`,
  'subquery-join': (t: string) => `a sub-select reads one table, without joins: ${t}`,
  'subquery-column': (t: string) => `column ${t} may not be selected by a sub-select`,
  'subquery-arity': () => 'the values left of IN are not as many as the columns the sub-select selects',
  'subquery-record': () =>
    "a sub-select over a record's table must select the record the clause is tested on: res_id IN (SELECT res_id FROM ...)",
  'subquery-may-fail': () =>
    "a sub-select's condition may not compute values that can fail on a row (arithmetic, casts, substring…): compare its columns with values",
  'row-value': (t: string) => `a list of values (a, b) is only allowed before IN (SELECT ...): ${t}`,
  'fulltext-in-subquery': (t: string) => `${t}(...) is not allowed inside a sub-select`,
  'unexpected-token': (t: string) => `unexpected token ${t}`,
  'unexpected-end': () => 'unexpected end of input',
  'unknown-column': (t: string) => `unknown column ${t}`,
  'unknown-table': (t: string) => `unknown table ${t}`,
  'unknown-function': (t: string) => `unknown function ${t}`,
  'function-arity': (t: string) => `wrong number of arguments for function ${t}`,
  'forbidden-cast': (t: string) => `cast to ${t} is not allowed`,
  'unknown-extract-field': (t: string) => `unknown extract field ${t}`,
  'json-operand': (t: string) => `operator ${t} needs a json column on its left`,
  'json-key': (t: string) => `the key of a json operator must be a string or integer literal, not ${t}`,
  'macro-not-allowed': (t: string) => `macro ${t} is not allowed here`,
  'unknown-macro': (t: string) => `unknown macro ${t}`,
  'list-macro': (t: string) => `macro ${t} yields a list and is only allowed inside IN (...)`,
  'too-long': () => `text is longer than ${MAX_CLAUSE_BYTES} bytes`,
  'too-deep': (t: string) => `${t} nests deeper than ${MAX_NESTING_DEPTH} levels`,
  'too-many-items': (t: string) => `IN list has more than ${MAX_IN_LIST_ITEMS} items, first extra item ${t}`,
  'too-tall': () =>
    `more than ${MAX_TREE_HEIGHT} conditions or operations chained in one expression; write long lists of values as IN (...)`,
  'too-many-values': (t: string) => `more than ${MAX_TEXT_VALUES} literal values, first extra value ${t}`,
  'too-many-order-items': () => `more than ${MAX_ORDER_BY_ITEMS} ordering expressions`,
  'not-a-string': () => 'item is not a string',
  'fulltext-argument': (t: string) => `${t}(...) takes one string of words to look for, not empty`,
} as const

/** A reason a search text was refused (see the phrases above). */
export type SearchSyntaxProblem = keyof typeof SYNTAX_PROBLEMS

/** Where and why a search text was refused; position is 1-based in characters (code points). */
export interface SearchSyntaxDetail {
  readonly problem: SearchSyntaxProblem
  readonly token?: string
  readonly position?: number
}

function describe(prefix: string, detail: SearchSyntaxDetail): string {
  const phrase = SYNTAX_PROBLEMS[detail.problem](quote(detail.token))
  return detail.position === undefined ? `${prefix}: ${phrase}` : `${prefix}: ${phrase} at position ${detail.position}`
}

/** Errors of the search capability (POST /rest/res/list, reference §3). */
export const SEARCH_ERRORS = defineErrors({
  SEARCH_SELECT_INVALID: { kind: 'bad-request', message: SELECT_INVALID },
  SEARCH_CLAUSE_INVALID: { kind: 'bad-request', message: CLAUSE_INVALID },
  SEARCH_WITH_FILE_INVALID: { kind: 'bad-request', message: 'Bad Request: withFile parameter is not a boolean' },
  SEARCH_ORDER_BY_INVALID: { kind: 'bad-request', message: ORDER_BY_INVALID },
  SEARCH_LIMIT_INVALID: { kind: 'bad-request', message: 'Bad Request: limit parameter not valid' },
  SEARCH_OFFSET_INVALID: { kind: 'bad-request', message: 'Bad Request: offset parameter not valid' },
  SEARCH_LIMIT_OVER_CEILING: {
    kind: 'bad-request',
    message: ({ ceiling }: { ceiling: number }) =>
      `Bad Request: limit is larger than ${ceiling}, the most results a search may return on this server (setting ${SEARCH_CEILING_SETTING})`,
  },
  SEARCH_RESULTS_OVER_CEILING: {
    kind: 'bad-request',
    message: ({ ceiling }: { ceiling: number }) =>
      `Bad Request: the search matches more than ${ceiling} records, the most a search may return on this server (setting ${SEARCH_CEILING_SETTING}); give a limit and an offset to read them in pages`,
  },
  SEARCH_SELECT_SYNTAX: { kind: 'bad-request', message: (d: SearchSyntaxDetail) => describe(SELECT_INVALID, d) },
  SEARCH_CLAUSE_SYNTAX: { kind: 'bad-request', message: (d: SearchSyntaxDetail) => describe(CLAUSE_INVALID, d) },
  SEARCH_ORDER_BY_SYNTAX: { kind: 'bad-request', message: (d: SearchSyntaxDetail) => describe(ORDER_BY_INVALID, d) },
  /** The database refused the compiled query (type mismatch, bad date text…): reference §3 step 7. */
  SEARCH_REQUEST_INVALID: { kind: 'bad-request', message: 'Request is not valid' },
  /** A non-root user whose groups give no security clause: reference §3 step 8. */
  SEARCH_USER_HAS_NO_GROUPS: { kind: 'bad-request', message: 'User has no groups' },
  SEARCH_MACRO_NOT_EXPANDED: {
    kind: 'internal',
    message: 'A perimeter macro reached the SQL compiler without being expanded',
  },
})
