import { type CopyProgress, type CopyReport, copyDocumentStore, type DocumentStore, documentStoreFor, openDatabase } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { documentStoreChoice, loadConfig, type ServerConfig } from '../config.js'
import type { CliContext } from './cli-context.js'

/** One progress line: files done of all, skipped, bytes sent, problems. */
export function formatCopyProgress(p: CopyProgress): string {
  return `${p.done}/${p.files} files, ${p.skipped} already there, ${(p.bytes / 1024 / 1024).toFixed(1)} MiB copied, ${p.problems} problem(s)`
}

/** The closing report, one line per problem file. */
export function formatCopyReport(report: CopyReport, from: string, to: string): string {
  const lines = [`copied from ${from} to ${to}: ${formatCopyProgress(report)}`]
  for (const p of report.problemFiles) lines.push(`${p.problem === 'fingerprint' ? 'FINGERPRINT DIFFERS (not copied)' : p.problem.toUpperCase()}: ${p.key}`)
  lines.push(
    report.problems === 0
      ? `every file is in ${to} with its fingerprint checked: set MAILROOM_DOCSERVER_URL=${to} on every server`
      : 'some files could not be copied: see above (mailroom fsck tells more); run again once mended, copied files are kept',
  )
  return `${lines.join('\n')}\n`
}

/**
 * `mailroom docserver copy --to URL [--from URL]`: copies every stored file the database references to
 * another document store (folder ↔ bucket), checking every fingerprint, resumable (see copyDocumentStore).
 * `--from` defaults to the configured store; S3 URLs use the MAILROOM_S3_* settings and AWS_* keys.
 * Exit code 0 when every file is in the target, 1 otherwise.
 */
export async function runDocserverCopy(config: ServerConfig, urls: { from?: string; to: string }, out: (text: string) => void, progress?: (text: string) => void): Promise<number> {
  const open = (url: string | undefined): DocumentStore =>
    documentStoreFor(url === undefined ? documentStoreChoice(config) : { docserverUrl: url, s3: config.s3 }).store
  const from = open(urls.from)
  const to = open(urls.to)
  const database = await openDatabase(config.database)
  try {
    if (from.description === to.description) throw new Error(`the source and the target are the same store (${from.description})`)
    await to.ensure()
    let last = 0
    const report = await copyDocumentStore(database.db, from, to, (p) => {
      const now = Date.now()
      if (progress && (now - last > 1000 || p.done === p.files)) {
        last = now
        progress(formatCopyProgress(p))
      }
    })
    out(formatCopyReport(report, from.description, to.description))
    return report.problems === 0 ? 0 : 1
  } finally {
    await database.close()
    await from.close()
    await to.close()
  }
}

/** `mailroom docserver copy`. */
export function registerDocserverCommand(program: Command, context: CliContext): void {
  const docserver = program.command('docserver').description('the document storage')
  docserver
    .command('copy')
    .description('copy every stored file to another store (folder or s3://bucket), checking fingerprints; resumable')
    .requiredOption('--to <url>', 's3://BUCKET[/PREFIX], file:///path or a folder')
    .option('--from <url>', 'the store to copy from (default: the configured one)')
    .action(async (options: { to: string; from?: string }) => {
      const config = loadConfig(context.env, { requireSecret: false })
      const tty = (process.stderr as { isTTY?: boolean }).isTTY === true
      context.exitCode = await runDocserverCopy(config, options, context.out, (line) => (tty ? process.stderr.write(`\r${line}\x1b[K`) : context.err(`${line}\n`)))
      if (tty) process.stderr.write('\n')
    })
}
