#!/usr/bin/env node
// Packs every published package as npm would receive it and checks the tarballs: only dist JS and .d.ts,
// README, LICENSE and NOTICE; no inlined copy of another package; no export pointing at a file not
// shipped; no workspace: ranges; "ESM only, Node ≥ 22.12" in the README; then publint and
// @arethetypeswrong/cli, whose errors fail the check. Run by `npm test` (scripts/bootstrap.mjs) after the build.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const PUBLISHED = [
  'packages/core',
  'packages/storage',
  'packages/object-store',
  'packages/directory',
  'packages/documents',
  'packages/mailroom',
  'packages/http-koa',
  'packages/sdk',
  'apps/server',
]
// mailroom ships its demo organisation file (demo/) beside its code.
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^NOTICE$/,
  /^dist\/.+\.js$/,
  /^dist\/.+\.d\.ts$/,
  /^demo\/[\w-]+\.yaml$/,
]
// esbuild marks each module it inlines with a `// <path>` line: a path outside the package's own src/ is a copy.
const INLINED = /^\/\/ (?:\.\.\/|node_modules\/|.*\/node_modules\/).*$/m
const bin = (name) => join(root, 'node_modules', '.bin', name)

/** pnpm as bootstrap.mjs finds it: the pinned version on PATH, else through npx. */
function pnpmCommand() {
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1]
  const found = spawnSync('pnpm', ['--version'], { encoding: 'utf8' })
  return found.status === 0 && found.stdout.trim() === pinned ? ['pnpm'] : ['npx', '--yes', `pnpm@${pinned}`]
}

/** Problems of one unpacked tarball: its files and the text of each (null for binary files). */
export function tarballProblems(files, read) {
  const problems = []
  for (const file of files) if (!ALLOWED.some((re) => re.test(file))) problems.push(`ships ${file}`)
  for (const required of ['package.json', 'README.md', 'LICENSE'])
    if (!files.includes(required)) problems.push(`lacks ${required}`)
  for (const file of files.filter((f) => f.endsWith('.js')))
    if (INLINED.test(read(file))) problems.push(`${file} inlines another package: ${read(file).match(INLINED)[0]}`)
  const manifest = JSON.parse(read('package.json'))
  const targets = []
  const walk = (node, path) => {
    if (typeof node === 'string') targets.push([path, node])
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node)) walk(value, [...path, key])
  }
  walk(manifest.exports ?? {}, ['exports'])
  for (const field of ['main', 'types']) if (manifest[field]) targets.push([[field], manifest[field]])
  for (const [name, target] of Object.entries(
    typeof manifest.bin === 'string' ? { bin: manifest.bin } : (manifest.bin ?? {}),
  ))
    targets.push([['bin', name], target])
  for (const [path, target] of targets) {
    if (path.includes('source')) problems.push(`${path.join('.')}: a "source" condition in a published package`)
    if (!files.includes(target.replace(/^\.\//, '')))
      problems.push(`${path.join('.')} points at ${target}, which is not shipped`)
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {}))
      if (String(range).startsWith('workspace:')) problems.push(`${field}.${name} is ${range}`)
  }
  for (const field of ['description', 'license', 'repository', 'homepage', 'bugs', 'engines'])
    if (!manifest[field]) problems.push(`package.json lacks ${field}`)
  const readme = files.includes('README.md') ? read('README.md') : ''
  if (!/ESM only, Node ≥ 22\.12/.test(readme)) problems.push('README.md does not say "ESM only, Node ≥ 22.12"')
  return problems
}

function listFiles(dir, prefix = '') {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  )
}

function main() {
  const out = mkdtempSync(join(tmpdir(), 'mailroom-pack-'))
  let failed = false
  const [pnpm, ...prefix] = pnpmCommand()
  try {
    for (const dir of PUBLISHED) {
      const before = new Set(readdirSync(out))
      execFileSync(pnpm, [...prefix, 'pack', '--pack-destination', out], {
        cwd: join(root, dir),
        stdio: ['ignore', 'ignore', 'inherit'],
      })
      const tarball = join(
        out,
        readdirSync(out).find((f) => !before.has(f) && f.endsWith('.tgz')),
      )
      const unpacked = join(out, `${before.size}`)
      execFileSync('mkdir', ['-p', unpacked])
      execFileSync('tar', ['xzf', tarball, '-C', unpacked])
      const pkg = join(unpacked, 'package')
      const problems = tarballProblems(listFiles(pkg), (file) => readFileSync(join(pkg, file), 'utf8'))
      const publint = spawnSync(bin('publint'), ['run', tarball, '--pack', 'false', '--level', 'warning'], {
        encoding: 'utf8',
      })
      if (publint.status !== 0) problems.push(`publint:\n${publint.stdout}${publint.stderr}`)
      const attw = spawnSync(
        bin('attw'),
        [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'],
        { encoding: 'utf8' },
      )
      if (attw.status !== 0) problems.push(`@arethetypeswrong/cli:\n${attw.stdout}${attw.stderr}`)
      const size = readFileSync(tarball).length
      console.log(`${problems.length ? 'FAIL' : 'ok  '} ${dir} (${(size / 1024).toFixed(0)} kB packed)`)
      for (const problem of problems) console.log(`     ${problem}`)
      failed ||= problems.length > 0
    }
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
  process.exit(failed ? 1 : 0)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
