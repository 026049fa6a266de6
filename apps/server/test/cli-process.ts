import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mailroomCommand } from './mailroom-command.js'

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..')

/** What one `mailroom` process printed and how it ended. */
export interface CommandRun {
  readonly code: number | null
  readonly out: string
  readonly err: string
}

/**
 * Runs `mailroom <args>` as a process of its own ({@link mailroomCommand}), with `stdin` piped in (nothing by
 * default).
 */
export function runMailroomProcess(args: string[], env: Record<string, string>, stdin = ''): Promise<CommandRun> {
  const child = spawn(process.execPath, mailroomCommand(...args), {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (chunk) => (out += chunk))
  child.stderr.on('data', (chunk) => (err += chunk))
  child.stdin.end(stdin)
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, out, err })))
}
