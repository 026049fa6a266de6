import type { Database } from '@mailroom/storage'
import { type Kysely, sql } from 'kysely'
import type { MaarchSource } from '../source.js'

/** Told how many more of the source's items (records, attachments) were compared. */
export type Advance = (sourceItems: number) => void

/** Items read per query on each side. */
const PAGE = 500
/** Files hashed at once. */
const FILE_CONCURRENCY = 4

/** A row of either side, by column. */
export type Row = Record<string, unknown>

/**
 * Walks one table of both sides in `res_id` order, a range of ids at a time: each range holds up to PAGE
 * source rows and every target row between the same bounds, so an id present on one side only is seen in
 * its range. `sourceFilter` leaves source rows out (the deleted attachments the import leaves behind).
 */
export async function walkRanges(
  source: MaarchSource,
  target: Kysely<Database>,
  table: 'res_letterbox' | 'res_attachments',
  columns: readonly string[],
  sourceFilter: string,
  visit: (source: Row[], target: Row[], end: number) => Promise<void>,
  advance: Advance,
): Promise<void> {
  const id = (row: Row) => Number(row.res_id)
  const list = columns.join(', ')
  for (let after = 0; ; ) {
    const sourceRows = await source.rows(
      `select ${list} from ${table} where ${sourceFilter} and res_id > $1 order by res_id limit ${PAGE}`,
      [after],
    )
    const full = sourceRows.length === PAGE
    const upTo = full ? sql`and res_id <= ${id(sourceRows.at(-1)!)}` : sql``
    const limit = full ? sql`` : sql`limit ${PAGE}`
    const { rows: targetRows } = await sql<Row>`select ${sql.join(columns.map((c) => sql.ref(c)))}
      from ${sql.table(table)} where res_id > ${after} ${upTo} order by res_id ${limit}`.execute(target)
    if (sourceRows.length === 0 && targetRows.length === 0) return
    // The last source rows: the range ends where a full page of target rows does, or nowhere.
    const end = full
      ? id(sourceRows.at(-1)!)
      : targetRows.length === PAGE
        ? id(targetRows.at(-1)!)
        : Number.POSITIVE_INFINITY
    const visited = sourceRows.filter((row) => id(row) <= end)
    await visit(visited, targetRows, end)
    advance(visited.length)
    if (end === Number.POSITIVE_INFINITY) return
    after = end
  }
}

/** Runs `work` on each item, a few at once. */
export async function eachConcurrently<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items]
  const worker = async () => {
    for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
  }
  await Promise.all(Array.from({ length: FILE_CONCURRENCY }, worker))
}
