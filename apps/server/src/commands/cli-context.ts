import type { Logger } from 'pino'

/** What every command of the `mailroom` CLI is given: its environment, a logger and where to write. */
export interface CliContext {
  readonly env: NodeJS.ProcessEnv
  readonly log: Logger
  readonly out: (text: string) => void
  readonly err: (text: string) => void
  /** Where secrets typed or piped in are read from (process.stdin unless a test gives another). */
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean }
  /** The process exit code the command asks for (0 unless set). */
  exitCode: number
}

/** Exit code of a command line that is not understood (missing or extra arguments, unknown option). */
export const USAGE_EXIT_CODE = 2
