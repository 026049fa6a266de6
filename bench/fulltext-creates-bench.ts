/**
 * Creates/s with the full-text queue on and off (issue #35: "creates/s unchanged with the queue on"): the
 * create benchmark's load (bench/create-bench.ts: 16 HTTP clients in a worker thread posting a 20 KB PDF to
 * POST /rest/resources on a fresh PostgreSQL database), in alternating rounds of three phases on the same
 * database, in the same run:
 *
 * - `off`: the queue's trigger disabled, no extraction anywhere (Mailroom before issue #35);
 * - `queued`: the trigger on, no extraction (what the create itself pays: its job row);
 * - `extract`: the trigger on, served by a server with the default extraction (one background worker,
 *   pdftotext on every created file, woken by each create), as an installation runs by default.
 *
 * Every phase runs on a Mailroom instance (in this process) started for it and warmed up alike
 * (BENCH_WARMUP_SECONDS of unmeasured creates with the trigger off). Each phase's creates/s is compared with
 * the `off` phase of its round; the report gives the ratios per round and their medians, and how many files
 * the worker extracted during its phase (it cannot keep up with hundreds of creates a second on two cores:
 * the queue grows, the creates do not wait for it). Jobs left at the end of a phase are removed, so no phase
 * extracts another's backlog.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext-creates (after pnpm build)
 *   BENCH_SECONDS (default 10), BENCH_CLIENTS (16), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (5), TEST_DATABASE_URL
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp } from '@mailroom/http-koa'
import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { sql } from 'kysely'
import { BENCH_CREATE_HEADERS, benchCreateBody, makeBenchPdf, median } from './bench-kit.js'
import { type HttpPhaseResult, type LoadRequest, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5)

type PhaseName = 'off' | 'queued' | 'extract'

async function listen(mailroom: Mailroom): Promise<{ server: Server; url: string }> {
  const server = createServer(createHttpApp({ services: mailroom }).callback())
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/resources` }
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections()
  await new Promise<void>((resolve) => server.close(() => resolve()))
}

function print(name: string, result: HttpPhaseResult, extra = ''): void {
  console.log(
    `${name.padEnd(12)} ${result.perSecond.toFixed(0).padStart(6)} creates/s  ${String(result.count).padStart(6)} creates  ` +
      `p50 ${result.p50.toFixed(1)} ms  p99 ${result.p99.toFixed(1)} ms  errors ${result.errors}  ` +
      `machine CPU ${result.machineCpuMsPerResponse.toFixed(2)} ms/create (server ${result.serverCpuMsPerResponse.toFixed(2)}, PostgreSQL ${result.postgresCpuMsPerResponse.toFixed(2)})${extra}`,
  )
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-creates-bench-'))
  const common = {
    database: { ...(database.target as { kind: 'postgres'; url: string }), poolSize: 20 },
    docserverDir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    throttle: false,
  } as const
  // Holds the demo organisation and runs the queries between phases; it serves no create and extracts nothing.
  const plain = await createMailroom({ ...common, demo: true, fulltext: { workers: 0 } })
  const pdf = makeBenchPdf(2, 20 * 1024)
  const body = benchCreateBody(pdf)
  const headers = BENCH_CREATE_HEADERS
  const load = (url: string): LoadRequest => ({ url, method: 'POST', headers, bodies: [body] })
  const trigger = (on: boolean) =>
    sql.raw(`alter table res_letterbox ${on ? 'enable' : 'disable'} trigger res_letterbox_fulltext`).execute(plain.db)
  const indexed = async () =>
    Number(
      (await plain.db.selectFrom('fulltext_texts').select(plain.db.fn.countAll<string>().as('n')).executeTakeFirst())
        ?.n ?? 0,
    )
  const clearQueue = () => plain.db.deleteFrom('fulltext_jobs').where('state', 'in', ['pending', 'running']).execute()

  try {
    console.log(
      `Mailroom creates with the full-text queue off and on: ${clients} clients, a ${pdf.length} B text PDF, ${seconds} s per phase after ${warmUpSeconds} s of warm-up, ${rounds} rounds`,
    )
    const perSecond: Record<PhaseName, number[]> = { off: [], queued: [], extract: [] }
    for (let round = 1; round <= rounds; round++) {
      for (const phase of ['off', 'queued', 'extract'] as const) {
        // Every phase on a server of its own, started for it and warmed up alike (JIT, pool, caches) with the
        // trigger off; only the `extract` phase's server has an extraction worker.
        const server = await createMailroom({
          ...common,
          migrate: false,
          fulltext: { workers: phase === 'extract' ? 1 : 0 },
        })
        const its = await listen(server)
        try {
          await trigger(false)
          if (warmUpSeconds > 0) await runHttpPhase('warm-up', clients, warmUpSeconds, load(its.url))
          await plain.journalFlush()
          await trigger(phase !== 'off')
          const before = await indexed()
          const result = await runHttpPhase(`${phase} #${round}`, clients, seconds, load(its.url))
          const done = (await indexed()) - before
          perSecond[phase].push(result.perSecond)
          print(
            `${phase} #${round}`,
            result,
            phase === 'extract' ? `  files extracted meanwhile ${done} (${(done / seconds).toFixed(1)}/s)` : '',
          )
        } finally {
          await close(its.server)
          await server.close()
          await clearQueue()
        }
      }
    }
    const ratios = (phase: PhaseName) => perSecond[phase].map((value, i) => value / perSecond.off[i]!)
    const percents = (values: number[]) =>
      `${values.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}; median ${(median(values) * 100).toFixed(0)}%`
    console.log(`queued/off per round (the create's own cost of being queued): ${percents(ratios('queued'))}`)
    console.log(`extract/off per round (one extraction worker on the same machine): ${percents(ratios('extract'))}`)
  } finally {
    await plain.close()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
