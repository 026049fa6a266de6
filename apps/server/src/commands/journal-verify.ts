import type { JournalVerification, SafeVerification } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { operate } from './admin-session.js'
import type { CliContext } from './cli-context.js'

/** Where the report goes (process.stdout in the CLI). */
export interface ReportSink {
  write(text: string): unknown
}

/** One line per safe: intact with its size and head (worth keeping elsewhere as an anchor), or its first break. */
export function formatSafeVerification(result: SafeVerification): string {
  const found = result.break
  if (found === undefined) {
    if (result.events === 0) return `safe ${result.safe}: intact, no events`
    const head = result.head ? `, head ${result.head.sequence} ${result.head.hash}` : ''
    return `safe ${result.safe}: intact, ${result.events} events, ${result.files} stored files checked${head}`
  }
  if (found.reason === 'unknown-safe') return `safe ${result.safe}: unknown safe`
  const where =
    found.sequence === null
      ? 'after the last event'
      : `at sequence ${found.sequence}${found.eventId ? ` (event ${found.eventId})` : ''}`
  const record = found.resId ? ` [record ${found.resId}]` : ''
  return `safe ${result.safe}: BROKEN ${where}: ${found.reason}${record}: ${found.detail}`
}

/**
 * `mailroom journal verify [safe]`: prints one line per safe and returns the exit code, 0 when every chain
 * and every deposited file is intact, 1 otherwise (each broken safe's line names its first break).
 */
export async function runJournalVerify(
  verify: (safe?: string) => Promise<JournalVerification>,
  safe: string | undefined,
  out: ReportSink,
): Promise<number> {
  const result = await verify(safe)
  if (result.safes.length === 0) {
    out.write('no digital-safe journal to verify\n')
    return 0
  }
  for (const safeResult of result.safes) out.write(`${formatSafeVerification(safeResult)}\n`)
  return result.ok ? 0 : 1
}

/** `mailroom journal verify [safe]`. */
export function registerJournalCommand(program: Command, context: CliContext): void {
  const journal = program.command('journal').description('the digital-safe journal')
  journal
    .command('verify')
    .description('check the digital-safe journal chain and stored files')
    .argument('[safe]', 'one safe (its business id); every safe when omitted')
    .action(async (safe: string | undefined) => {
      // Beside a running server on the embedded database, the server verifies: it seals what it wrote first.
      const result = await operate(context, 'journal verify', 'verifyJournal', safe === undefined ? {} : { safe })
      if (result !== undefined)
        context.exitCode = await runJournalVerify(async () => result, safe, { write: context.out })
    })
}
