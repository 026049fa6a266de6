import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

/** A Maarch import run as it starts: its source and the cut-off of the snapshot it reads. */
export interface ImportRunStart {
  /** host:port/database of the Maarch database (no credentials). */
  readonly source: string
  readonly mode: 'full' | 'delta'
  /** A delta run: the cut-off it carries changes from. */
  readonly since: Date | null
  readonly cutoff: Date
}

/** Writes a run as started; the id returned marks it finished with {@link finishImportRun}. */
export async function startImportRun(db: Kysely<Database>, run: ImportRunStart): Promise<number> {
  const { id } = await db
    .insertInto('maarch_import_runs')
    .values({ source: run.source, mode: run.mode, since: run.since, cutoff: run.cutoff })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** Marks a run finished whole, with its counts. */
export async function finishImportRun(
  db: Kysely<Database>,
  id: number,
  counts: Readonly<Record<string, unknown>>,
): Promise<void> {
  await db
    .updateTable('maarch_import_runs')
    .set({ finished_at: new Date(), counts: JSON.stringify(counts) })
    .where('id', '=', id)
    .execute()
}

/**
 * Where a delta from this source must start: the earliest cut-off among the runs that made up the last
 * finished one (it and the runs stopped before it since the finished run before), so that what a stopped run
 * read from an older snapshot is looked at again. Null when no run from this source finished.
 */
export async function lastImportCutoff(
  db: Kysely<Database>,
  source: string,
): Promise<{ readonly cutoff: Date; readonly finishedAt: Date } | null> {
  const finished = await db
    .selectFrom('maarch_import_runs')
    .select(['id', 'finished_at'])
    .where('source', '=', source)
    .where('finished_at', 'is not', null)
    .orderBy('id', 'desc')
    .limit(2)
    .execute()
  const last = finished[0]
  if (!last?.finished_at) return null
  const row = await db
    .selectFrom('maarch_import_runs')
    .select((eb) => eb.fn.min('cutoff').as('cutoff'))
    .where('source', '=', source)
    .where('id', '<=', last.id)
    .where('id', '>', finished[1]?.id ?? 0)
    .executeTakeFirstOrThrow()
  return { cutoff: new Date(row.cutoff as Date | string), finishedAt: new Date(last.finished_at) }
}
