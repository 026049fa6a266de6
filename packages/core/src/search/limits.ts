/** Hard limits of the search language; they bound parsing time, stack depth and query size. */

/** Largest clause (and select, and orderBy item) accepted, in UTF-8 bytes. */
export const MAX_CLAUSE_BYTES = 8192

/** Deepest nesting of parentheses, function calls, NOT and unary minus. */
export const MAX_NESTING_DEPTH = 32

/** Most items an `IN (...)` list may hold as written by the caller. */
export const MAX_IN_LIST_ITEMS = 1000

/** Most ordering expressions `orderBy` may hold. */
export const MAX_ORDER_BY_ITEMS = 32

/** Rows returned when the caller gives no limit. */
export const DEFAULT_SEARCH_LIMIT = 100

/** Most rows one search returns; a larger limit is lowered to this. */
export const MAX_SEARCH_LIMIT = 1000
