import { fail } from '@mailroom/core'
import { finishImportRun, lastImportCutoff, startImportRun } from '@mailroom/storage'
import type { MaarchImportOptions, MaarchImportTarget } from './import-options.js'
import type { MaarchImportSummary } from './report.js'
import type { MaarchSource } from './source.js'

/** How runs name their source: host, port and database of its URL, never its credentials. */
export function sourceIdentity(url: string): string {
  try {
    const parsed = new URL(url)
    const host = parsed.searchParams.get('host') ?? parsed.hostname
    return `${host}:${parsed.port || '5432'}${parsed.pathname}`
  } catch {
    return url.replace(/\/\/[^@/]*@/, '//')
  }
}

/**
 * A run's place among the imports from its source (maarch_import_runs): written as it starts (not for a dry run,
 * nor for the organisation alone), marked finished when it ends whole; `since` resolved before anything is written.
 */
export class ImportRuns {
  readonly #target: MaarchImportTarget
  readonly #cutoff: Date
  readonly #id: number | null
  /** Where a delta run starts (null: a full run). */
  readonly since: Date | null

  private constructor(target: MaarchImportTarget, cutoff: Date, since: Date | null, id: number | null) {
    this.#target = target
    this.#cutoff = cutoff
    this.since = since
    this.#id = id
  }

  static async begin(
    source: MaarchSource,
    target: MaarchImportTarget,
    options: MaarchImportOptions,
  ): Promise<ImportRuns> {
    const identity = sourceIdentity(options.from)
    const since = await resolveSince(source, target, identity, options.since)
    const recorded = options.dryRun !== true && options.only !== 'reference'
    const id = recorded
      ? await startImportRun(target.db, {
          source: identity,
          mode: since === null ? 'full' : 'delta',
          since,
          cutoff: source.cutoff,
        })
      : null
    return new ImportRuns(target, source.cutoff, since, id)
  }

  /** The summary with the run's cut-off; a run that ended whole is marked finished. */
  async end(summary: MaarchImportSummary): Promise<MaarchImportSummary> {
    const ended = { ...summary, cutoff: this.#cutoff.toISOString() }
    if (this.#id !== null && !summary.interrupted)
      await finishImportRun(this.#target.db, this.#id, {
        ...summary.counts,
        ...(summary.delta ? { updated: summary.delta.updated } : {}),
      })
    return ended
  }
}

/** `last`: the cut-off recorded for this source; a date and time as the source reads it (its time zone when none is given). */
async function resolveSince(
  source: MaarchSource,
  target: MaarchImportTarget,
  identity: string,
  since: Date | string | undefined,
): Promise<Date | null> {
  if (since === undefined) return null
  if (since instanceof Date) {
    if (Number.isNaN(since.getTime())) fail('MAARCH_SINCE_INVALID', { since: String(since) })
    return since
  }
  if (since.trim().toLowerCase() === 'last') {
    const last = await lastImportCutoff(target.db, identity)
    if (last === null) fail('MAARCH_NO_EARLIER_IMPORT', { source: identity })
    return last.cutoff
  }
  // The source reads it, as it reads its own timestamps: a read-only statement, the text a parameter.
  if (!/^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?$/.test(since.trim()))
    fail('MAARCH_SINCE_INVALID', { since })
  const [row] = await source
    .rows<{ since: Date }>('select $1::timestamptz as since', [since.trim()])
    .catch(() => fail('MAARCH_SINCE_INVALID', { since }))
  return new Date(row?.since ?? Number.NaN)
}
