import { isDomainError } from '@mailroom/core'
import {
  type MaarchVerification,
  type VerifyDifference,
  type VerifyKind,
  type VerifyProgress,
  verifyMaarchImport,
} from '@mailroom/import-maarch'
import { documentStoreFor, openDatabase } from '@mailroom/mailroom'
import { documentStoreChoice, loadConfig } from '../config.js'
import { holdingDatabase } from './admin-session.js'
import type { CliContext } from './cli-context.js'
import { progressLines, rateFigures } from './progress-lines.js'

/** What `mailroom import maarch --verify` is given (the import's own source options, and `--json`). */
export interface VerifyCommandOptions {
  readonly from: string
  readonly docservers: string
  readonly docserver: Record<string, string>
  readonly authentication?: 'ldap' | 'oidc'
  readonly json?: boolean
  /** Seconds between two progress JSON lines when standard error is not a terminal (the import's option). */
  readonly progressInterval?: number
}

/** Exit code of a verification that found a difference. */
export const VERIFY_DIFFERENCE_EXIT_CODE = 1

/** How the report names each kind. */
const KIND_NAMES: Readonly<Record<VerifyKind, string>> = {
  users: 'users',
  groups: 'groups',
  entities: 'entities',
  contacts: 'contacts',
  records: 'records',
  files: 'files',
  attachments: 'attachments',
  notes: 'notes',
  links: 'links',
  history: 'history rows',
  chronoCounters: 'chrono counters',
}

/** One difference on one line: the kind, the item, what differs, each side's value. */
export function formatDifference(d: VerifyDifference): string {
  const sides = [
    ...(d.source === undefined ? [] : [`source ${d.source ?? '(none)'}`]),
    ...(d.target === undefined ? [] : [`target ${d.target ?? '(none)'}`]),
  ]
  return `DIFFERS  ${KIND_NAMES[d.kind]} ${d.id}: ${d.what}${sides.length > 0 ? ` (${sides.join('; ')})` : ''}`
}

/** Where a verification stands, as a JSON progress line gives it. */
export function verifyProgressFigures(progress: VerifyProgress, elapsedMs: number) {
  const rates = rateFigures(progress.items, progress.total, progress.bytes, elapsedMs)
  return {
    verified: progress.items,
    total: progress.total,
    bytes: progress.bytes,
    elapsedSeconds: rates.elapsedSeconds,
    itemsPerSecond: rates.perSecond,
    megabytesPerSecond: rates.megabytesPerSecond,
    secondsLeft: rates.secondsLeft,
  }
}

/** One progress line for a terminal: records and attachments compared, files read, rate and time left. */
export function formatVerifyProgress(progress: VerifyProgress, elapsedMs: number): string {
  const f = verifyProgressFigures(progress, elapsedMs)
  return `verified ${f.verified}/${f.total} records and attachments  ${(f.bytes / 1024 / 1024).toFixed(1)} MB of files read  ${f.itemsPerSecond.toFixed(1)}/s  ${f.secondsLeft ?? 0}s left`
}

/** The closing table: each kind's count on both sides and its differences, then the notes and the verdict. */
export function formatVerification(result: MaarchVerification): string {
  const header = ['kind', 'source', 'target', 'differences']
  const rows = result.kinds.map((k) => [KIND_NAMES[k.kind], String(k.source), String(k.target), String(k.differences)])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ')
  const lines = [`source Maarch Courrier ${result.sourceVersion}`, line(header), ...rows.map(line)]
  for (const note of result.notes) lines.push(`expected: ${note}`)
  lines.push(
    result.ok
      ? 'source and target agree'
      : `${result.differences} difference${result.differences === 1 ? '' : 's'}: see the DIFFERS lines above`,
  )
  return `${lines.join('\n')}\n`
}

/**
 * `mailroom import maarch --verify`: compares the source with this Mailroom (read only on both sides),
 * printing each difference as it is found and the counts at the end, as text or, with `--json`, as one JSON
 * document; exit code 0 when both sides agree, 1 otherwise.
 */
export async function runImportVerify(context: CliContext, options: VerifyCommandOptions): Promise<void> {
  const config = loadConfig(context.env, { requireSecret: false })
  const json = options.json === true
  const progress = progressLines<VerifyProgress>(
    { line: formatVerifyProgress, figures: verifyProgressFigures },
    options.progressInterval ?? 10,
  )
  let first = true
  const onDifference = (d: VerifyDifference) => {
    progress.clear()
    if (!json) return context.out(`${formatDifference(d)}\n`)
    if (first) context.out('{"differences":[\n')
    context.out(`${first ? '' : ',\n'}${JSON.stringify(d)}`)
    first = false
  }
  try {
    const result = await holdingDatabase(config, 'import maarch --verify', async () => {
      // Opened as it is, no migration run and no folder or bucket created: the target is only read.
      const database = await openDatabase(config.database)
      const { store, owned } = documentStoreFor(documentStoreChoice(config))
      try {
        return await verifyMaarchImport(
          { db: database.db, documentStore: store },
          {
            from: options.from,
            docservers: { root: options.docservers, overrides: options.docserver },
            ...(options.authentication ? { authentication: options.authentication } : {}),
            onDifference,
            onProgress: (p) => progress.show(p),
          },
        )
      } finally {
        if (owned) await store.close()
        await database.close()
      }
    })
    progress.finish()
    if (json) {
      const { sourceVersion, ok, kinds, differences, notes } = result
      const rest = JSON.stringify({ sourceVersion, ok, differenceCount: differences, kinds, notes })
      context.out(`${first ? '{"differences":[' : '\n'}],${rest.slice(1)}\n`)
    } else context.out(formatVerification(result))
    context.exitCode = result.ok ? 0 : VERIFY_DIFFERENCE_EXIT_CODE
  } catch (error) {
    if (!isDomainError(error)) throw error
    context.err(`${error.message}\n`)
    context.exitCode = 1
  }
}
