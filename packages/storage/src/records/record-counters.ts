import { type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'

/**
 * Moves the record and attachment id sequences past the highest ids, so that records and attachments
 * created after an import (which gave them their own ids) draw fresh ones.
 */
export async function moveRecordIdsPastHighest(db: Kysely<Database>): Promise<void> {
  await sql`select setval(pg_get_serial_sequence('res_letterbox', 'res_id'), greatest((select coalesce(max(res_id), 0) from res_letterbox), 1), (select count(*) > 0 from res_letterbox))`.execute(
    db,
  )
  await sql`select setval(pg_get_serial_sequence('res_attachments', 'res_id'), greatest((select coalesce(max(res_id), 0) from res_attachments), 1), (select count(*) > 0 from res_attachments))`.execute(
    db,
  )
}

/** The highest number a chrono of one year and category letter has given (MAARCH/2020A/12: 2020, A, 12). */
export interface GivenChronoNumber {
  readonly year: string
  readonly letter: string
  readonly value: number
}

/**
 * The highest number given per year and category letter, read from the records' chronos: one row per year
 * and letter, nothing per record.
 */
export async function highestChronoNumbers(db: Kysely<Database>): Promise<GivenChronoNumber[]> {
  const { rows } = await sql<{ year: string; letter: string; value: string }>`
    select m[1] as year, m[2] as letter, max(m[3]::bigint) as value
    from (select regexp_match(alt_identifier, '/(\\d{4})([A-Z])/(\\d+)$') as m from res_letterbox where alt_identifier is not null) numbers
    where m is not null group by m[1], m[2]`.execute(db)
  return rows.map((r) => ({ year: r.year, letter: r.letter, value: Number(r.value) }))
}

/** Raises a chrono counter to `value`, creating it if need be; a counter already past it keeps its value. */
export async function raiseChronoCounter(db: Kysely<Database>, counter: string, value: number): Promise<void> {
  await db
    .insertInto('chrono_counters')
    .values({ counter_id: counter, last_value: value })
    .onConflict((oc) =>
      oc
        .column('counter_id')
        .doUpdateSet({ last_value: sql<number>`greatest(chrono_counters.last_value, excluded.last_value)` }),
    )
    .execute()
}
