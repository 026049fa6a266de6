/**
 * The id columns of Mailroom's tables: `integer` (serial: users, entities, contacts, notes, doctypes, models,
 * folders, tags, custom fields…) and `bigint` (records and attachments, whose ids JavaScript reads exactly up
 * to 2^53 − 1).
 */
export type IdColumn = 'integer' | 'bigint'

/** The largest id each kind of column holds: PostgreSQL refuses a larger parameter with an error, not "no row". */
export const ID_COLUMN_MAX: Readonly<Record<IdColumn, number>> = {
  integer: 2_147_483_647,
  bigint: Number.MAX_SAFE_INTEGER,
}

const DECIMAL = /^[0-9]+$/

/**
 * The one reader of a numeric id, wherever it arrives (path, query, body): a JSON integer, or its decimal digits
 * (leading zeros allowed; no sign, space or exponent), at least 1 and within the column's range.
 * Null for anything else, so that each route answers its own message for a malformed id, and a value past the
 * column never reaches a statement.
 */
export function databaseIdOf(value: unknown, column: IdColumn = 'integer'): number | null {
  let id: number
  if (typeof value === 'number') id = value
  else if (typeof value === 'string' && DECIMAL.test(value)) id = Number(value)
  else return null
  return Number.isInteger(id) && id >= 1 && id <= ID_COLUMN_MAX[column] ? id : null
}
