import { availableParallelism } from 'node:os'
import {
  DEFAULT_BATCH_SIZE,
  defaultJobs,
  type ImportProgress,
  type ImportStart,
  importMaarch,
  JsonReportFile,
  type MaarchImportSummary,
  type MaarchImportTarget,
} from '@mailroom/import-maarch'
import { type Command, InvalidArgumentError, Option } from 'commander'
import { loadConfig } from '../config.js'
import { withMailroom } from './admin-session.js'
import type { CliContext } from './cli-context.js'
import { runImportVerify } from './import-maarch-verify.js'
import { progressLines, rateFigures } from './progress-lines.js'

/** `--verify` and its `--json` (import-maarch-verify.ts). */
interface VerifyFlags {
  readonly verify?: boolean
  readonly json?: boolean
}

interface ImportOptions {
  readonly from: string
  readonly docservers: string
  readonly docserver: Record<string, string>
  readonly dryRun?: boolean
  readonly only?: 'reference' | 'records'
  readonly report?: string
  readonly depositor?: string
  readonly authentication?: 'ldap' | 'oidc'
  readonly since?: string
  readonly entrepriseXml?: string
  readonly batchSize?: number
  readonly jobs?: number
  readonly progressInterval: number
}

function positive(name: string, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value)
    if (!Number.isInteger(n) || n < 1 || n > max)
      throw new InvalidArgumentError(`expected a whole number of ${name} from 1 to ${max}`)
    return n
  }
}

function seconds(value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0 || n > 86_400) throw new InvalidArgumentError('expected seconds, from 0 to 86400')
  return n
}

function docserverOverride(value: string, previous: Record<string, string>): Record<string, string> {
  const at = value.indexOf('=')
  if (at <= 0 || at === value.length - 1)
    throw new InvalidArgumentError('expected NAME=DIR (a Maarch docserver_id and the folder holding its files)')
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) }
}

function only(value: string): 'reference' | 'records' {
  if (value !== 'reference' && value !== 'records') throw new InvalidArgumentError('expected reference or records')
  return value
}

const MB = 1024 * 1024

/** Where a run stands, as a progress line (terminal) or a JSON line (anything else) shows it. */
export function progressFigures(progress: ImportProgress, elapsedMs: number) {
  const rates = rateFigures(progress.records, progress.total, progress.bytes, elapsedMs)
  return {
    records: progress.records,
    total: progress.total,
    batches: progress.batches ?? 0,
    bytes: progress.bytes,
    elapsedSeconds: rates.elapsedSeconds,
    recordsPerSecond: rates.perSecond,
    megabytesPerSecond: rates.megabytesPerSecond,
    secondsLeft: rates.secondsLeft,
  }
}

/** One progress line: records and bytes, rate and time left. */
export function formatProgress(progress: ImportProgress, elapsedMs: number): string {
  const f = progressFigures(progress, elapsedMs)
  return `records ${f.records}/${f.total}  ${(f.bytes / MB).toFixed(1)} MB  ${f.recordsPerSecond.toFixed(1)} rec/s  ${f.megabytesPerSecond.toFixed(1)} MB/s  ${f.secondsLeft ?? 0}s left`
}

/** What a run says before its records: where it resumes, what it cleaned up. */
export function formatStart(start: ImportStart): string {
  const lines = [
    start.resumed === null
      ? `starting from the first record: ${start.total} records, batches of ${start.batchSize}, ${start.jobs} at once`
      : `resuming after res_id ${start.resumed.afterResId}: ${start.resumed.records} records in ${start.resumed.batches} batches were imported by earlier runs (${start.total} records in the source, batches of ${start.batchSize}, ${start.jobs} at once)`,
  ]
  if (start.cleaned.batches > 0)
    lines.push(
      `removed ${start.cleaned.files} files of ${start.cleaned.batches} batches an earlier run stored and never committed`,
    )
  return `${lines.join('\n')}\n`
}

/** The summary table printed at the end of a run. */
export function formatSummary(report: MaarchImportSummary): string {
  const rows: [string, string | number][] = [
    ['source', `Maarch Courrier ${report.sourceVersion}`],
    [
      'mode',
      report.dryRun ? 'dry run (nothing written)' : report.interrupted ? 'interrupted (rerun to continue)' : 'import',
    ],
  ]
  if (report.delta) rows.push(['changes since', report.delta.since])
  if (report.organisation)
    rows.push(
      ['organisation', report.organisation.lines.join('; ')],
      ['organisation notes', report.organisation.notes.length],
    )
  if (report.resumed)
    rows.push([
      'resumed',
      `after res_id ${report.resumed.afterResId} (${report.resumed.records} records of ${report.resumed.batches} batches committed before)`,
    ])
  rows.push(
    ['records imported', report.counts.imported],
    ['records skipped', report.counts.skipped],
    ['records repaired', report.counts.repaired],
    ['records flagged', report.counts.flagged],
    ['attachments not imported', report.counts.attachmentsNotImported],
    ['bytes', `${(report.bytes / MB).toFixed(1)} MB`],
  )
  if (report.delta) {
    const carried = Object.entries(report.delta.carried).filter(([, n]) => n > 0)
    rows.push(
      ['records changed since', report.delta.examined],
      ['records updated', report.delta.updated],
      ['records unchanged', report.delta.unchanged],
      ['carried', carried.length > 0 ? carried.map(([kind, n]) => `${kind} ${n}`).join(', ') : 'nothing'],
    )
  }
  if (report.cutoff && !report.dryRun && !report.interrupted)
    rows.push(['source cut-off', `${report.cutoff} (the next delta: --since last)`])
  const width = Math.max(...rows.map(([name]) => name.length))
  const table = `${rows.map(([name, value]) => `${name.padEnd(width)}  ${value}`).join('\n')}\n`
  // Every note in full: a lost clause narrows what a group's users see, and the operator must know whose.
  const notes = report.organisation?.notes ?? []
  if (notes.length === 0) return table
  return `${table}\norganisation notes:\n${notes.map((n) => `- ${n.section} ${n.id}: ${n.message}`).join('\n')}\n`
}

/** `mailroom import maarch`: carries a Maarch Courrier 20.10 installation over (docs/migrating-from-maarch.md). */
export function registerImportCommand(program: Command, context: CliContext): void {
  const group = program.command('import').description('import another installation')
  group
    .command('maarch')
    .description('import a Maarch Courrier 20.10 database and its docservers (the source is only read)')
    .addOption(
      new Option(
        '--verify',
        'import nothing: compare the source with this Mailroom, read only on both sides (counts and every difference; exit code 1 on any)',
      ).conflicts(['dryRun', 'only', 'report', 'depositor']),
    )
    .option('--json', 'with --verify: print the verification as one JSON document')
    .requiredOption('--from <url>', 'the Maarch PostgreSQL database, postgres://…')
    .requiredOption('--docservers <dir>', "the folder standing for Maarch's /opt/maarch/docservers/")
    .option('--docserver <name=dir>', 'a docserver whose files live elsewhere (repeatable)', docserverOverride, {})
    .option('--dry-run', 'check and report without writing anything')
    .option('--only <part>', 'reference (organisation) or records', only)
    .option(
      '--depositor <login>',
      'who records and deposits the records whose Maarch typist is not imported (default: superadmin)',
    )
    .addOption(
      new Option(
        '--authentication <method>',
        'how the imported users sign in, for an installation whose login_method.xml is not standard (web-service and root users keep their Maarch password)',
      ).choices(['ldap', 'oidc']),
    )
    .option(
      '--since <when>',
      'a delta: only what changed in the source since then; last (the cut-off of the last import from it) or a date and time (2026-11-27T22:00:00Z)',
    )
    .option(
      '--entreprise-xml <file>',
      "the installation's apps/maarch_entreprise/xml/entreprise.xml (its custom copy when it has one), where 20.10 keeps its attachment types (default: the types 20.10 installs)",
    )
    .option('--report <file>', 'write the JSON report there, record by record as the import goes')
    .option(
      '--batch-size <records>',
      `records committed together, their files made durable together first (default ${DEFAULT_BATCH_SIZE})`,
      positive('records', 10_000),
    )
    .option(
      '--jobs <batches>',
      `batches written at once (default ${defaultJobs()} here: two per core, at least 4)`,
      positive('batches', Math.max(64, availableParallelism() * 4)),
    )
    .option(
      '--progress-interval <seconds>',
      'seconds between two progress JSON lines when standard error is not a terminal (0: after every batch, or every range --verify compares)',
      seconds,
      10,
    )
    .action(async (options: ImportOptions & VerifyFlags) => {
      if (options.verify) return runImportVerify(context, options)
      const { docserverDir } = loadConfig(context.env, { requireSecret: false })
      await withMailroom(context, 'import maarch', (mailroom) => runImport(context, mailroom, options, docserverDir))
    })
}

/** One import run on an open Mailroom: progress, summary, report; Ctrl-C asks it to stop. */
async function runImport(
  context: CliContext,
  mailroom: MaarchImportTarget,
  options: ImportOptions,
  docserverDir: string,
): Promise<void> {
  const abort = new AbortController()
  // Ctrl-C lets the batches in flight commit, then stops: whole batches only, a rerun continues.
  const stop = () => abort.abort()
  process.once('SIGINT', stop)
  const tty = process.stderr.isTTY === true
  const progress = progressLines<ImportProgress>(
    { line: formatProgress, figures: progressFigures },
    options.progressInterval,
  )
  // Streamed: the report of 100,000 records is never held in memory.
  const reportFile = options.report ? await JsonReportFile.create(options.report) : undefined
  try {
    const summary = await importMaarch(mailroom, {
      from: options.from,
      docservers: { root: options.docservers, overrides: options.docserver },
      docserverDir,
      ...(options.dryRun ? { dryRun: true } : {}),
      ...(options.only ? { only: options.only } : {}),
      ...(options.depositor ? { fallbackDepositor: options.depositor } : {}),
      ...(options.authentication ? { authentication: options.authentication } : {}),
      ...(options.since ? { since: options.since } : {}),
      ...(options.entrepriseXml ? { entrepriseXml: options.entrepriseXml } : {}),
      ...(options.batchSize ? { batchSize: options.batchSize } : {}),
      ...(options.jobs ? { jobs: options.jobs } : {}),
      signal: abort.signal,
      ...(reportFile ? { report: reportFile } : {}),
      onStart: (start) => {
        progress.wait()
        if (tty) process.stderr.write(formatStart(start))
        else
          process.stderr.write(
            `${JSON.stringify({ event: 'start', total: start.total, resumedAfter: start.resumed?.afterResId ?? null, alreadyImported: start.resumed?.records ?? 0, batchSize: start.batchSize, jobs: start.jobs, removedFiles: start.cleaned.files })}\n`,
          )
      },
      onProgress: (p) => progress.show(p),
    })
    // The closing figures (100% when whole).
    progress.finish()
    context.out(formatSummary(summary))
    if (reportFile) {
      await reportFile.finish(summary)
      context.out(`report written to ${options.report}\n`)
    }
    context.exitCode = summary.interrupted ? 130 : 0
  } finally {
    process.removeListener('SIGINT', stop)
    await reportFile?.close()
  }
}
