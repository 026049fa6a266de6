import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const BUILT = join(serverDir, 'dist/main.js')

/**
 * Node's arguments that run `mailroom <args>` in a test's child process. `npm test` builds every package
 * before the tests and sets MAILROOM_TEST_BUILT_CLI: the built command then runs, as operators run it (each
 * start from source through tsx cost about 3 s more CPU, and the CLI tests start about seventy processes).
 * A package's own vitest run, in the inner loop, runs the sources, so an edit is tested without a build.
 * `--no-deprecation`: tsx's loader uses `module.register()`, which Node 26 calls deprecated on stderr, where
 * the tests read the command's own messages.
 */
export function mailroomCommand(...args: string[]): string[] {
  if (process.env.MAILROOM_TEST_BUILT_CLI === '1' && existsSync(BUILT)) return [BUILT, ...args]
  return ['--conditions=source', '--no-deprecation', '--import', 'tsx', join(serverDir, 'src/main.ts'), ...args]
}
