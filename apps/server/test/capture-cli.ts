import { Readable } from 'node:stream'
import { vi } from 'vitest'
import { runCli } from '../src/cli.js'

/** What one CLI run printed and returned. */
export interface CliRun {
  readonly code: number
  readonly out: string
  readonly err: string
}

/** Runs the CLI with `env`, capturing standard output and error; `stdin` is what is piped in, if anything. */
export async function captureCli(args: string[], env: NodeJS.ProcessEnv, stdin?: string): Promise<CliRun> {
  let out = ''
  let err = ''
  const stdout = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    out += String(chunk)
    return true
  })
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    err += String(chunk)
    return true
  })
  try {
    const io = stdin === undefined ? {} : { stdin: Readable.from([stdin]) }
    return { code: await runCli(args, env, io), out, err }
  } finally {
    stdout.mockRestore()
    stderr.mockRestore()
  }
}
