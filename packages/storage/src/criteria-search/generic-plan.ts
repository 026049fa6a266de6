import type { SearchCriteria } from '@mailroom/core'
import { type Kysely, sql } from 'kysely'

/**
 * True for a search by chrono alone: the capture tools' lookup after each create. Its statements are the same
 * whatever the number asked, and its plan is too (the chrono's pg_trgm index, then the perimeter on the rows
 * it finds), so planning them again at every search is waste: it cost 5 to 8 ms of the 1 to 2 ms the
 * statements take to run on a million records. Other criteria keep a plan made for their values (a date range
 * or a subject's words can match ten records or every one).
 */
export function keepsGenericPlan(criteria: SearchCriteria, kind: 'postgres' | 'pglite'): boolean {
  return kind === 'postgres' && criteria.terms.length > 0 && criteria.terms.every((term) => term.kind === 'chrono')
}

/**
 * Runs `statements` in one transaction with PostgreSQL's plan cache told to keep the generic plan. The pool
 * names a statement from its second run (database/prepared-statements.ts); left to itself, PostgreSQL then
 * kept planning each run, since its generic estimate of a pattern match is worse than the plan made for the
 * value. `set local` ends with the transaction, whatever happens: the setting never outlives the search, on
 * this connection or, behind a pooler in transaction mode, on a server connection another client gets next.
 */
export async function withGenericPlans<T>(db: Kysely<any>, statements: (db: Kysely<any>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (transaction) => {
    await sql`set local plan_cache_mode = force_generic_plan`.execute(transaction)
    return statements(transaction)
  })
}
