import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseAllDocuments } from 'yaml'

/** The repository this test runs in. */
export const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..')

/** Why the image test cannot run here, or null when it can: podman, mmdebstrap and git are needed. */
export function imageTestMissing(): string | null {
  for (const tool of ['podman', 'mmdebstrap', 'git'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0)
      return `${tool} is not installed (run scripts/install-podman.sh)`
  return null
}

/** Output of a command that must succeed; throws with what it printed otherwise. */
export function run(command: string, args: readonly string[], options: { cwd?: string } = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? REPOSITORY,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.status !== 0)
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status ?? result.signal}:\n${result.stdout}${result.stderr}`,
    )
  return result.stdout.trim()
}

/** `run`, without blocking: two builds at once (each mostly waits on apt, dpkg and the network). */
export function runBeside(command: string, args: readonly string[], options: { cwd?: string } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPOSITORY, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk))
    child.on('error', reject)
    child.on('close', (status, signal) =>
      status === 0
        ? resolve(output.trim())
        : reject(new Error(`${command} ${args.join(' ')} exited ${status ?? signal}:\n${output}`)),
    )
  })
}

/** podman with the project's flags (deploy/container/podman.sh). */
export function podman(args: readonly string[]): string {
  return run(join(REPOSITORY, 'deploy/container/podman.sh'), args)
}

/** podman that may fail (removing what may not be there). */
export function podmanQuietly(args: readonly string[]): void {
  spawnSync(join(REPOSITORY, 'deploy/container/podman.sh'), args, { stdio: 'ignore' })
}

/**
 * A podman secret holding `data`. Given through a file: podman reads `-` only from a pipe, and Node hands a child
 * its input through a socket.
 */
export function createSecret(name: string, data: string): void {
  const folder = mkdtempSync(join(tmpdir(), 'mailroom-secret-'))
  try {
    writeFileSync(join(folder, 'secret'), data, { mode: 0o600 })
    podman(['secret', 'create', name, join(folder, 'secret')])
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

/** A TCP port free on this machine now (containers on the host's network listen on it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

/** Resolves once `url` answers 200, with the milliseconds waited; throws after `timeoutMs` with `diagnose()`. */
export async function waitFor200(url: string, timeoutMs: number, diagnose: () => string): Promise<number> {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) })
      await response.arrayBuffer()
      if (response.status === 200) return Date.now() - started
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${diagnose()}`)
}

/** The exit code of a stopped container. */
export function exitCodeOf(container: string): number {
  return Number(podman(['inspect', '--format', '{{.State.ExitCode}}', container]))
}

/** The address of a container on podman's bridge network (a pod's containers share their pod's). */
export function addressOf(container: string): string {
  return podman(['inspect', '--format', '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', container])
}

/** A Kubernetes object as parsed from YAML, edited field by field. */
export type KubeObject = Record<string, any>

/** The objects of one of deploy/kubernetes's files, in a checkout (this repository by default). */
export function kubeObjects(file: string, checkout = REPOSITORY): KubeObject[] {
  return parseAllDocuments(readFileSync(join(checkout, 'deploy/kubernetes', file), 'utf8')).map(
    (document) => document.toJS() as KubeObject,
  )
}
