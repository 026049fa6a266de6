import type { FullTextQueueStatus } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { operate } from './admin-session.js'
import type { CliContext } from './cli-context.js'

/** The queue as `mailroom fulltext status` prints it: counts, the oldest wait, the latest failures. */
export function formatFullTextStatus(status: FullTextQueueStatus): string {
  const lines = [
    `indexed files: ${status.indexed}`,
    `waiting: ${status.pending}${status.pending > 0 ? ` (oldest ${Math.round(status.oldestPendingSeconds)} s)` : ''}`,
    `being extracted: ${status.running}`,
    `failed: ${status.failed}${status.failed > 0 ? ' (mailroom fulltext reindex tries them again)' : ''}`,
  ]
  for (const failure of status.recentFailures)
    lines.push(
      `  record ${failure.resId} ${failure.fileKind} ${failure.fileId}, ${failure.attempts} tries: ${failure.error}`,
    )
  return `${lines.join('\n')}\n`
}

/** `mailroom fulltext status [--failures N] [--json]` and `mailroom fulltext reindex`. */
export function registerFullTextCommands(program: Command, context: CliContext): void {
  const fulltext = program.command('fulltext').description('full-text search: the extraction queue and the index')
  fulltext
    .command('status')
    .description('files indexed, waiting, being extracted and failed (exit code 1 when some failed)')
    .option('--failures <count>', 'latest failures to list', '10')
    .option('--json', 'print the status as JSON')
    .action(async (options: { failures: string; json?: boolean }) => {
      const failures = Number(options.failures)
      if (!Number.isInteger(failures) || failures < 0 || failures > 1000) {
        context.err('--failures must be an integer from 0 to 1000\n')
        context.exitCode = 2
        return
      }
      const status = await operate(context, 'fulltext status', 'fulltextStatus', { failures })
      if (status === undefined) return
      context.out(options.json ? `${JSON.stringify(status, null, 2)}\n` : formatFullTextStatus(status))
      if (status.failed > 0) context.exitCode = 1
    })
  fulltext
    .command('reindex')
    .description(
      'queue every record not yet indexed (imported, or there before), try the failed again, and index again from the kept text those of another language',
    )
    .action(async () => {
      const result = await operate(context, 'fulltext reindex', 'fulltextReindex', {})
      if (result === undefined) return
      context.out(
        `queued ${result.enqueued} files, retrying ${result.retried} failed, re-indexed ${result.reindexed} kept texts in the current language\n`,
      )
    })
}
