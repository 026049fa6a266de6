import { sql } from 'kysely'

/** Maarch 20.10 writes timestamps as PostgreSQL prints them (`2026-11-26 17:55:39.988838`); here in UTC. */
export const timestampText = (column: string) =>
  sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS.US')`

/** A timestamp to the second (`2026-11-26 17:55:39`), UTC; null stays null. */
export const secondsText = (column: string) =>
  sql<string | null>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')`
