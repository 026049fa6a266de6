/**
 * Search latency and throughput of POST /rest/res/list (issue #4): 1,000,000 records in a fresh PostgreSQL
 * database, the perimeter-limited demo user bbain (AGENT group: destinations PJS and PE, plus records bbain
 * typed and records on bbain's diffusion list), typical clauses with `limit 50`, from concurrent clients
 * over HTTP, beside the very SQL the service sent (captured from its kysely log) run directly through
 * `pg` in the same run.
 *
 *   pnpm bench:search (also part of pnpm bench)
 *   BENCH_SECONDS (per phase, default 5), BENCH_CLIENTS (default 8), BENCH_RECORDS (default 1000000),
 *   TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 *
 * A third phase serves the same SQL from a bare node:http server (no auth, no parsing, rows as JSON): the
 * floor of any HTTP service on the machine, which tells Mailroom's own cost apart from HTTP's.
 *
 * Targets: HTTP p99 <= 50 ms and HTTP throughput >= 70% of direct. The HTTP clients run in a worker thread
 * (http-load.ts); on a small machine they share the cores with the server and PostgreSQL.
 */

import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp } from '@mailroom/http-koa'
import { createMailroom, databaseFromKysely, MAILROOM_PG_TYPES } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { runPhase } from './bench-kit.js'
import { runHttpPhase } from './http-load.js'
import { seedMillionRecords } from './million-records.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 5)
const clients = Number(process.env.BENCH_CLIENTS ?? 8)
const recordCount = Number(process.env.BENCH_RECORDS ?? 1_000_000)
const LIMIT = 50
const P99_TARGET_MS = 50
const THROUGHPUT_TARGET = 0.7

/** The typical clauses of real clients (B8.11), each expected to find at least one row for bbain. */
const CLAUSES: readonly { name: string; clause: string }[] = [
  { name: "status='NEW'", clause: "status='NEW'" },
  { name: 'chrono equality', clause: "alt_identifier='MAARCH/2025A/123456' AND status <> 'DEL'" },
  { name: 'date range (a day)', clause: "creation_date >= '2022-03-01' AND creation_date < '2022-03-02'" },
  { name: 'JSON field', clause: "custom_fields->>'1' = 'REF-42'" },
]

interface PhaseResult {
  readonly name: string
  readonly requests: number
  readonly errors: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
}

/** Runs `operation` from the concurrent clients for the phase length (shared loop in bench-kit). */
async function phase(name: string, operation: () => Promise<void>): Promise<PhaseResult> {
  const result = await runPhase(name, clients, seconds, operation)
  return { ...result, requests: result.count }
}

function line(r: PhaseResult): string {
  return `${r.name.padEnd(10)} ${r.perSecond.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2).padStart(6)} ms  p99 ${r.p99.toFixed(2).padStart(6)} ms  errors ${r.errors}`
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres')
  const url = database.url as string
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-search-bench-'))
  const servicePool = new pg.Pool({
    connectionString: url,
    max: clients + 2,
    statement_timeout: 15_000,
    types: MAILROOM_PG_TYPES,
  } as pg.PoolConfig)
  const directPool = new pg.Pool({ connectionString: url, max: clients, types: MAILROOM_PG_TYPES } as pg.PoolConfig)
  // Connections dropped with the database at the end must not crash the run.
  servicePool.on('error', () => {})
  directPool.on('error', () => {})
  // The service's own search statements, exactly as sent, keyed by their text.
  let capture: { sql: string; parameters: readonly unknown[] } | null = null
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: servicePool }),
    log: (event) => {
      if (
        event.level === 'query' &&
        /from "res_view_letterbox"/.test(event.query.sql) &&
        /\blimit \$\d+ offset \$\d+$/.test(event.query.sql)
      ) {
        capture = { sql: event.query.sql, parameters: event.query.parameters }
      }
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
  const server = createServer(createHttpApp({ services: mailroom }).callback())
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/res/list`
  const headers = {
    authorization: `Basic ${Buffer.from('bbain:maarch').toString('base64')}`,
    'content-type': 'application/json',
  }

  const summary: string[] = []
  let allMet = true
  try {
    const t0 = performance.now()
    await seedMillionRecords(url, recordCount)
    console.log(
      `Mailroom search benchmark: ${recordCount.toLocaleString('en')} records seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s; user bbain; limit ${LIMIT}; ${clients} clients; ${seconds} s per phase`,
    )
    for (const { name, clause } of CLAUSES) {
      const body = JSON.stringify({
        select: 'res_id, alt_identifier, status, subject, creation_date, destination',
        clause,
        limit: LIMIT,
      })
      let lastCount = -1
      const viaHttp = async () => {
        const response = await fetch(endpoint, { method: 'POST', headers, body })
        const text = await response.text()
        if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text}`)
        lastCount = (JSON.parse(text) as { count: number }).count
      }
      capture = null
      await viaHttp()
      const statement = capture as { sql: string; parameters: readonly unknown[] } | null
      if (!statement) throw new Error(`no search statement captured for ${clause}`)
      const direct = async () => {
        await directPool.query(statement.sql, statement.parameters as unknown[])
      }
      const plan = await directPool.query(`explain ${statement.sql}`, statement.parameters as unknown[])
      const planLines = plan.rows
        .map((r: Record<string, string>) => r['QUERY PLAN'] ?? '')
        .filter((l) => /Scan|Sort|Limit/.test(l))
      for (let i = 0; i < 20; i++) await Promise.all([direct(), viaHttp()])
      const d = await phase('direct', direct)
      // The floor of any HTTP service on this machine: a bare node:http server that runs the same SQL and
      // returns the rows as JSON, measured through the same client as Mailroom.
      const floor = createServer((req, res) => {
        req.resume()
        req.on('end', () => {
          directPool.query(statement.sql, statement.parameters as unknown[]).then(
            (result) => {
              const json = JSON.stringify({ resources: result.rows, count: result.rows.length })
              res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) })
              res.end(json)
            },
            () => {
              res.writeHead(500)
              res.end()
            },
          )
        })
      })
      floor.keepAliveTimeout = 60_000
      await new Promise<void>((resolve) => floor.listen(0, '127.0.0.1', resolve))
      const floorUrl = `http://127.0.0.1:${(floor.address() as AddressInfo).port}/`
      const f = await runHttpPhase('bare http', clients, seconds, {
        url: floorUrl,
        method: 'POST',
        headers,
        bodies: [body],
      }).then((r) => ({ ...r, requests: r.count }))
      floor.closeAllConnections()
      await new Promise<void>((resolve) => floor.close(() => resolve()))
      // The measured HTTP clients run in a worker thread (http-load.ts), as a separate load generator would.
      const h = await runHttpPhase('http', clients, seconds, {
        url: endpoint,
        method: 'POST',
        headers,
        bodies: [body],
      }).then((r) => ({ ...r, requests: r.count }))
      const ratio = h.perSecond / d.perSecond
      const met = h.p99 <= P99_TARGET_MS && ratio >= THROUGHPUT_TARGET
      allMet &&= met
      console.log(`\n${name}: ${clause}  (${lastCount} rows)`)
      for (const l of planLines.slice(0, 4)) console.log(`  plan: ${l.trim()}`)
      console.log(`  ${line(d)}`)
      console.log(`  ${line(f)}`)
      console.log(`  ${line(h)}   (${((h.perSecond / f.perSecond) * 100).toFixed(0)}% of bare http)`)
      const verdict = `http p99 ${h.p99.toFixed(1)} ms (target <= ${P99_TARGET_MS}: ${(h.p99 / P99_TARGET_MS).toFixed(2)}x), throughput ${(ratio * 100).toFixed(0)}% of direct (target >= ${THROUGHPUT_TARGET * 100}%) ${met ? 'OK' : 'MISSED'}`
      console.log(`  ${verdict}`)
      summary.push(`${name.padEnd(16)} ${verdict}`)
    }
    console.log(`\nsummary (${recordCount.toLocaleString('en')} records, bbain, limit ${LIMIT}, ${clients} clients):`)
    for (const s of summary) console.log(`  ${s}`)
    console.log(allMet ? 'all targets met' : 'some targets missed')
  } finally {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await mailroom.close()
    await db.destroy()
    await directPool.end()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

/** The whole run; exported so that a harness importing this file can wait for it. */
export const finished: Promise<void> = main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
