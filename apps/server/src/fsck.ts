import { checkDocumentStorage, DocserverRoot, openDatabase, type StorageCheckReport } from '@mailroom/storage'
import type { ServerConfig } from './config.js'

/** Parsed arguments of `mailroom fsck`. */
export interface FsckArguments {
  readonly dryRun: boolean
  readonly orphanGraceMs: number
}

/** Reads `[--dry-run] [--grace-minutes N]`; null when an argument is not understood. */
export function parseFsckArguments(args: readonly string[]): FsckArguments | null {
  let dryRun = false
  let graceMinutes = 15
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]
    if (arg === '--dry-run' || arg === '-n') dryRun = true
    else if (arg === '--grace-minutes' && /^\d+$/.test(args[i + 1] ?? '')) graceMinutes = Number(args[++i])
    else return null
  }
  return { dryRun, orphanGraceMs: graceMinutes * 60_000 }
}

/** The human report of a storage check, one finding per line. */
export function formatFsckReport(report: StorageCheckReport, dryRun: boolean): string {
  const lines = [`checked ${report.rowsChecked} file rows and ${report.filesSeen} files`]
  for (const p of report.problems) {
    const what = p.table === 'res_letterbox' ? `record ${p.resId}` : `record ${p.resId} ${p.type} version ${p.version}`
    lines.push(`${p.problem === 'fingerprint' ? 'FINGERPRINT DIFFERS' : p.problem.toUpperCase()}: ${what}: ${p.file}`)
  }
  for (const orphan of report.orphans) lines.push(`${dryRun ? 'orphan (kept, dry run)' : 'orphan removed'}: ${orphan}`)
  lines.push(`${report.problems.length} problem(s), ${report.orphans.length} orphan(s)${dryRun ? '' : ` removed: ${report.removed.length}`}`)
  return `${lines.join('\n')}\n`
}

/**
 * `mailroom fsck`: checks the document storage against the database (see checkDocumentStorage) and
 * prints the findings. Exit code 0 when every row has its intact file, 1 otherwise (orphans alone are
 * repaired, so they do not fail the run).
 */
export async function runFsck(config: ServerConfig, args: FsckArguments, write: (text: string) => void): Promise<number> {
  const database = await openDatabase(config.database)
  try {
    const report = await checkDocumentStorage(database.db, new DocserverRoot(config.docserverDir), { dryRun: args.dryRun, orphanGraceMs: args.orphanGraceMs })
    write(formatFsckReport(report, args.dryRun))
    return report.problems.length === 0 ? 0 : 1
  } finally {
    await database.close()
  }
}
