/**
 * Content read throughput (issue #5): 16 concurrent clients reading a 1 MB 10-page PDF over HTTP as
 * `/content` (watermarked on every read) and `/originalContent` (raw), beside a raw baseline measured in
 * the same run: the same file streamed by a bare node:http server. A floor phase shows what the issue's rules
 * cost any server: a bare node:http server that hashes the file it serves, reads the record's row and
 * commits a history row per read. Then the LibreOffice conversion of a
 * 2-page .docx, cold (a new LibreOffice each time) and warm (one kept running), p50 of each.
 *
 *   pnpm --filter @mailroom/bench bench:content
 *   BENCH_SECONDS (10), BENCH_CLIENTS (16), BENCH_COLD_RUNS (3), BENCH_WARM_RUNS (8), BENCH_PHASES (all),
 *   BENCH_READ_THREADS (the server's reading threads; default as MAILROOM_CONTENT_READ_THREADS),
 *   TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
 *
 * The clients run in a worker thread (http-load.ts), on their own event loop, for the baseline as for
 * Mailroom; on a 2-core machine they still share the cores with the servers and PostgreSQL.
 */

import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHttpApp } from '@mailroom/http-koa'
import { ConversionService, createMailroom, findSoffice, LibreOfficeConverter } from '@mailroom/mailroom'
import { createTestDatabase, insertTestRecord, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import { sql } from 'kysely'
import { makeBenchPdf, median } from './bench-kit.js'
import { type LoadRequest, runHttpPhase } from './http-load.js'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const clients = Number(process.env.BENCH_CLIENTS ?? 16)
const coldRuns = Number(process.env.BENCH_COLD_RUNS ?? 3)
const warmRuns = Number(process.env.BENCH_WARM_RUNS ?? 8)
/** Comma-separated subset of baseline,floor,original,raw,watermark,conversion (all by default). */
const only = new Set(
  (process.env.BENCH_PHASES ?? 'baseline,floor,original,raw,watermark,conversion').split(',').map((p) => p.trim()),
)

interface PhaseResult {
  readonly name: string
  readonly responses: number
  readonly errors: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly peakRssMb: number
  /** Event-loop CPU per response: the server's (Mailroom's or the baseline's) serial cost. */
  readonly loopCpuMs: number
}

const agent = new Agent({ keepAlive: true, maxSockets: clients })

/** One GET, body read and dropped; rejects on a non-200 or a short body. */
function get(url: string, headers: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers }, (res) => {
      let received = 0
      res.on('data', (chunk: Buffer) => {
        received += chunk.length
      })
      res.on('end', () => {
        const expected = Number(res.headers['content-length'] ?? received)
        if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`))
        else if (received !== expected) reject(new Error(`short body ${received}/${expected}`))
        else resolve()
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

/** The phase's HTTP load, from the worker-thread clients (http-load.ts). */
async function phase(name: string, request: LoadRequest): Promise<PhaseResult> {
  const result = await runHttpPhase(name, clients, seconds, request)
  return { ...result, responses: result.count, loopCpuMs: result.loopCpuMsPerResponse }
}

/** A 2-page .docx made by LibreOffice from plain text (about 110 lines of 90 characters). */
function makeDocx(dir: string, soffice: string): Promise<Uint8Array> {
  const lines = Array.from(
    { length: 110 },
    (_, i) => `Ligne ${i + 1} du courrier de test : ${'texte de remplissage '.repeat(3)}`,
  )
  return (async () => {
    const source = join(dir, 'two-pages.txt')
    await writeFile(source, lines.join('\n'))
    const profile = `-env:UserInstallation=file://${join(dir, 'profile')}`
    const result = spawnSync(
      soffice,
      ['--headless', '--norestore', profile, '--convert-to', 'docx:MS Word 2007 XML', '--outdir', dir, source],
      { timeout: 120_000 },
    )
    if (result.status !== 0) throw new Error(`docx sample could not be made: ${result.stderr}`)
    return new Uint8Array(await readFile(join(dir, 'two-pages.docx')))
  })()
}

async function conversionBench(dir: string): Promise<void> {
  const soffice = findSoffice()
  if (!soffice) {
    console.log('\nLibreOffice not installed: conversion benchmark skipped')
    return
  }
  const docx = await makeDocx(dir, soffice)
  const input = { bytes: docx, format: 'docx' }
  const cold: number[] = []
  for (let i = 0; i < coldRuns; i++) {
    const converter = new LibreOfficeConverter({ workDir: join(dir, `cold-${i}`) })
    const t0 = performance.now()
    await converter.convert(input)
    cold.push(performance.now() - t0)
    await converter.close()
  }
  const converter = new LibreOfficeConverter({ workDir: join(dir, 'warm') })
  await converter.convert(input) // warms the listener
  const warm: number[] = []
  for (let i = 0; i < warmRuns; i++) {
    const t0 = performance.now()
    await converter.convert(input)
    warm.push(performance.now() - t0)
  }
  await converter.close()
  console.log(`\nLibreOffice conversion of a 2-page docx (${docx.length} bytes, ${converter.mode} mode when warm)`)
  console.log(
    `  cold p50 ${median(cold).toFixed(0)} ms over ${coldRuns} runs (${cold.map((v) => v.toFixed(0)).join(', ')})`,
  )
  console.log(
    `  warm p50 ${median(warm).toFixed(0)} ms over ${warmRuns} runs (${warm.map((v) => v.toFixed(0)).join(', ')})`,
  )
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'mailroom-content-bench-'))
  const database = await createTestDatabase('postgres')
  const office = new LibreOfficeConverter({ workDir: join(dir, 'server') })
  const mailroom = await createMailroom({
    database: database.target,
    docserverDir: join(dir, 'docservers'),
    secret: TEST_SECRET,
    demo: true,
    passwordHasher: TEST_PASSWORD_HASHER,
    converter: new ConversionService({ office }),
    content: {
      verifyBeforeSendMaxBytes: Number(process.env.BENCH_VERIFY_MAX ?? 16 * 1024 * 1024),
      ...(process.env.BENCH_READ_THREADS ? { readThreads: Number(process.env.BENCH_READ_THREADS) } : {}),
    },
  })
  const servers: ReturnType<typeof createServer>[] = []
  try {
    const pdf = makeBenchPdf(10, 1024 * 1024)
    const { resId, key } = await insertTestRecord(mailroom.db, mailroom.documentStore, {
      bytes: pdf,
      subject: 'Bench',
      altIdentifier: 'MAARCH/2024A/1',
    })
    // The baselines read the same file straight from the disk (the bench's store is a folder).
    const filePath = mailroom.documentStore.localPath(key)!

    const app = createHttpApp({ services: mailroom })
    const server = createServer(app.callback())
    const baseline = createServer((_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/pdf',
        'content-length': pdf.length,
        'content-disposition': 'attachment; filename="Bench.pdf"',
      })
      createReadStream(filePath).pipe(res)
    })
    // The floor: what any server must do per read under the issue's rules, with no framework, auth or
    // perimeter: read the file whole, check its SHA-256, fetch the record's row, commit one history row.
    const floor = createServer((_req, res) => {
      void (async () => {
        const record = await sql<{
          fingerprint: string
        }>`select fingerprint from res_letterbox where res_id = ${resId}`.execute(mailroom.db)
        const bytes = await readFile(filePath)
        if (createHash('sha256').update(bytes).digest('hex') !== record.rows[0]?.fingerprint)
          throw new Error('fingerprint')
        await sql`insert into history (table_name, record_id, event_type, user_id, event_date, info, id_module, event_id)
          values ('res_letterbox', ${String(resId)}, 'VIEW', 1, now(), ${`Viewing document : ${resId}`}, 'resource', 'resview')`.execute(
          mailroom.db,
        )
        res.writeHead(200, {
          'content-type': 'application/pdf',
          'content-length': bytes.length,
          'content-disposition': 'attachment; filename="Bench.pdf"',
        })
        res.end(bytes)
      })().catch((error: unknown) => {
        res.writeHead(500).end(String(error))
      })
    })
    servers.push(server, baseline, floor)
    for (const s of servers) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
    const url = (s: ReturnType<typeof createServer>, path: string) =>
      `http://127.0.0.1:${(s.address() as AddressInfo).port}${path}`

    // A bearer token, so the numbers do not measure password hashing on every request.
    const login = await fetch(url(server, '/rest/authenticate'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'bbain', password: 'maarch' }),
    })
    const token = login.headers.get('token')
    if (!token) throw new Error(`authentication failed: ${login.status}`)
    const headers = { authorization: `Bearer ${token}` }
    // The first read converts (stores the PDF as adr type PDF); the benchmark measures steady state.
    await get(url(server, `/rest/resources/${resId}/content`), headers)

    console.log(`Content reads: ${clients} clients, ${seconds} s per phase, ${pdf.length} byte 10-page PDF`)
    const load = (path: string, auth: boolean) => ({ url: path, headers: auth ? headers : {} })
    const phases: [string, string, LoadRequest][] = [
      ['baseline', 'baseline (bare node:http stream)', load(url(baseline, '/'), false)],
      ['floor', 'floor (bare: hash, row, history row)', load(url(floor, '/'), false)],
      ['original', '/originalContent (raw)', load(url(server, `/rest/resources/${resId}/originalContent`), true)],
      [
        'raw',
        '/content?watermark=false (raw)',
        load(url(server, `/rest/resources/${resId}/content?watermark=false`), true),
      ],
      ['watermark', '/content (watermarked)', load(url(server, `/rest/resources/${resId}/content`), true)],
    ]
    const results: PhaseResult[] = []
    for (const [key, name, request] of phases) if (only.has(key)) results.push(await phase(name, request))
    const base = only.has('baseline') ? (results[0]?.perSecond ?? Number.NaN) : Number.NaN
    for (const r of results) {
      console.log(
        `  ${r.name.padEnd(36)} ${r.perSecond.toFixed(1).padStart(8)} responses/s  ratio ${(r.perSecond / base).toFixed(2)}  ` +
          `p50 ${r.p50.toFixed(1)} ms  p99 ${r.p99.toFixed(1)} ms  loop CPU ${r.loopCpuMs.toFixed(2)} ms/response  errors ${r.errors}  peak RSS ${r.peakRssMb.toFixed(0)} MB`,
      )
    }
    if (only.has('conversion')) await conversionBench(dir)
  } finally {
    agent.destroy()
    for (const s of servers) {
      s.closeAllConnections()
      await new Promise<void>((resolve) => s.close(() => resolve()))
    }
    await mailroom.close()
    await office.close()
    await database.drop()
    await rm(dir, { recursive: true, force: true })
  }
}

await main()
