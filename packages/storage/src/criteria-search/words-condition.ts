import { type RawBuilder, type SqlBool, sql } from 'kysely'

/** Letters folded for accent-insensitive matching: translate() works in every locale, lower() may not. */
const ACCENTED = 'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿ'
const UNACCENTED = 'AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyy'

/** A value for LIKE with its wildcards escaped: caller text is matched as text, never as a pattern. */
export function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/** `%text%` as a bound value. */
export function containing(text: string): RawBuilder<string> {
  return sql.val(`%${likeEscaped(text)}%`)
}

/** The expression with its accented letters folded to plain ones. */
export function folded(expression: RawBuilder<unknown>): RawBuilder<string> {
  return sql<string>`translate(${expression}, ${sql.lit(ACCENTED)}, ${sql.lit(UNACCENTED)})`
}

/** The words of a text search: 20.10 keeps words of two characters or more. */
export function searchWords(text: string): string[] {
  return text.split(' ').filter((word) => word.length >= 2)
}

/** Every word a substring of the column, case and accents ignored; null when there is no word. */
export function wordsCondition(column: RawBuilder<unknown>, words: readonly string[]): RawBuilder<SqlBool> | null {
  if (words.length === 0) return null
  return sql<SqlBool>`(${sql.join(
    words.map((word) => sql`${folded(column)} ilike ${folded(containing(word))}`),
    sql` and `,
  )})`
}
