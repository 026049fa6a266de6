import { readFile, writeFile } from 'node:fs/promises'
import {
  compactOrganisation,
  describeSummary,
  type OrganisationPlanSummary,
  organisationJsonSchema,
} from '@mailroom/core'
import { formatOrganisationYaml } from '@mailroom/mailroom'
import { type Command, InvalidArgumentError } from 'commander'
import type { HistoryLine } from '../embedded/operator-operations.js'
import { operate, operatorAuthor, readAll } from './admin-session.js'
import type { CliContext } from './cli-context.js'

function positiveInteger(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('must be an integer from 1 to 1000')
  return n
}

/** A history entry's change in a line: the plan's sections (keys shortened), or the details of a user operation. */
function whatChanged(entry: HistoryLine): string {
  const { summary, prune, ...rest } = entry.details as { summary?: OrganisationPlanSummary; prune?: boolean }
  if (summary === undefined) return JSON.stringify(entry.details)
  return `${prune ? '(prune) ' : ''}${describeSummary(summary).join('; ')}${Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : ''}`
}

/** `mailroom org export|apply|history|schema`: the organisation as a document (docs/organisation.md). */
export function registerOrganisationCommands(program: Command, context: CliContext): void {
  const org = program
    .command('org')
    .description('the organisation: entities, groups, users and reference data as one document')

  org
    .command('export')
    .description('write the organisation as a YAML document (JSON with --json)')
    .option('--out <file>', 'write to a file instead of standard output')
    .option('--json', 'JSON instead of YAML')
    .option('--full', 'write every field, defaults included')
    .option('--with-password-hashes', "include users' password hashes (keep the file secret)")
    .action(async (options: { out?: string; json?: boolean; full?: boolean; withPasswordHashes?: boolean }) => {
      const document = await operate(context, 'org export', 'exportOrganisation', {
        withPasswordHashes: options.withPasswordHashes === true,
      })
      if (document === undefined) return
      const shown = options.full ? document : compactOrganisation(document)
      const text = options.json
        ? `${JSON.stringify(shown, null, 2)}\n`
        : formatOrganisationYaml(shown as typeof document)
      if (options.out) {
        await writeFile(options.out, text, { mode: options.withPasswordHashes ? 0o600 : 0o644 })
        context.out(`organisation written to ${options.out}\n`)
      } else context.out(text)
    })

  org
    .command('apply')
    .description('validate a YAML or JSON document, print the plan and apply it in one transaction')
    .argument('<file>', 'the document ("-" reads standard input)')
    .option('--dry-run', 'validate and print the plan only')
    .option('--prune', 'remove, in each section the file has, what it does not list (never what records use)')
    .action(async (file: string, options: { dryRun?: boolean; prune?: boolean }) => {
      let text: string
      try {
        text = file === '-' ? await readAll(context.stdin ?? process.stdin) : await readFile(file, 'utf8')
      } catch (error) {
        context.err(`cannot read ${file}: ${(error as Error).message}\n`)
        context.exitCode = 1
        return
      }
      const result = await operate(context, 'org apply', 'applyOrganisation', {
        text,
        prune: options.prune === true,
        dryRun: options.dryRun === true,
        author: operatorAuthor(context.env),
      })
      if (result === undefined) return
      context.out(`${result.lines.join('\n')}\n`)
      if (result.lines[0] === 'no changes') return
      context.out(options.dryRun ? 'dry run: nothing was changed\n' : 'applied\n')
    })

  org
    .command('history')
    .description('the changes made to the organisation and its users, newest first')
    .option('--limit <n>', 'how many changes (default 20)', positiveInteger)
    .option('--json', 'one JSON object per line')
    .action(async (options: { limit?: number; json?: boolean }) => {
      const entries = await operate(context, 'org history', 'history', { limit: options.limit ?? 20 })
      if (entries === undefined) return
      if (entries.length === 0) context.out('no changes recorded\n')
      for (const entry of entries) {
        context.out(
          options.json
            ? `${JSON.stringify(entry)}\n`
            : `#${entry.id} ${entry.date} ${entry.event} by ${entry.author}: ${whatChanged(entry)}\n`,
        )
      }
    })

  org
    .command('schema')
    .description('print the JSON Schema of the organisation document (for editors)')
    .action(() => {
      context.out(`${JSON.stringify(organisationJsonSchema(), null, 2)}\n`)
    })
}
