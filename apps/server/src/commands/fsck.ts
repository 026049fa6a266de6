import { checkDocumentStorage, documentStoreFor, openDatabase, type StorageCheckReport } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import { documentStoreChoice, loadConfig, type ServerConfig } from '../config.js'
import { holdingDatabase } from './admin-session.js'
import type { CliContext } from './cli-context.js'

/** Parsed arguments of `mailroom fsck`. */
export interface FsckArguments {
  readonly dryRun: boolean
  readonly orphanGraceMs: number
}

function parseMinutes(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('a whole number of minutes is expected')
  return Number(value)
}

/** `mailroom fsck [--dry-run] [--grace-minutes N]`. */
export function registerFsckCommand(program: Command, context: CliContext): void {
  program
    .command('fsck')
    .description('check stored files against the database; remove orphan files')
    .option('-n, --dry-run', 'report orphans without removing them', false)
    .option('--grace-minutes <minutes>', 'keep orphan files younger than this', parseMinutes, 15)
    .action(async (options: { dryRun: boolean; graceMinutes: number }) => {
      const args = { dryRun: options.dryRun, orphanGraceMs: options.graceMinutes * 60_000 }
      const config = loadConfig(context.env, { requireSecret: false })
      // Refused beside a server holding the embedded database: its writes would race the check's.
      context.exitCode = await holdingDatabase(config, 'fsck', () => runFsck(config, args, context.out))
    })
}

/** The human report of a storage check, one finding per line. */
export function formatFsckReport(report: StorageCheckReport, dryRun: boolean): string {
  const lines = [`checked ${report.rowsChecked} file rows and ${report.filesSeen} files`]
  for (const p of report.problems) {
    const what = p.table === 'res_letterbox' ? `record ${p.resId}` : `record ${p.resId} ${p.type} version ${p.version}`
    lines.push(`${p.problem === 'fingerprint' ? 'FINGERPRINT DIFFERS' : p.problem.toUpperCase()}: ${what}: ${p.file}`)
  }
  for (const orphan of report.orphans) lines.push(`${dryRun ? 'orphan (kept, dry run)' : 'orphan removed'}: ${orphan}`)
  lines.push(
    `${report.problems.length} problem(s), ${report.orphans.length} orphan(s)${dryRun ? '' : ` removed: ${report.removed.length}`}`,
  )
  return `${lines.join('\n')}\n`
}

/**
 * `mailroom fsck`: checks the document storage against the database (see checkDocumentStorage) and
 * prints the findings. Exit code 0 when every row has its intact file, 1 otherwise (orphans alone are
 * repaired, so they do not fail the run).
 */
export async function runFsck(
  config: ServerConfig,
  args: FsckArguments,
  write: (text: string) => void,
): Promise<number> {
  const database = await openDatabase(config.database)
  const { store } = documentStoreFor(documentStoreChoice(config))
  try {
    const report = await checkDocumentStorage(database.db, store, {
      dryRun: args.dryRun,
      orphanGraceMs: args.orphanGraceMs,
    })
    write(formatFsckReport(report, args.dryRun))
    return report.problems.length === 0 ? 0 : 1
  } finally {
    await store.close()
    await database.close()
  }
}
