/**
 * Baskets and actions (issue #53, "Speed"), on PostgreSQL, for the demo clerk bbain with the publisher's sample
 * baskets of her group (AGENT: 14, two of which the clause language refuses and which count 0, as 20.10's):
 *
 * 1. At the sample's size (20 records, BENCH_SAMPLE_RECORDS): every new route beside its bare-HTTP floor, a bare
 *    node:http server that runs the very statements the route sent (captured from its kysely log; the
 *    authentication's left out) one after the other and answers their rows as JSON. Target: >= 70 %.
 * 2. At BENCH_RECORDS (default 100,000; `bench:baskets-million` for 1,000,000):
 *    - the home page: HTTP p99 for one clerk (target <= 100 ms; at BENCH_CLIENTS reported beside the bare SQL's)
 *      and its rate beside the same count statements run directly through `pg` (target >= 0.8);
 *    - MyBasket's first page: HTTP p99 at BENCH_CLIENTS and for one clerk (target <= 50 ms);
 *    - "Traiter courrier" (confirmAction, status COU) on 100 letters beside the same status changes through
 *      PUT /rest/res/resource/status (target: letters per second >= 0.5 of it);
 *    - the search guard rail for a clerk whose perimeter her baskets widen: POST /rest/res/list beside its
 *      bare-HTTP floor (target >= 80 %).
 *
 *   pnpm bench:baskets (also part of pnpm bench); pnpm bench:baskets-million
 *   BENCH_SECONDS (per phase, default 5), BENCH_CLIENTS (default 4), BENCH_ROUNDS (baseline and Mailroom in turns,
 *   default 3, the median ratio reported), BENCH_RECORDS, BENCH_SAMPLE_RECORDS,
 *   TEST_DATABASE_URL, BENCH_KEEP_DATABASE (keep the large database and print its URL)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp } from '@mailroom/http-koa'
import { createMailroom, databaseFromKysely, MAILROOM_PG_TYPES, preparingPool } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { giveSampleBaskets, seedBasketRecords } from './basket-records.js'
import { median, type PhaseResult, runPhase } from './bench-kit.js'
import { type LoadRequest, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const clients = Number(process.env.BENCH_CLIENTS ?? 4)
const recordCount = Number(process.env.BENCH_RECORDS ?? 100_000)
const sampleCount = Number(process.env.BENCH_SAMPLE_RECORDS ?? 20)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
const BBAIN = 3
const AUTH = { authorization: `Basic ${Buffer.from('bbain:maarch').toString('base64')}` }
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' }

/** One statement as the service sent it. */
interface Statement {
  readonly sql: string
  readonly parameters: readonly unknown[]
}

/** A seeded database with Mailroom serving it, and what the phases need of it. */
interface Bench {
  readonly base: string
  readonly direct: pg.Pool
  /** The statements the service sends while `run` runs (one request at a time). */
  capture(run: () => Promise<unknown>): Promise<Statement[]>
  readonly groupId: number
  readonly basketIds: ReadonlyMap<string, number>
  close(): Promise<void>
}

async function openBench(records: number): Promise<Bench> {
  const database = await createTestDatabase('postgres')
  const url = database.url as string
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-baskets-bench-'))
  const servicePool = new pg.Pool({
    connectionString: url,
    max: clients + 2,
    types: MAILROOM_PG_TYPES,
  } as pg.PoolConfig)
  const direct = new pg.Pool({ connectionString: url, max: clients, types: MAILROOM_PG_TYPES } as pg.PoolConfig)
  servicePool.on('error', () => {})
  direct.on('error', () => {})
  let captured: Statement[] | null = null
  // The pool wrapped as openDatabase wraps it, as production runs: repeated statements run as named prepared
  // statements (the baselines and floors send theirs unnamed, as the other benchmarks' do).
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: preparingPool(servicePool) }),
    log: (event) => {
      if (event.level === 'query' && captured)
        captured.push({ sql: event.query.sql, parameters: [...event.query.parameters] })
    },
  })
  const mailroom = await createMailroom({
    database: databaseFromKysely(db),
    docserverDir,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
    throttle: false,
  })
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const sample = await giveSampleBaskets(client)
  if ('missing' in sample) console.log(`(${sample.missing}: bbain keeps the demo's baskets)`)
  const t0 = performance.now()
  await seedBasketRecords(url, records)
  const seeded = (performance.now() - t0) / 1000
  const groupId = (await client.query<{ id: number }>("select id from usergroups where group_id = 'AGENT'")).rows[0]!.id
  const basketIds = new Map(
    (await client.query<{ id: number; basket_id: string }>('select id, basket_id from baskets')).rows.map((r) => [
      r.basket_id,
      r.id,
    ]),
  )
  await client.end()
  const server = createServer(createHttpApp({ services: mailroom }).callback())
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  console.log(
    `\n${records.toLocaleString('en')} records seeded in ${seeded.toFixed(1)} s; bbain's baskets: ${'given' in sample ? sample.given.join(', ') : 'the demo’s'}`,
  )
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    direct,
    groupId,
    basketIds,
    async capture(run) {
      captured = []
      try {
        await run()
        return captured
      } finally {
        captured = null
      }
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await mailroom.close()
      await db.destroy()
      await direct.end()
      // Kept for EXPLAIN on the same data (docs/benchmarks.md); dropped otherwise.
      if (process.env.BENCH_KEEP_DATABASE) console.log(`\nthe database is kept: ${url}`)
      else await database.drop()
      await rm(docserverDir, { recursive: true, force: true })
    },
  }
}

/** One request through fetch, its status checked; the body's text. */
async function call(bench: Bench, request: LoadRequest, body = request.bodies?.[0]): Promise<string> {
  const response = await fetch(request.url, { method: request.method ?? 'GET', headers: request.headers, body })
  const text = await response.text()
  const wanted = typeof request.status === 'number' ? [request.status] : (request.status ?? [200])
  if (!wanted.includes(response.status))
    throw new Error(`${request.method ?? 'GET'} ${request.url.slice(bench.base.length)}: ${response.status} ${text}`)
  return text
}

/** A bare node:http server answering every request with the rows of `statements`, run one after the other. */
async function replayFloor(pool: pg.Pool, statements: readonly Statement[]): Promise<Server> {
  const floor = createServer((req, res) => {
    req.resume()
    req.on('end', async () => {
      try {
        const results: unknown[] = []
        for (const s of statements) results.push((await pool.query(s.sql, s.parameters as unknown[])).rows)
        const json = JSON.stringify(results)
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
        res.end(json)
      } catch {
        res.writeHead(500)
        res.end()
      }
    })
  })
  floor.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve))
  return floor
}

function line(r: PhaseResult, unit = 'req/s'): string {
  return `${r.name.padEnd(14)} ${r.perSecond.toFixed(1).padStart(8)} ${unit}  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms  errors ${r.errors}`
}

const summary: string[] = []
function verdict(text: string, met: boolean): void {
  const said = `${text} ${met ? 'OK' : 'MISSED'}`
  console.log(`  ${said}`)
  summary.push(said)
}

/** The route beside the floor that replays its statements but the authentication's. Returns the ratio. */
async function routeBesideFloor(
  bench: Bench,
  name: string,
  request: LoadRequest,
  auth: ReadonlySet<string>,
  target = 0.7,
) {
  for (let i = 0; i < 20; i++) await call(bench, request)
  const statements = (await bench.capture(() => call(bench, request))).filter((s) => !auth.has(s.sql))
  const floor = await replayFloor(bench.direct, statements)
  const { url: _url, ...rest } = request
  const floorRequest = { ...rest, url: `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`, status: 200 }
  console.log(`\n${name} (${statements.length} statements beside authentication's)`)
  if (process.env.BENCH_VERBOSE) for (const s of statements) console.log(`    ${s.sql.slice(0, 160)}`)
  const ratio = await alternate(
    () => runHttpPhase('bare http', clients, seconds, floorRequest),
    () => runHttpPhase('mailroom', clients, seconds, request),
  )
  floor.closeAllConnections()
  await new Promise<void>((resolve) => floor.close(() => resolve()))
  verdict(
    `${name.padEnd(34)} ${(ratio * 100).toFixed(0)}% of the bare-HTTP floor (target >= ${(target * 100).toFixed(0)}%)`,
    ratio >= target,
  )
  return ratio
}

/**
 * Baseline and Mailroom in turns for BENCH_ROUNDS rounds, each printed; the median of the per-round ratios of
 * their rates (a busy neighbour then slows both sides of a ratio). `per`: the unit's multiple of a request.
 */
async function alternate(
  baseline: () => Promise<PhaseResult>,
  mailroom: () => Promise<PhaseResult>,
  per = 1,
  unit = 'req/s',
): Promise<number> {
  const ratios: number[] = []
  for (let round = 0; round < rounds; round++) {
    const b = await baseline()
    const m = await mailroom()
    ratios.push(m.perSecond / b.perSecond)
    const scaled = (r: PhaseResult) => ({ ...r, perSecond: r.perSecond * per })
    console.log(`  ${line(scaled(b), unit)}`)
    const loop =
      'loopCpuMsPerResponse' in m ? `  loop ${(m.loopCpuMsPerResponse as number).toFixed(2)} ms/response` : ''
    console.log(`  ${line(scaled(m), unit)}${loop}  ratio ${ratios.at(-1)!.toFixed(2)}`)
  }
  return median(ratios)
}

/** The statements of authentication alone: an isAllowed of a malformed id reads nothing else. */
async function authenticationStatements(bench: Bench): Promise<Set<string>> {
  const request = { url: `${bench.base}/rest/resources/x/isAllowed`, headers: AUTH }
  for (let i = 0; i < 5; i++) await call(bench, request)
  return new Set((await bench.capture(() => call(bench, request))).map((s) => s.sql))
}

function listUrl(bench: Bench, basket: string): string {
  const id = bench.basketIds.get(basket)
  if (id === undefined) throw new Error(`no basket ${basket}`)
  return `${bench.base}/rest/resourcesList/users/${BBAIN}/groups/${bench.groupId}/baskets/${id}`
}

/** The ids MyBasket holds for bbain, newest first. */
async function myBasketIds(bench: Bench): Promise<number[]> {
  const text = await call(bench, { url: `${listUrl(bench, 'MyBasket')}?limit=1`, headers: AUTH })
  return (JSON.parse(text) as { allResources: number[] }).allResources
}

/** Part 1: every new route beside its floor, at the sample's size. */
async function routesAtSampleSize(): Promise<void> {
  const bench = await openBench(sampleCount)
  try {
    const auth = await authenticationStatements(bench)
    const list = listUrl(bench, 'MyBasket')
    const letters = await myBasketIds(bench)
    const one = JSON.stringify({ resources: letters.slice(0, 1) })
    console.log(`== 1. Every new route beside its bare-HTTP floor (bbain, ${clients} clients, ${seconds} s per phase)`)
    const routes: [string, LoadRequest][] = [
      ['GET /rest/home', { url: `${bench.base}/rest/home`, headers: AUTH }],
      ['GET /rest/home/lastRessources', { url: `${bench.base}/rest/home/lastRessources`, headers: AUTH }],
      ['GET resourcesList (MyBasket)', { url: list, headers: AUTH }],
      ['GET resourcesList/filters', { url: `${list}/filters`, headers: AUTH }],
      ['GET resourcesList/actions', { url: `${list}/actions`, headers: AUTH }],
      ['PUT resourcesList/locked', { url: `${list}/locked`, method: 'PUT', headers: JSON_AUTH, bodies: [one] }],
      [
        'PUT resourcesList/lock',
        { url: `${list}/lock`, method: 'PUT', headers: JSON_AUTH, bodies: [one], status: 204 },
      ],
      [
        'PUT resourcesList/unlock',
        { url: `${list}/unlock`, method: 'PUT', headers: JSON_AUTH, bodies: [one], status: 204 },
      ],
      [
        'PUT resourcesList/actions/19',
        { url: `${list}/actions/19`, method: 'PUT', headers: JSON_AUTH, bodies: [one], status: 204 },
      ],
      ['GET isAllowed', { url: `${bench.base}/rest/resources/${letters[0]}/isAllowed`, headers: AUTH }],
      // The demo's "Rediriger" (redirectAction) and "Clôturer" of MyBasket for AGENT.
      ['GET resourcesList/actions/1/getRedirect', { url: `${list}/actions/1/getRedirect`, headers: AUTH }],
      [
        'POST …/actions/20/checkCloseWith…',
        { url: `${list}/actions/20/checkCloseWithFieldsAction`, method: 'POST', headers: JSON_AUTH, bodies: [one] },
      ],
      ['GET /rest/currentUser/profile', { url: `${bench.base}/rest/currentUser/profile`, headers: AUTH }],
    ]
    for (const [name, request] of routes) await routeBesideFloor(bench, name, request, auth)
  } finally {
    await bench.close()
  }
}

/** The home page: p99, and its rate beside its count statements run directly. */
async function homeCounts(bench: Bench): Promise<void> {
  const request = { url: `${bench.base}/rest/home`, headers: AUTH }
  for (let i = 0; i < 5; i++) await call(bench, request)
  // One statement counts them all (a sub-select per basket); a clause the database refuses has its own.
  const statements = (await bench.capture(() => call(bench, request))).filter((s) =>
    /count\(\*\)::int as "n" from "res_view_letterbox"/.test(s.sql),
  )
  const home = JSON.parse(await call(bench, request)) as {
    regroupedBaskets: { baskets: { basket_id: string; resourceNumber: number }[] }[]
  }
  console.log(`\nGET /rest/home: its counts in ${statements.length} statement(s)`)
  for (const b of home.regroupedBaskets.flatMap((g) => g.baskets))
    console.log(`  ${b.basket_id.padEnd(22)} ${b.resourceNumber.toLocaleString('en').padStart(8)}`)
  for (const s of statements) {
    const t0 = performance.now()
    await bench.direct.query(s.sql, s.parameters as unknown[])
    console.log(`  ${(performance.now() - t0).toFixed(1).padStart(7)} ms  ${s.sql.slice(70, 190)}`)
  }
  const busyP99s: number[] = []
  const bareP99s: number[] = []
  const ratio = await alternate(
    async () => {
      const b = await runPhase('bare SQL', clients, seconds, async () => {
        for (const s of statements) await bench.direct.query(s.sql, s.parameters as unknown[])
      })
      bareP99s.push(b.p99)
      return b
    },
    async () => {
      const h = await runHttpPhase('mailroom', clients, seconds, request)
      busyP99s.push(h.p99)
      return h
    },
  )
  const p99 = await oneClerkP99(request)
  verdict(`home p99 ${p99.toFixed(1)} ms for one clerk, median of ${rounds} rounds (target <= 100)`, p99 <= 100)
  console.log(
    `  home p99 at ${clients} clients ${median(busyP99s).toFixed(1)} ms; its counts alone in bare SQL at ${clients} clients: ${median(bareP99s).toFixed(1)} ms`,
  )
  summary.push(
    `home p99 at ${clients} clients ${median(busyP99s).toFixed(1)} ms (bare SQL ${median(bareP99s).toFixed(1)} ms)`,
  )
  verdict(`home ${ratio.toFixed(2)} of its counts in bare SQL (target >= 0.8)`, ratio >= 0.8)
}

/**
 * The p99 a clerk sees: one client, the route alone on the server. With more clients than cores the p99 is the
 * queue of requests for the cores (the phases at BENCH_CLIENTS report it, beside the bare SQL's own).
 */
async function oneClerkP99(request: LoadRequest): Promise<number> {
  const p99s: number[] = []
  for (let round = 0; round < rounds; round++) {
    const h = await runHttpPhase('one clerk', 1, seconds, request)
    console.log(`  ${line(h)}`)
    p99s.push(h.p99)
  }
  return median(p99s)
}

/** MyBasket's first page: p99. */
async function firstPage(bench: Bench): Promise<void> {
  const request = { url: listUrl(bench, 'MyBasket'), headers: AUTH }
  for (let i = 0; i < 5; i++) await call(bench, request)
  console.log(`\nMyBasket's first page (${(await myBasketIds(bench)).length} letters in the basket)`)
  const p99s: number[] = []
  for (let round = 0; round < rounds; round++) {
    const h = await runHttpPhase('mailroom', clients, seconds, request)
    console.log(`  ${line(h)}`)
    p99s.push(h.p99)
  }
  const busy = median(p99s)
  verdict(
    `first page p99 ${busy.toFixed(1)} ms at ${clients} clients, median of ${rounds} rounds (target <= 50)`,
    busy <= 50,
  )
  const alone = await oneClerkP99(request)
  verdict(`first page p99 ${alone.toFixed(1)} ms for one clerk, median of ${rounds} rounds (target <= 50)`, alone <= 50)
}

/** confirmAction on 100 letters beside PUT /rest/res/resource/status on the same 100, rotating disjoint sets. */
async function actionBesideStatus(bench: Bench): Promise<void> {
  const letters = await myBasketIds(bench)
  const sets = Array.from({ length: Math.floor(letters.length / 100) }, (_, i) => letters.slice(i * 100, i * 100 + 100))
  if (sets.length === 0) return console.log(`\naction on 100 letters: MyBasket holds only ${letters.length}`)
  // One request per set in flight at most, so no two lock each other's letters.
  const actors = Math.max(1, Math.min(clients, Math.floor(sets.length / 2)))
  const action: LoadRequest = {
    url: `${listUrl(bench, 'MyBasket')}/actions/19`,
    method: 'PUT',
    headers: JSON_AUTH,
    bodies: sets.map((resources) => JSON.stringify({ resources })),
    status: 204,
  }
  const status: LoadRequest = {
    url: `${bench.base}/rest/res/resource/status`,
    method: 'PUT',
    headers: JSON_AUTH,
    bodies: sets.map((resId) => JSON.stringify({ status: 'COU', resId })),
  }
  await call(bench, action)
  await call(bench, status)
  console.log(`\nconfirmAction on 100 letters (${sets.length} sets, ${actors} clients)`)
  const ratio = await alternate(
    () => runHttpPhase('status route', actors, seconds, status),
    () => runHttpPhase('action', actors, seconds, action),
    100,
    'letters/s',
  )
  verdict(`action ${ratio.toFixed(2)} of the status route's rate (target >= 0.5)`, ratio >= 0.5)
}

/** POST /rest/res/list for bbain, whose baskets widen her perimeter, beside its bare-HTTP floor. */
async function searchWithBaskets(bench: Bench, auth: ReadonlySet<string>): Promise<void> {
  for (const clause of ["status='NEW'", "alt_identifier='MAARCH/2025A/500' AND status <> 'DEL'"]) {
    const body = JSON.stringify({ select: 'res_id, alt_identifier, status, subject, creation_date', clause, limit: 50 })
    await routeBesideFloor(
      bench,
      `search ${clause}`,
      { url: `${bench.base}/rest/res/list`, method: 'POST', headers: JSON_AUTH, bodies: [body] },
      auth,
      0.8, // the searches' guard rail
    )
  }
}

async function main(): Promise<void> {
  console.log(
    `Mailroom baskets benchmark: bbain (AGENT) with the sample's baskets, PostgreSQL, ${clients} clients, ${seconds} s per phase`,
  )
  await routesAtSampleSize()
  const bench = await openBench(recordCount)
  try {
    console.log(`== 2. At ${recordCount.toLocaleString('en')} records`)
    await homeCounts(bench)
    await firstPage(bench)
    await actionBesideStatus(bench)
    console.log('\nThe search guard rail, bbain with baskets:')
    await searchWithBaskets(bench, await authenticationStatements(bench))
  } finally {
    await bench.close()
  }
  console.log(`\nsummary (sample's size ${sampleCount} records; ${recordCount.toLocaleString('en')} records):`)
  for (const s of summary) console.log(`  ${s}`)
}

/** The whole run; exported so that a harness importing this file can wait for it. */
export const finished: Promise<void> = main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
