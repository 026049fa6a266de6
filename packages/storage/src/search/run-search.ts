import { domainError } from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { StorageContext } from '../storage-context.js'

/**
 * SQLSTATE classes and codes a well-formed search can still raise, all caused by the caller's clause:
 * 22 data exception (bad date text, division by zero, overflow, invalid LIKE escape), 42 syntax or
 * access rule (operator or function missing for the operand types, undeterminable parameter type),
 * 54 program limit (too complex), 2202E / 0A000 unsupported constructs, 57014 cancelled by the timeout.
 */
const CALLER_SQLSTATE = /^(22|42|54|0A)[0-9A-Z]{3}$|^57014$/

/** PGlite serialises parameters itself by their inferred type and refuses some text with a plain Error. */
const PGLITE_PARAMETER_ERROR = /^Invalid input for [a-z]+ type$/

/**
 * True when a database error was caused by the query's content (the caller's clause) rather than by the
 * database's state: a SQLSTATE of the classes above, or PGlite's client-side parameter refusal (which
 * carries no SQLSTATE: e.g. a string literal used as a boolean condition).
 */
export function isRefusedQuery(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') return CALLER_SQLSTATE.test(code)
  return PGLITE_PARAMETER_ERROR.test(error.message)
}

/**
 * Runs a compiled search and turns the errors the caller's clause provoked into SEARCH_REQUEST_INVALID
 * (reference §3 step 7); others propagate. Time: the search runs under the connection's statement_timeout
 * (openPostgres sets it on every pooled connection, 15 s unless DatabaseTarget.statementTimeoutMs says
 * otherwise), and a cancelled search (57014) answers 400 too. A search-specific `SET LOCAL` was measured
 * and dropped: its BEGIN/SET/COMMIT round trips cost about 60% of the throughput of cheap searches.
 * PGlite runs in-process and cannot cancel a statement.
 */
export async function runSearch<T>(
  context: Pick<StorageContext, 'db' | 'logger'>,
  run: (db: Kysely<any>) => Promise<T>,
): Promise<T> {
  try {
    return await run(context.db)
  } catch (error) {
    if (!isRefusedQuery(error)) throw error
    context.logger.info(
      { sqlstate: (error as { code?: unknown }).code ?? null, reason: (error as Error).message },
      'search refused by the database',
    )
    throw domainError('SEARCH_REQUEST_INVALID')
  }
}
