/**
 * Soak test (issue #9, not part of CI): a Mailroom server process on a fresh PostgreSQL database,
 * 64 concurrent clients on loopback for 10 minutes of mixed traffic — create 20%, search 50%, content 25%,
 * status 5%. Every 30 s it prints throughput, p50/p99 per operation, errors and the server's RSS. It exits 1
 * when any request failed or when RSS grew after warm-up: the median of the last quarter's samples more than
 * 20% and 48 MB above the median of the second quarter's (judged on runs of four minutes or more).
 *
 *   pnpm soak      SOAK_SECONDS (default 600), SOAK_CLIENTS (default 64), TEST_DATABASE_URL
 */

import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createTestDatabase } from '@mailroom/testing'
import { quantile } from './bench-kit.js'
import { rssGrowth } from './rss-growth.js'

const seconds = Number(process.env.SOAK_SECONDS ?? 600)
const clients = Number(process.env.SOAK_CLIENTS ?? 64)
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const AUTH = {
  authorization: `Basic ${Buffer.from('cchaplin:maarch').toString('base64')}`,
  'content-type': 'application/json',
}

type Operation = 'create' | 'search' | 'content' | 'status'
const MIX: [Operation, number][] = [
  ['create', 0.2],
  ['search', 0.5],
  ['content', 0.25],
  ['status', 0.05],
]

function pick(): Operation {
  let x = Math.random()
  for (const [op, share] of MIX) {
    if (x < share) return op
    x -= share
  }
  return 'search'
}

function textFile(): string {
  return Buffer.from(
    `Courrier de test ${randomBytes(8).toString('hex')}\n${'Lorem ipsum dolor sit amet. '.repeat(40)}`,
  ).toString('base64')
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js'), 'serve'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let output = ''
  let ready = false
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      // Request logs keep flowing; only the start-up lines are kept.
      if (ready) return
      output += chunk
      const match = /ready on (http:\/\/[\d.]+:\d+)/.exec(output)
      if (match) {
        ready = true
        resolve({ child, url: match[1]! })
      }
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)))
  })
}

async function main(): Promise<number> {
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-soak-'))
  const { child, url } = await startServer({
    DATABASE_URL: database.url!,
    MAILROOM_SECRET: 'soak-secret-0123456789abcdef',
    MAILROOM_DOCSERVER_DIR: docserverDir,
    MAILROOM_DEMO: '1',
    LOG_LEVEL: 'info',
  })
  const created: number[] = []
  const stats = new Map<Operation, { latencies: number[]; errors: number; count: number }>(
    MIX.map(([op]) => [op, { latencies: [], errors: 0, count: 0 }]),
  )
  let totalErrors = 0
  const errorSamples: string[] = []

  async function run(op: Operation): Promise<void> {
    if ((op === 'content' || op === 'status') && created.length === 0) op = 'create'
    const started = performance.now()
    let ok = false
    let detail = ''
    try {
      if (op === 'create') {
        const r = await fetch(`${url}/rest/resources`, {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({
            modelId: 1,
            status: 'NEW',
            subject: 'soak',
            chrono: true,
            format: 'txt',
            encodedFile: textFile(),
            destination: 6,
          }),
        })
        const body = (await r.json()) as { resId?: number; errors?: string }
        ok = r.status === 200 && typeof body.resId === 'number'
        if (ok) created.push(body.resId!)
        else detail = `${r.status} ${body.errors}`
      } else if (op === 'search') {
        const r = await fetch(`${url}/rest/res/list`, {
          method: 'POST',
          headers: AUTH,
          body: JSON.stringify({
            select: 'res_id,alt_identifier,status,creation_date',
            clause: "status <> 'DEL' and destination = 'PJS'",
            orderBy: ['res_id desc'],
            limit: 20,
          }),
        })
        ok = r.status === 200
        detail = ok ? '' : `${r.status} ${await r.text()}`
        if (ok) await r.arrayBuffer()
      } else if (op === 'content') {
        const id = created[Math.floor(Math.random() * created.length)]
        const r = await fetch(`${url}/rest/resources/${id}/content`, { headers: AUTH })
        await r.arrayBuffer()
        ok = r.status === 200
        detail = ok ? '' : `${r.status}`
      } else {
        const id = created[Math.floor(Math.random() * created.length)]
        const r = await fetch(`${url}/rest/res/resource/status`, {
          method: 'PUT',
          headers: AUTH,
          body: JSON.stringify({ status: Math.random() < 0.5 ? 'COU' : 'VAL', resId: [id] }),
        })
        await r.arrayBuffer()
        ok = r.status === 200
        detail = ok ? '' : `${r.status}`
      }
    } catch (error) {
      detail = (error as Error).message
    }
    const entry = stats.get(op)!
    entry.count++
    entry.latencies.push(performance.now() - started)
    if (!ok) {
      entry.errors++
      totalErrors++
      if (errorSamples.length < 10) errorSamples.push(`${op}: ${detail}`)
    }
  }

  const started = Date.now()
  const deadline = started + seconds * 1000
  const rss: number[] = []
  let lastReport = started
  const reporter = setInterval(
    () => {
      const now = Date.now()
      const sample = rssMb(child.pid!)
      rss.push(sample)
      const window = (now - lastReport) / 1000
      lastReport = now
      const parts = [...stats].map(([op, s]) => {
        const sorted = s.latencies.sort((a, b) => a - b)
        const line = `${op} ${(s.count / window).toFixed(0)}/s p50 ${quantile(sorted, 0.5).toFixed(1)}ms p99 ${quantile(sorted, 0.99).toFixed(1)}ms err ${s.errors}`
        s.latencies = []
        s.count = 0
        return line
      })
      console.log(
        `[${Math.round((now - started) / 1000)}s] rss ${sample.toFixed(0)} MB | ${parts.join(' | ')} | errors so far ${totalErrors}`,
      )
    },
    Math.min(30_000, seconds * 250),
  )

  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (Date.now() < deadline) await run(pick())
    }),
  )
  clearInterval(reporter)
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
  await database.drop()
  await rm(docserverDir, { recursive: true, force: true })

  const memory = rssGrowth(rss)
  const verdict = !memory.judged ? 'run too short to judge growth' : memory.grew ? 'GREW' : 'flat'
  console.log(
    `\nrecords created: ${created.length}; errors: ${totalErrors}; RSS median of the second quarter ${memory.warmMb.toFixed(0)} MB -> ` +
      `of the last quarter ${memory.lastMb.toFixed(0)} MB (${verdict}); highest sample ${memory.highestMb.toFixed(0)} MB`,
  )
  for (const sample of errorSamples) console.log(`  error: ${sample}`)
  return totalErrors === 0 && !memory.grew ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error)
    process.exit(1)
  },
)
