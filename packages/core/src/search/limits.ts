/** Hard limits of the search language; they bound parsing time, stack depth and query size. */

/**
 * Largest clause (and select, and orderBy item) accepted, in UTF-8 bytes: 256 KiB, room for the
 * `res_id in (…)` lists of reconciliation scripts and a day's chrono numbers. Parsing is linear in it.
 */
export const MAX_CLAUSE_BYTES = 262_144

/** Deepest nesting of parentheses, function calls, NOT and unary minus. */
export const MAX_NESTING_DEPTH = 32

/**
 * Tallest syntax tree a text may build: `a or b or c …` chains one level per term. The compiler, the printer
 * and the macro expansion walk trees recursively, so this bounds their stack whatever the text's size.
 */
export const MAX_TREE_HEIGHT = 1000

/** Most items an `IN (...)` list may hold as written by the caller. */
export const MAX_IN_LIST_ITEMS = 50_000

/**
 * Most literals (strings and numbers) one text may hold. Each becomes a bound parameter, and PostgreSQL's
 * protocol carries at most 65,535 per statement; the rest is left for the perimeter's own values.
 */
export const MAX_TEXT_VALUES = 60_000

/** Most ordering expressions `orderBy` may hold. */
export const MAX_ORDER_BY_ITEMS = 32

/** Most sub-selects one clause may hold: each is a query of its own. */
export const MAX_SUBQUERIES = 16
