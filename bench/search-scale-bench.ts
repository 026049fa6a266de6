/**
 * Searches of real batch scripts (issue #19 parts 1 and 2), against direct `pg` reading the same rows in
 * the same run:
 *
 * 1. Every match without `limit`: 200,000 records through POST /rest/res/list (superadmin, no perimeter),
 *    from a server in a child process so that its peak RSS growth is its own: time to first byte, total
 *    time, bytes, RSS growth. Direct `pg`: the same select buffered (`query`), and through a cursor in
 *    batches of 1,000 as the service reads. Then `withFile` on 20,000 of them (each with a 4 KiB file):
 *    the same figures, against `pg` plus reading and encoding each file.
 * 2. Long clauses: parse + compile time of a `res_id in (…)` list of 10,000 ids and of a 256 KiB
 *    `alt_identifier in (…)` clause, against the execution time of the SQL they compile to.
 *
 *   pnpm bench:search-scale (also part of pnpm bench)
 *   BENCH_RECORDS (default 200000), BENCH_FILE_RECORDS (default 20000), BENCH_SERVER_HEAP_MB (the server's
 *   --max-old-space-size; default: Node's), TEST_DATABASE_URL
 */
import { fork } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MAX_CLAUSE_BYTES } from '@mailroom/core'
import { createHttpApp, createHttpServer } from '@mailroom/http-koa'
import { createMailroom, MAILROOM_PG_TYPES } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { parseSearchRequest } from '../packages/core/src/search/search-request.js'
import { compileSearch } from '../packages/storage/src/search/compile-clause.js'
import { originalFilePath } from '../packages/storage/src/search/original-files.js'
import { median } from './bench-kit.js'

const RECORDS = Number(process.env.BENCH_RECORDS ?? 200_000)
const FILE_RECORDS = Number(process.env.BENCH_FILE_RECORDS ?? 20_000)
const FILE_BYTES = 4096
const SELECT = 'res_id, alt_identifier, subject, status, destination, creation_date'
const AUTH = `Basic ${Buffer.from('superadmin:superadmin').toString('base64')}`

/** What the server child answers: its RSS now, and the highest RSS sampled since the last `reset`. */
type ChildMessage = { port: number } | { rssMb: number; peakMb: number }

/** The server side, in its own process: Mailroom over HTTP on the benchmark database; reports its RSS. */
async function serveChild(): Promise<void> {
  const mailroom = await createMailroom({
    database: { kind: 'postgres', url: process.env.BENCH_DATABASE_URL as string, poolSize: 4 },
    docserverDir: process.env.BENCH_DOCSERVER_DIR as string,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    throttle: false,
    migrate: false,
  })
  const server = createHttpServer(createHttpApp({ services: mailroom }))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  let peak = process.memoryUsage().rss
  setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss)
  }, 5).unref()
  const send = (message: ChildMessage) => process.send?.(message)
  process.on('message', (message: string) => {
    if (message === 'reset') {
      globalThis.gc?.()
      peak = process.memoryUsage().rss
    }
    if (message === 'reset' || message === 'read')
      send({ rssMb: process.memoryUsage().rss / 2 ** 20, peakMb: peak / 2 ** 20 })
    if (message === 'stop') {
      server.closeAllConnections()
      server.close(() => void mailroom.close().then(() => process.exit(0)))
    }
  })
  send({ port: (server.address() as { port: number }).port })
}

/** Records that only the seed makes: one created through Mailroom with its file, then copied in SQL. */
async function seed(url: string, docserverDir: string): Promise<{ firstId: number }> {
  const mailroom = await createMailroom({
    database: { kind: 'postgres', url, poolSize: 4 },
    docserverDir,
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
    throttle: false,
  })
  const file = Buffer.alloc(FILE_BYTES, 'Courrier de référence pour le banc de recherche.\n').toString('base64')
  const { resId } = await (await mailroom.as('superadmin')).records.create({
    modelId: 1,
    status: 'NEW',
    subject: 'Modèle',
    format: 'txt',
    encodedFile: file,
  })
  await mailroom.close()
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query('set synchronous_commit = off')
    // A status of their own, so the clause finds exactly the copies.
    const statusColumns = (
      await client.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'public' and table_name = 'status' and column_name not in ('id', 'identifier') and is_identity = 'NO' and column_default is null",
      )
    ).rows.map((r) => `"${r.column_name}"`)
    await client.query(
      `insert into status (id, ${statusColumns.join(', ')}) select 'BENCH', ${statusColumns.join(', ')} from status where id = 'NEW'`,
    )
    const columns = (
      await client.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'public' and table_name = 'res_letterbox' and column_name not in ('res_id', 'subject', 'status', 'alt_identifier') and is_generated = 'NEVER'",
      )
    ).rows.map((r) => `"${r.column_name}"`)
    // Every copy points at the model's file (same docserver path and fingerprint): withFile reads it each time.
    await client.query(
      `insert into res_letterbox (subject, status, alt_identifier, ${columns.join(', ')})
       select 'Courrier ' || g, 'BENCH', 'BENCH/2026A/' || g, ${columns.join(', ')}
       from res_letterbox, generate_series(1, $1::int) g where res_id = $2 order by g`,
      [RECORDS, resId],
    )
    await client.query('vacuum analyze res_letterbox')
    const first = await client.query<{ min: number }>(
      "select min(res_id)::int as min from res_letterbox where status = 'BENCH'",
    )
    return { firstId: first.rows[0]!.min }
  } finally {
    await client.end()
  }
}

/** One search through HTTP: time to the first body byte, total time, bytes, `count`. */
function timedSearch(
  port: number,
  body: object,
): Promise<{ firstByteMs: number; totalMs: number; bytes: number; count: number }> {
  const payload = Buffer.from(JSON.stringify(body))
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/rest/res/list',
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        let firstByteMs = Number.NaN
        let bytes = 0
        // Only the tail is kept: `"count":N}` closes the answer.
        let tail = ''
        res.on('data', (chunk: Buffer) => {
          if (bytes === 0) firstByteMs = performance.now() - started
          bytes += chunk.length
          tail = (tail + chunk.toString('latin1')).slice(-200)
        })
        res.on('end', () => {
          if (res.statusCode !== 200) return reject(new Error(`status ${res.statusCode}: ${tail}`))
          const count = Number(/"count":(\d+)/.exec(tail)?.[1] ?? Number.NaN)
          resolve({ firstByteMs, totalMs: performance.now() - started, bytes, count })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** Direct `pg`: the whole result buffered, then through a cursor in batches of 1,000 (first batch, total). */
async function direct(
  url: string,
  sqlText: string,
  parameters: unknown[],
  perRow?: (row: Record<string, unknown>) => Promise<void>,
) {
  const client = new pg.Client({ connectionString: url, types: MAILROOM_PG_TYPES } as pg.ClientConfig)
  await client.connect()
  try {
    const rssBefore = process.memoryUsage().rss
    let t0 = performance.now()
    const all = await client.query(sqlText, parameters)
    for (const row of all.rows) await perRow?.(row)
    const bufferedMs = performance.now() - t0
    const bufferedRssMb = (process.memoryUsage().rss - rssBefore) / 2 ** 20
    const rows = all.rowCount ?? 0
    t0 = performance.now()
    await client.query('begin isolation level repeatable read read only')
    await client.query(`declare bench_cursor no scroll cursor for ${sqlText}`, parameters)
    let firstBatchMs = Number.NaN
    for (;;) {
      const batch = await client.query('fetch 1000 from bench_cursor')
      for (const row of batch.rows) await perRow?.(row)
      if (Number.isNaN(firstBatchMs)) firstBatchMs = performance.now() - t0
      if (batch.rows.length < 1000) break
    }
    await client.query('commit')
    return { rows, bufferedMs, bufferedRssMb, firstBatchMs, cursorMs: performance.now() - t0 }
  } finally {
    await client.end()
  }
}

/** A Mailroom server in its own process on the benchmark database, and its port. */
async function startChild(
  url: string,
  docserverDir: string,
): Promise<{ child: ReturnType<typeof fork>; port: number }> {
  const child = fork(fileURLToPath(import.meta.url), ['serve'], {
    env: { ...process.env, BENCH_DATABASE_URL: url, BENCH_DOCSERVER_DIR: docserverDir },
    // BENCH_SERVER_HEAP_MB caps the server's V8 old space: an answer that fits under a small cap is streamed,
    // not held (RSS growth alone cannot tell a lazy garbage collector from memory kept).
    execArgv: [
      '--expose-gc',
      ...(process.env.BENCH_SERVER_HEAP_MB ? [`--max-old-space-size=${process.env.BENCH_SERVER_HEAP_MB}`] : []),
    ],
  })
  const { port } = await new Promise<{ port: number }>((resolve) =>
    child.once('message', (m: ChildMessage) => resolve(m as { port: number })),
  )
  return { child, port }
}

async function stopChild(child: ReturnType<typeof fork>): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.send('stop')
  await exited
}

function ask(child: ReturnType<typeof fork>, message: string): Promise<{ rssMb: number; peakMb: number }> {
  return new Promise((resolve) => {
    child.once('message', (answer: ChildMessage) => resolve(answer as { rssMb: number; peakMb: number }))
    child.send(message)
  })
}

const ms = (value: number) => `${value.toFixed(0)} ms`
const mb = (value: number) => `${value.toFixed(1)} MB`

/** The search without limit and with withFile: server figures beside direct pg. */
async function measureEveryMatch(url: string, firstId: number, docserverDir: string, db: Kysely<any>): Promise<void> {
  const cases = [
    { name: `${RECORDS.toLocaleString('en')} rows, no limit`, body: { select: SELECT, clause: "status = 'BENCH'" } },
    {
      name: `${FILE_RECORDS.toLocaleString('en')} rows, withFile`,
      body: { select: SELECT, clause: `status = 'BENCH' and res_id < ${firstId + FILE_RECORDS}`, withFile: true },
    },
  ]
  const location = await db
    .selectFrom('res_letterbox')
    .innerJoin('docservers', 'docservers.docserver_id', 'res_letterbox.docserver_id')
    .select(['docservers.path_template', 'res_letterbox.path', 'res_letterbox.filename'])
    .where('res_id', '=', firstId)
    .executeTakeFirstOrThrow()
  const filePath = originalFilePath(docserverDir, location.path_template, {
    docserverId: 'FASTHD',
    path: location.path,
    filename: location.filename,
  })
  if (filePath === null) throw new Error('the seeded file has no path')
  for (const { name, body } of cases) {
    // A fresh server for each answer: RSS once grown is not given back, so a second answer would hide in it.
    const { child, port } = await startChild(url, docserverDir)
    await timedSearch(port, { ...body, clause: `${body.clause} and res_id < ${firstId + 100}` })
    const before = await ask(child, 'reset')
    const http = await timedSearch(port, body)
    const after = await ask(child, 'read')
    await stopChild(child)
    const compiled = compileSearch(db, parseSearchRequest(body), null).compile()
    const readFileOf = 'withFile' in body ? async () => void (await readFile(filePath)).toString('base64') : undefined
    const baseline = await direct(url, compiled.sql, [...compiled.parameters], readFileOf)
    if (http.count !== baseline.rows) throw new Error(`${name}: HTTP count ${http.count}, direct ${baseline.rows}`)
    console.log(`\n${name}: ${(http.bytes / 2 ** 20).toFixed(1)} MB of JSON`)
    console.log(
      `  http:       first byte ${ms(http.firstByteMs)}, total ${ms(http.totalMs)}, server RSS ${mb(before.rssMb)} -> peak ${mb(after.peakMb)} (growth ${mb(after.peakMb - before.rssMb)})`,
    )
    console.log(
      `  pg cursor:  first batch ${ms(baseline.firstBatchMs)}, total ${ms(baseline.cursorMs)}${readFileOf ? ' (with the file read and encoded per row)' : ''}`,
    )
    console.log(`  pg buffered: total ${ms(baseline.bufferedMs)}, client RSS growth ${mb(baseline.bufferedRssMb)}`)
    console.log(`  http total / pg cursor total: ${(http.totalMs / baseline.cursorMs).toFixed(2)}x`)
  }
}

/** Parse + compile of long clauses against the execution of what they compile to. */
async function measureLongClauses(url: string, port: number, firstId: number, db: Kysely<any>): Promise<void> {
  const ids = Array.from({ length: 10_000 }, (_, i) => firstId + i * 7)
  const chronos: string[] = []
  let clause = ''
  for (let g = 1; ; g += 3) {
    const next = `alt_identifier in (${[...chronos, `'BENCH/2026A/${g}'`].join(', ')})`
    if (Buffer.byteLength(next) > MAX_CLAUSE_BYTES) break
    chronos.push(`'BENCH/2026A/${g}'`)
    clause = next
  }
  const cases = [
    { name: '10,000-id IN list', body: { select: SELECT, clause: `res_id in (${ids.join(', ')})` } },
    { name: `256 KiB clause (${chronos.length.toLocaleString('en')} chronos)`, body: { select: SELECT, clause } },
  ]
  const client = new pg.Client({ connectionString: url, types: MAILROOM_PG_TYPES } as pg.ClientConfig)
  await client.connect()
  try {
    for (const { name, body } of cases) {
      const parse: number[] = []
      const compile: number[] = []
      const execute: number[] = []
      const http: number[] = []
      let rows = 0
      for (let i = 0; i < 7; i++) {
        let t0 = performance.now()
        const query = parseSearchRequest(body)
        parse.push(performance.now() - t0)
        t0 = performance.now()
        const compiled = compileSearch(db, query, null).compile()
        compile.push(performance.now() - t0)
        t0 = performance.now()
        rows = (await client.query(compiled.sql, [...compiled.parameters])).rowCount ?? 0
        execute.push(performance.now() - t0)
        http.push((await timedSearch(port, body)).totalMs)
      }
      const [p, c, e, h] = [median(parse), median(compile), median(execute), median(http)]
      console.log(
        `\n${name}: ${(Buffer.byteLength(body.clause) / 1024).toFixed(0)} KiB, ${rows.toLocaleString('en')} rows (median of 7)`,
      )
      console.log(
        `  parse ${p.toFixed(1)} ms + compile ${c.toFixed(1)} ms = ${(p + c).toFixed(1)} ms; pg execution ${e.toFixed(1)} ms; whole HTTP search ${h.toFixed(1)} ms`,
      )
      console.log(`  parse + compile / execution: ${((p + c) / e).toFixed(2)}x`)
    }
  } finally {
    await client.end()
  }
}

async function main(): Promise<void> {
  const database = await createTestDatabase('postgres')
  const url = database.url as string
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-search-scale-'))
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) }) })
  let child: ReturnType<typeof fork> | undefined
  try {
    const t0 = performance.now()
    const { firstId } = await seed(url, docserverDir)
    console.log(
      `Mailroom search scale benchmark: ${RECORDS.toLocaleString('en')} records seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s (PostgreSQL, superadmin, no perimeter)`,
    )
    console.log('\n== 1. Every match without limit (server in its own process)')
    await measureEveryMatch(url, firstId, docserverDir, db)
    console.log('\n== 2. Long clauses')
    const started = await startChild(url, docserverDir)
    child = started.child
    await measureLongClauses(url, started.port, firstId, db)
    await stopChild(child)
  } finally {
    child?.kill()
    await db.destroy()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

if (process.argv[2] === 'serve') {
  serveChild().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
} else {
  main().catch((error: unknown) => {
    console.error(error)
    process.exitCode = 1
  })
}
