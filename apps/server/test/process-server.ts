import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createConnection } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mailroomCommand } from './mailroom-command.js'

const serverDir = join(dirname(fileURLToPath(import.meta.url)), '..')
const root = join(serverDir, '..', '..')

/** A `mailroom serve` child process ({@link mailroomCommand}). */
export interface ServerProcess {
  readonly url: string
  readonly child: ChildProcess
  /** Everything the process printed so far. */
  output(): string
  /** Resolves with the exit code (or signal) once the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  kill(signal: NodeJS.Signals): void
}

/** Starts `mailroom serve` on a free port with the given environment; resolves once it logged its URL. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, mailroomCommand('serve'), {
    cwd: root,
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  const url = await new Promise<string>((resolve, reject) => {
    // Generous: loading the demo hashes its passwords, slow on a loaded machine.
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 180_000)
    const check = () => {
      const match = /ready on (http:\/\/[\d.]+:\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout!.on('data', check)
    exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`server exited before it was ready:\n${output}`))
    })
  })
  return { url, child, exited, output: () => output, kill: (signal) => child.kill(signal) }
}

/** A throw-away PostgreSQL cluster this test owns, so it can stop and restart it at will. */
export interface OwnCluster {
  readonly url: string
  stop(): void
  start(): void
  destroy(): Promise<void>
}

function pgBin(): string | null {
  const found = spawnSync('bash', ['-c', 'ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1'], {
    encoding: 'utf8',
  }).stdout.trim()
  return found || null
}

/** True when PostgreSQL server binaries are installed (the test then can own a cluster). */
export function canOwnCluster(): boolean {
  return pgBin() !== null
}

function asPostgres(command: string): void {
  const asRoot = process.getuid?.() === 0
  const result = spawnSync(
    asRoot ? 'su' : 'bash',
    asRoot ? ['postgres', '-s', '/bin/bash', '-c', command] : ['-c', command],
    { encoding: 'utf8' },
  )
  if (result.status !== 0) throw new Error(`${command}\n${result.stdout}${result.stderr}`)
}

/** initdb + start on a free port, trust authentication, database `test`. */
export async function createOwnCluster(): Promise<OwnCluster> {
  const bin = pgBin()
  if (!bin) throw new Error('PostgreSQL binaries are not installed')
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-cluster-'))
  spawnSync('chown', ['postgres:postgres', dir])
  // Below Linux's ephemeral range (32768–60999), where any outgoing connection of the run may hold a port (a
  // cluster on 57210 once found it taken); another listener can still hold one: the first start tries three.
  const pickPort = () => 20000 + Math.floor(Math.random() * 10000)
  let port = pickPort()
  asPostgres(`'${bin}/initdb' -D '${dir}/data' -U postgres --auth=trust -E UTF8 >/dev/null`)
  const start = () =>
    asPostgres(
      `'${bin}/pg_ctl' -D '${dir}/data' -o '-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off' -l '${dir}/log' -w start >/dev/null`,
    )
  for (let attempt = 1; ; attempt++) {
    try {
      start()
      break
    } catch (error) {
      if (attempt === 3) throw error
      port = pickPort()
    }
  }
  asPostgres(`'${bin}/createdb' -h 127.0.0.1 -p ${port} -U postgres test`)
  return {
    url: `postgres://postgres@127.0.0.1:${port}/test`,
    stop: () => asPostgres(`'${bin}/pg_ctl' -D '${dir}/data' -m immediate -w stop >/dev/null`),
    start,
    async destroy() {
      try {
        asPostgres(`'${bin}/pg_ctl' -D '${dir}/data' -m immediate -w stop >/dev/null 2>&1 || true`)
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  }
}

/** Resolves when a TCP port accepts connections. */
export function portOpen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection(port, host)
    socket.setTimeout(1000)
    socket.once('connect', () => {
      socket.end()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
    socket.once('timeout', () => {
      socket.destroy()
      resolve(false)
    })
  })
}

/** Basic authorization header of a demo user. */
export function basicAuth(
  login: string,
  password = login === 'superadmin' ? 'superadmin' : 'maarch',
): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` }
}
