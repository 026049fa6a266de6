#!/usr/bin/env node
// Entry of the README's commands on a bare machine (Node + npm only): makes sure the pinned pnpm and the
// locked dependencies are installed, then runs the task. `npm start` / `npm test` and `pnpm start` /
// `pnpm test` all land here.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { IMAGE_TEST_SKIPPED, imageTestWanted, startImageTest } from './image-test.mjs'
import { isSupported, majorOf, nodeBinFor, PREFERRED_MAJOR, runWithNode, SUPPORTED_MAJORS } from './node-release.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// On a Node release Mailroom does not support (or another one than MAILROOM_NODE asks for), the task runs
// on the pinned official binary of a supported release instead, fetched from the npm registry once.
const wantedMajor = Number(
  process.env.MAILROOM_NODE || (isSupported(process.version) ? majorOf(process.version) : PREFERRED_MAJOR),
)
if (majorOf(process.version) !== wantedMajor) {
  const bin = nodeBinFor(wantedMajor)
  const node = join(bin, 'node')
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()
  console.log(
    `Node ${process.version} is not ${process.env.MAILROOM_NODE ? `release ${wantedMajor}` : `a supported release (${SUPPORTED_MAJORS.join(', ')})`}: running on Node ${version}, fetched from the npm registry (checksum checked) into .cache/node`,
  )
  process.exit(await runWithNode(bin, node, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { cwd: root }))
}
const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1]
const task = process.argv[2]
const env = { ...process.env, TURBO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1' }

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env, ...options })
  if (result.error) throw result.error
  return result.status ?? 1
}

function pnpmCommand() {
  try {
    if (
      execFileSync('pnpm', ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() === pinned
    )
      return ['pnpm', []]
  } catch {}
  // corepack refuses pnpm where registry metadata carries no signatures: use npx with the pinned version.
  return ['npx', ['--yes', `pnpm@${pinned}`]]
}

const [pnpm, prefix] = pnpmCommand()
const pn = (...args) => run(pnpm, [...prefix, ...args])

function exitOn(code) {
  if (code !== 0) process.exit(code)
}

// Install only when the lockfile moved since the last install (pnpm records its state in node_modules).
const marker = join(root, 'node_modules', '.modules.yaml')
if (!existsSync(marker) || process.env.CI) exitOn(pn('install', '--frozen-lockfile'))

if (task === 'start') {
  exitOn(pn('exec', 'turbo', 'run', 'build', '--filter=@mailroom/server...', '--output-logs=errors-only'))
  process.exit(run(process.execPath, [join(root, 'apps/server/dist/main.js'), 'serve', ...process.argv.slice(3)]))
}

if (task === 'test') {
  // The real parts the tests drive (LibreOffice, Debian's Chromium, OpenLDAP's slapd, the Python the real capture
  // client runs on, podman for the image test), completed where pieces are missing, as CI does: a fresh clone's
  // `npm test` must not fail for want of them. Each script warns and goes on when it cannot.
  const install = (scripts) => {
    if (!process.env.MAILROOM_SKIP_INSTALLS) for (const script of scripts) run('bash', [join(root, 'scripts', script)])
  }
  // First what the image test needs to start (podman; the capture client's Python, which the server's vitest
  // configuration checks in CI): on a fresh machine it then starts before the other installs' minutes of apt-get.
  install([...(imageTestWanted() ? ['install-podman.sh'] : []), 'install-capture-python.sh'])
  if (!process.env.MAILROOM_SKIP_POSTGRES) {
    const found = spawnSync('bash', [join(root, 'scripts/ensure-postgres.sh')], {
      cwd: root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    if (found.status !== 0) {
      console.error('No PostgreSQL server could be found or started; see scripts/ensure-postgres.sh')
      process.exit(found.status ?? 1)
    }
    env.TEST_DATABASE_URL = found.stdout.trim().split('\n').pop()
    console.log(`PostgreSQL for tests: ${env.TEST_DATABASE_URL}`)
  }
  const reports = join(root, '.test-reports')
  rmSync(reports, { recursive: true, force: true })
  mkdirSync(reports, { recursive: true })
  env.MAILROOM_TEST_REPORT_DIR = reports
  // The container image test beside everything else, from now on (scripts/image-test.mjs): it needs PostgreSQL,
  // not the build or the other installs, and most of its minutes wait on podman, apt and the network while the
  // installs, the build and the suite go on.
  const imageTest = imageTestWanted() ? startImageTest(root, env, startBeside) : null
  if (!imageTest) console.log(IMAGE_TEST_SKIPPED)
  install(['install-libreoffice.sh', 'install-chromium.sh', 'install-slapd.sh', 'install-tesseract.sh'])
  // The object-storage tests run against a real Ceph gateway (scripts/ceph-test-cluster.sh); where none can
  // start (no apt-get, not root) they are skipped, each saying so, and the rest of the suite runs. The run holds
  // the cluster (`acquire`, `release` at its end): a run beside it shares the same one, and whichever run started
  // it, the last to finish stops it; one started by hand is left running.
  let heldCeph = false
  // A cluster to start is started now and awaited after the build: installing and booting it (apt-get, the
  // daemons) waits on the network and the disks while the build and the typecheck keep the cores busy.
  let cephStarting = null
  const useCeph = (settings) => {
    for (const line of settings.trim().split('\n')) {
      const at = line.indexOf('=')
      if (at > 0) env[line.slice(0, at)] = line.slice(at + 1)
    }
    console.log(`Ceph S3 gateway for tests: ${env.MAILROOM_S3_ENDPOINT}`)
  }
  const cephScript = join(root, 'scripts/ceph-test-cluster.sh')
  if (!process.env.MAILROOM_SKIP_CEPH && !process.env.MAILROOM_S3_ENDPOINT) {
    const acquiring = spawn('bash', [cephScript, 'acquire', String(process.pid)], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let settings = ''
    acquiring.stdout.setEncoding('utf8').on('data', (chunk) => (settings += chunk))
    cephStarting = new Promise((resolve) => {
      acquiring.on('error', () => resolve(null))
      acquiring.on('close', (status) => resolve(status === 0 ? settings : null))
    })
  }
  // One folder of templates for the whole run (packages/testing's demo-templates.ts): every package's test
  // Mailrooms start from copies of one migrated demo (or migrated empty database) per database kind, built by the
  // first test that needs it, instead of each package building its own (a PGlite migration is seconds of CPU).
  const templates = mkdtempSync(join(tmpdir(), 'mailroom-templates-'))
  env.MAILROOM_TEST_DEMO_TEMPLATES = templates
  // Ctrl-C reaches every process of the terminal's group: the build or the tests stop, and this process lives on
  // to remove what the run made (the templates and their PostgreSQL databases, its hold on the Ceph cluster). A
  // second Ctrl-C leaves at once; the same one can arrive twice within a moment (from the terminal, and forwarded
  // by scripts/node-release.mjs when this runs on a fetched Node), which is not a second.
  let interrupted = false
  let firstInterrupt = 0
  const onInterrupt = () => {
    if (interrupted && Date.now() - firstInterrupt > 1000) process.exit(130)
    if (interrupted) return
    interrupted = true
    firstInterrupt = Date.now()
    console.log('\ninterrupted: removing what the run made (Ctrl-C again to leave at once)')
  }
  process.on('SIGINT', onInterrupt)
  // Build too: the packages, the example program and the API reference must build from a clean clone.
  const checks =
    pn('exec', 'turbo', 'run', 'build', 'typecheck', '--output-logs=errors-only', '--concurrency=3') ||
    // Every Node-side file (packages, tests, the server, benches, the example) in one TypeScript program: one
    // package's check also read the sources of every package it imports, so checking them one by one read
    // the workspace a dozen times over (1 min 47 s; one program takes 11 s). The console, a browser
    // application with other settings, keeps its own check (the turbo task above).
    pn('exec', 'tsc', '-p', 'tsconfig.json') ||
    // Lint, formatting and import order of the whole tree (packages, scripts, benches, configs) in one pass.
    pn('exec', 'biome', 'ci', '.') ||
    run(process.execPath, ['scripts/api-docs.mjs'])
  // The packed tarballs too: what npm would publish (scripts/check-packages.mjs, publint, arethetypeswrong). It
  // packs the built packages and reads nothing the tests write, so it runs beside them (16 s) instead of before.
  const packageCheck = checks === 0 ? startBeside(['scripts/check-packages.mjs']) : null
  // CI's smoke run on the oldest supported Node (scripts/smoke.sh) of what was just built, beside the suite: a
  // minute of servers and vitest that waited for the suite's end, where the suite leaves part of a core idle.
  // Its report stays out of the closing line (the suite runs the same files on Node 26); its status counts.
  const smokeNode = process.env.MAILROOM_SMOKE_NODE
  const smoke =
    checks === 0 && smokeNode
      ? startBeside(['scripts/node-release.mjs', 'run', smokeNode, '--', 'bash', 'scripts/smoke.sh'], {
          env: { ...env, MAILROOM_TEST_REPORT_DIR: '' },
        })
      : null
  if (cephStarting) {
    const settings = await cephStarting
    if (settings === null) console.log('No Ceph gateway could be started: the object-storage tests will be skipped')
    else {
      heldCeph = true
      useCeph(settings)
    }
  }
  // Every package was just built: the CLI tests start the built `mailroom` (apps/server/test/mailroom-command.ts).
  env.MAILROOM_TEST_BUILT_CLI = '1'
  // Every package's tests in one vitest run of two workers (vitest.suite.config.ts): package after package, each
  // paid vitest's start and ended on its slowest file with a core idle. Two packages at once (four workers on
  // two cores) had made the run slower, not faster (measured on 2026-11-28).
  const tests = checks === 0 ? pn('exec', 'vitest', 'run', '--config', 'vitest.suite.config.ts') : 1
  const packageCheckStatus = packageCheck ? await packageCheck.finished() : 0
  const imageTestStatus = imageTest ? await imageTest.finished() : 0
  const smokeStatus = smoke ? await smoke.finished() : 0
  if (heldCeph) spawnSync('bash', [cephScript, 'release', String(process.pid)], { cwd: root, env, stdio: 'inherit' })
  const templatesModule = join(root, 'packages/testing/dist/databases/demo-templates-setup.js')
  if (existsSync(templatesModule)) {
    const { removeDemoTemplates } = await import(pathToFileURL(templatesModule).href)
    await removeDemoTemplates(templates, env.TEST_DATABASE_URL)
  } else rmSync(templates, { recursive: true, force: true })
  // Counts, and every skipped test named (scripts/test-summary.mjs).
  const { testSummaryLine } = await import('./test-summary.mjs')
  const reportFiles = existsSync(reports) ? readdirSync(reports) : []
  const results = reportFiles.map((file) => JSON.parse(readFileSync(join(reports, file), 'utf8')))
  const failed = results.reduce((sum, report) => sum + (report.numFailedTests ?? 0), 0)
  if (checks !== 0) console.log('build, typecheck or lint/format failed')
  if (packageCheckStatus !== 0) console.log('the package check failed (scripts/check-packages.mjs, above)')
  if (imageTestStatus !== 0) console.log('the container image test failed (its run beside the tests, above)')
  if (smokeStatus !== 0) console.log(`the smoke run on Node ${smokeNode} failed (its run beside the tests, above)`)
  console.log(`\n${testSummaryLine(results, root)}`)
  if (!imageTest) console.log(IMAGE_TEST_SKIPPED)
  const besideStatus = packageCheckStatus || imageTestStatus || smokeStatus
  process.exit(checks !== 0 || besideStatus !== 0 || tests !== 0 || failed > 0 || interrupted ? 1 : 0)
}

/**
 * Starts a Node script beside the tests: its output goes to a file (the tests' run blocks this process, so a
 * pipe would not be read) and is printed, under a heading with its exit status and how long it ran, when
 * `finished()` resolves with that status. `options` may give another folder and environment.
 */
function startBeside(args, options = {}) {
  const folder = mkdtempSync(join(tmpdir(), 'mailroom-beside-'))
  const output = openSync(join(folder, 'output.txt'), 'w')
  const started = Date.now()
  const child = spawn(process.execPath, args, { cwd: root, env, ...options, stdio: ['ignore', output, output] })
  closeSync(output)
  const status = new Promise((resolve) => {
    child.on('error', () => resolve(1))
    child.on('close', (code) => resolve(code ?? 1))
  })
  return {
    async finished() {
      const code = await status
      const seconds = Math.round((Date.now() - started) / 1000)
      console.log(`\n--- ${args.join(' ')} (run beside the tests), exit ${code}, ${seconds} s`)
      process.stdout.write(readFileSync(join(folder, 'output.txt'), 'utf8'))
      rmSync(folder, { recursive: true, force: true })
      return code
    },
  }
}

if (task === 'bench' || task === 'soak') {
  exitOn(pn('exec', 'turbo', 'run', 'build', '--filter=@mailroom/server...', '--output-logs=errors-only'))
  process.exit(pn('--filter', '@mailroom/bench', 'run', task, ...process.argv.slice(3)))
}

console.error(`unknown task: ${task}`)
process.exit(2)
