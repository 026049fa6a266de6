import { type RawBuilder, sql } from 'kysely'

/** The digits' run lengths 20.10's order_alphanum pads to nine digits, in the order it pads them. */
const PADDED_RUNS = [8, 7, 6, 5, 4, 3, 2, 1]

/**
 * 20.10's `order_alphanum(alt_identifier)` as an expression (its plpgsql function is not in Mailroom's schema): a
 * `/` after each non-digit of the chrono followed by `Z`, then each run of one to eight digits between two
 * non-digits padded with zeros to nine. Constant patterns only: the caller chose nothing but the direction.
 */
export function naturalChrono(
  chrono: RawBuilder<unknown> = sql`res_view_letterbox.alt_identifier`,
): RawBuilder<string> {
  let expression = sql<string>`regexp_replace(${chrono} || 'Z', ${sql.lit('(\\D)')}, ${sql.lit('\\1/')}, 'g')`
  for (const digits of PADDED_RUNS) {
    const pattern = sql.lit(`(\\D)(\\d{${digits}}\\D)`)
    const replacement = sql.lit(`\\1${'0'.repeat(9 - digits)}\\2`)
    expression = sql<string>`regexp_replace(${expression}, ${pattern}, ${replacement}, 'g')`
  }
  return expression
}
