import { type Kysely, sql } from 'kysely'

/**
 * Baskets widen the perimeter (issue 53: a letter in one of my baskets, or in a basket lent to me, is mine to
 * read). Which baskets a user has and what their clauses say now decide what the user may see, as groups and
 * their clauses do: a change of them moves `access_version` (0008) in the changing transaction, so every server
 * drops the users and perimeters it keeps in memory at its next request, and a basket taken from a group stops
 * granting its letters at once.
 */
export const BASKET_PERIMETER_TABLES = [
  'baskets',
  'groupbasket',
  'users_baskets_preferences',
  'redirected_baskets',
] as const

export async function up(db: Kysely<any>): Promise<void> {
  for (const table of BASKET_PERIMETER_TABLES)
    await sql
      .raw(`create trigger ${table}_access_version after insert or update or delete on ${table}
        for each statement execute function access_version_bump()`)
      .execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of BASKET_PERIMETER_TABLES)
    await sql.raw(`drop trigger ${table}_access_version on ${table}`).execute(db)
}
