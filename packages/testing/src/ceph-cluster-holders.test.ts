import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'ceph-test-cluster.sh')

// scripts/ceph-test-cluster.sh's `acquire` and `release`, as two test runs side by side use them, without Ceph: a
// listening socket stands for the gateway (the script asks only whether its port answers), a sleeping process
// with its pid file in the cluster's run/ folder for the daemons, and sleeping processes for the runs.
let base: string
let clusterDir: string
let gateway: Server
let port: number
const sleepers: ChildProcess[] = []
/** Processes the stand-in daemons left, not children of this one: killed after a test whose release failed. */
const strays: number[] = []

function sleeper(): ChildProcess {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' })
  sleepers.push(child)
  return child
}

/** There and not a zombie (a killed child stays one until this process reaps it). */
function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ')
  } catch {
    return false
  }
}

function runScript(...args: string[]) {
  const result = spawnSync('bash', [script, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MAILROOM_CEPH_DIR: clusterDir, MAILROOM_CEPH_RGW_PORT: String(port) },
  })
  return { status: result.status, out: result.stdout }
}

/** A cluster as a run's `start` leaves it: a daemon with its pid file, and the mark of a run's start if asked. */
function runningCluster(startedByARun: boolean): ChildProcess {
  const daemon = sleeper()
  mkdirSync(join(clusterDir, 'run'), { recursive: true })
  writeFileSync(join(clusterDir, 'run', 'osd.0.pid'), String(daemon.pid))
  if (startedByARun) writeFileSync(join(clusterDir, 'started-by-a-run'), '')
  return daemon
}

beforeEach(async () => {
  base = mkdtempSync(join(tmpdir(), 'mailroom-ceph-holders-'))
  clusterDir = join(base, 'cluster')
  gateway = createServer((socket) => socket.end())
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
  port = (gateway.address() as { port: number }).port
})

afterEach(async () => {
  for (const child of sleepers.splice(0)) child.kill('SIGKILL')
  for (const pid of strays.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {}
  }
  await new Promise((resolve) => gateway.close(resolve))
  rmSync(base, { recursive: true, force: true })
})

describe('the Ceph test cluster shared by test runs side by side', () => {
  it('gives a run the gateway settings and notes it as a holder', () => {
    runningCluster(true)
    const run = sleeper()
    const acquired = runScript('acquire', String(run.pid))
    expect(acquired.status).toBe(0)
    expect(acquired.out).toContain(`MAILROOM_S3_ENDPOINT=http://127.0.0.1:${port}`)
    expect(readdirSync(join(clusterDir, 'holders'))).toEqual([String(run.pid)])
  })

  it('stops a cluster a run started only when the last live run releases it', () => {
    const daemon = runningCluster(true)
    const first = sleeper()
    const second = sleeper()
    expect(runScript('acquire', String(first.pid)).status).toBe(0)
    expect(runScript('acquire', String(second.pid)).status).toBe(0)

    expect(runScript('release', String(first.pid)).status).toBe(0)
    expect([alive(daemon.pid!), existsSync(clusterDir)]).toEqual([true, true])

    expect(runScript('release', String(second.pid)).status).toBe(0)
    expect(existsSync(clusterDir)).toBe(false)
    expect(alive(daemon.pid!)).toBe(false)
  })

  it('does not count a run that died without releasing', async () => {
    const daemon = runningCluster(true)
    const dead = sleeper()
    const live = sleeper()
    runScript('acquire', String(dead.pid))
    runScript('acquire', String(live.pid))
    // Reaped (not a zombie, which `kill -0` still finds) before the release looks.
    const reaped = new Promise((resolve) => dead.once('exit', resolve))
    dead.kill('SIGKILL')
    await reaped
    expect(runScript('release', String(live.pid)).status).toBe(0)
    expect([alive(daemon.pid!), existsSync(clusterDir)]).toEqual([false, false])
  })

  it('leaves a cluster started by hand running when its last run releases it', () => {
    const daemon = runningCluster(false)
    const run = sleeper()
    runScript('acquire', String(run.pid))
    expect(runScript('release', String(run.pid)).status).toBe(0)
    expect([alive(daemon.pid!), existsSync(join(clusterDir, 'run', 'osd.0.pid'))]).toEqual([true, true])
    expect(readdirSync(join(clusterDir, 'holders'))).toEqual([])
  })

  it('starts a cluster whose daemons do not hold the lock, so the run releases and stops it', async () => {
    // Stand-ins for Ceph's programs: the daemons are background processes with pid files, as Ceph's own, and the
    // gateway a listening socket on the cluster's port. They keep the descriptors the script gives them.
    await new Promise((resolve) => gateway.close(resolve))
    const bin = join(base, 'bin')
    mkdirSync(bin)
    const stub = (name: string, body: string) => {
      writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${body}\n`)
      chmodSync(join(bin, name), 0o755)
    }
    const daemon = (pidName: string, command: string) =>
      `case " $* " in *" --mkfs "*) exit 0;; esac\nconf=$2\n${command} >/dev/null 2>&1 &\necho $! > "$(dirname "$conf")/run/${pidName}.pid"`
    stub('ceph-mon', daemon('mon.a', 'sleep 300'))
    stub('ceph-osd', daemon('osd.0', 'sleep 300'))
    stub(
      'radosgw',
      daemon(
        'client.rgw.mailroom',
        `node -e "require('net').createServer((s) => s.end()).listen(${port}, '127.0.0.1')"`,
      ),
    )
    stub('ceph', `echo '{"num_up_osds":1}'`)
    stub('monmaptool', 'exit 0')
    stub('radosgw-admin', 'exit 0')
    const withStubs = (...args: string[]) =>
      spawnSync('bash', [script, ...args], {
        encoding: 'utf8',
        timeout: 20_000,
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          MAILROOM_CEPH_DIR: clusterDir,
          MAILROOM_CEPH_RGW_PORT: String(port),
        },
      })
    const run = sleeper()
    const acquired = withStubs('acquire', String(run.pid))
    expect([acquired.status, acquired.stdout]).toEqual([0, expect.stringContaining('MAILROOM_S3_ENDPOINT=')])
    const pids = readdirSync(join(clusterDir, 'run')).map((file) =>
      Number(readFileSync(join(clusterDir, 'run', file), 'utf8')),
    )
    expect(pids.filter(alive)).toHaveLength(3)
    strays.push(...pids)

    expect(withStubs('release', String(run.pid)).status).toBe(0)
    expect(existsSync(clusterDir)).toBe(false)
    expect(pids.filter(alive)).toEqual([])
  })

  it('refuses a holder that is not a process id', () => {
    runningCluster(true)
    expect(runScript('acquire', '../x').status).toBe(2)
    expect(runScript('release', '').status).toBe(2)
  })
})
