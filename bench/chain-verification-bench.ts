/**
 * The cost of `GET /rest/digitalSafe/{safe}/verification` on a long chain (issue #33 part 4): the demo safe
 * is given BENCH_EVENTS chained events (core's builders, inserted in batches), then
 *   - the first call (no verified point yet: the whole chain), a full walk (`full=true`), the resumed call
 *     when nothing was added (many times: p50/p99) and after 1,000 events were added;
 *   - an ordinary entity read (bbain, 2 clients) alone, beside eight callers looping on another entity read
 *     (what any load of eight clients costs), beside eight callers repeating the verification, and beside
 *     eight callers repeating `full=true` (what every call cost before).
 * On PostgreSQL; the HTTP loads run in worker threads.
 *
 *   pnpm bench:chain-verification
 *   BENCH_EVENTS (default 1,000,000), BENCH_SECONDS (per load phase, default 10), TEST_DATABASE_URL
 */
import { mkdtemp, rm } from 'node:fs/promises'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp, createHttpServer } from '@mailroom/http-koa'
import { createMailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_SECRET } from '@mailroom/testing'
import { appendBuiltEvents, DEMO_SAFE, type EventSpec } from '../packages/storage/test/journal-fixtures.js'
import { type HttpPhaseResult, runHttpPhase } from './http-load.js'

const events = Number(process.env.BENCH_EVENTS ?? 1_000_000)
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const CALLERS = 8
const USER_CLIENTS = 2
const CHUNK = 10_000

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`

function line(r: HttpPhaseResult): string {
  return `${r.name.padEnd(32)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(1).padStart(7)} ms  p99 ${r.p99.toFixed(1).padStart(8)} ms  errors ${r.errors}`
}

function specs(from: number, count: number, start: number): EventSpec[] {
  return Array.from({ length: count }, (_, i) => ({
    kind: (from + i) % 3 === 0 ? 'deposit' : 'consultation',
    archiveId: `bench-${from + i}`,
    originatorArchiveId: String(from + i),
    timestamp: new Date(start + from + i),
    orgUnit: 'PJS',
    account: 'bbain',
  }))
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-chain-bench-'))
  const mailroom = await createMailroom({
    database: database.target,
    docserverDir,
    secret: TEST_SECRET,
    demo: true,
    throttle: false,
    journal: { sweepIntervalMs: 0 },
  })
  const server = createHttpServer(createHttpApp({ services: mailroom }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const verification = `${base}/rest/digitalSafe/${DEMO_SAFE}/verification`
  const bbain = { authorization: basic('bbain:maarch') }
  const root = { authorization: basic('superadmin:superadmin') }
  const timed = async (url: string, headers: Record<string, string>) => {
    const started = performance.now()
    const response = await fetch(url, { headers })
    const body = (await response.json()) as { verified: boolean; eventsChecked: number; resumedAfter?: number }
    if (response.status !== 200 || !body.verified) throw new Error(`verification answered ${response.status}`)
    return { ms: performance.now() - started, body }
  }
  try {
    const filling = performance.now()
    const start = Date.UTC(2020, 0, 1)
    for (let from = 0; from < events; from += CHUNK)
      await appendBuiltEvents(mailroom.db, DEMO_SAFE, specs(from, Math.min(CHUNK, events - from), start))
    console.log(
      `Chain verification on PostgreSQL: ${events.toLocaleString('en')} events in the demo safe (written in ${((performance.now() - filling) / 1000).toFixed(0)} s)`,
    )

    const first = await timed(verification, bbain)
    console.log(
      `  first call (no verified point: whole chain)  ${first.ms.toFixed(0).padStart(7)} ms  ${first.body.eventsChecked} events`,
    )
    const full = await timed(`${verification}?full=true`, root)
    console.log(`  full=true (root)                             ${full.ms.toFixed(0).padStart(7)} ms`)
    const resumed: number[] = []
    for (let i = 0; i < 200; i++) resumed.push((await timed(verification, bbain)).ms)
    resumed.sort((a, b) => a - b)
    console.log(
      `  resumed, nothing added (200 calls)           p50 ${percentile(resumed, 50).toFixed(1)} ms  p99 ${percentile(resumed, 99).toFixed(1)} ms`,
    )
    await appendBuiltEvents(mailroom.db, DEMO_SAFE, specs(events, 1000, start))
    const grown = await timed(verification, bbain)
    console.log(
      `  resumed after 1,000 events were added        ${grown.ms.toFixed(1).padStart(7)} ms  (resumed after ${grown.body.resumedAfter})`,
    )

    const read = { url: `${base}/rest/entities/PJS`, headers: bbain }
    await runHttpPhase('warm-up', USER_CLIENTS, 2, read)
    const alone = await runHttpPhase('entity read alone', USER_CLIENTS, seconds, read)
    // Baseline: as many callers looping on an ordinary read, what any load of that many clients costs.
    const [readers, duringReaders] = await Promise.all([
      runHttpPhase(`${CALLERS} callers reading an entity`, CALLERS, seconds, {
        url: `${base}/rest/entities/DGS`,
        headers: bbain,
      }),
      runHttpPhase('entity read beside them', USER_CLIENTS, seconds, read),
    ])
    const [callers, during] = await Promise.all([
      runHttpPhase(`${CALLERS} callers verifying`, CALLERS, seconds, { url: verification, headers: bbain }),
      runHttpPhase('entity read beside them', USER_CLIENTS, seconds, read),
    ])
    const [fullCallers, duringFull] = await Promise.all([
      runHttpPhase(`${CALLERS} callers verifying full=true`, CALLERS, seconds, {
        url: `${verification}?full=true`,
        headers: root,
      }),
      runHttpPhase('entity read beside those', USER_CLIENTS, seconds, read),
    ])
    for (const result of [alone, readers, duringReaders, callers, during, fullCallers, duringFull])
      console.log(`  ${line(result)}`)
    console.log(
      `  entity read p99 beside ${CALLERS} verifying callers / alone: ${(during.p99 / alone.p99).toFixed(2)}x; / beside ${CALLERS} reading callers: ${(during.p99 / duringReaders.p99).toFixed(2)}x (beside full=true callers: ${(duringFull.p99 / alone.p99).toFixed(2)}x)`,
    )
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await mailroom.close()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
