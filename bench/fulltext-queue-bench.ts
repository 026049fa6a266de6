/**
 * The full-text queue shared by servers in separate processes (issue #35: "three servers on one database
 * drain a queue of 1,000 files with each file extracted exactly once; killing one midway loses nothing").
 * Not a test: the rule is proved by packages/storage/src/fulltext/fulltext-servers.test.ts; this is the scale.
 *
 * 1. A fresh PostgreSQL database; BENCH_QUEUE_FILES files (default 1,000) created through Mailroom with no
 *    extraction anywhere: text PDFs, and every BENCH_QUEUE_IMAGE_EVERY-th (default 100th) a scanned letter as a
 *    PNG image, read by Tesseract. Each file has its own bytes.
 * 2. Three server processes (this script with `--server`: createMailroom on the database, BENCH_WORKERS
 *    extraction workers each, default 2, the real pdftotext and Tesseract, a lease of BENCH_LEASE_SECONDS,
 *    default 15). Each writes one line to its log, synchronously, as it starts extracting a file.
 * 3. Once BENCH_KILL_AT of the files (default 1/3) are indexed and the third server holds at least one job,
 *    it is killed with SIGKILL. Its jobs wait for their lease to run out, then the other two take them.
 * 4. When nothing is pending or running, the two others are stopped (SIGTERM) and the logs are compared with
 *    the database: extractions per file, files indexed, jobs lost.
 *
 * A file the killed server had claimed but not committed is extracted again by its new owner: that is what a
 * crash costs, and the report counts those apart. Every other file must be extracted exactly once.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext-queue (after pnpm build)
 *   BENCH_QUEUE_FILES, BENCH_QUEUE_IMAGE_EVERY (0: no image), BENCH_WORKERS, BENCH_LEASE_SECONDS, BENCH_KILL_AT,
 *   TEST_DATABASE_URL
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { appendFileSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ExtractedText, ExtractionInput, TextExtractor } from '@mailroom/core'
import { CommandLineTextExtractor, createMailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import pg from 'pg'
import { makeScannedLetter } from '../packages/testing/src/fixtures/files/index.js'
import { makeBenchPdf } from './bench-kit.js'

const FILES = Number(process.env.BENCH_QUEUE_FILES ?? 1000)
const IMAGE_EVERY = Number(process.env.BENCH_QUEUE_IMAGE_EVERY ?? 100)
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
const LEASE_SECONDS = Number(process.env.BENCH_LEASE_SECONDS ?? 15)
const KILL_AT = Number(process.env.BENCH_KILL_AT ?? 1 / 3)
const SERVERS = ['bench-0', 'bench-1', 'bench-2'] as const
const DOOMED = 'bench-2'

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Writes a line per file it starts extracting (synchronously: a SIGKILL loses no line), then extracts it. */
class LoggingExtractor implements TextExtractor {
  constructor(
    private readonly inner: TextExtractor,
    private readonly log: string,
  ) {}
  extract(input: ExtractionInput): Promise<ExtractedText> {
    appendFileSync(this.log, `${sha256(input.bytes)}\n`)
    return this.inner.extract(input)
  }
}

/** One server process: extraction workers on the database until SIGTERM. */
async function serve(): Promise<void> {
  const env = (name: string) => {
    const value = process.env[name]
    if (!value) throw new Error(`${name} is not set`)
    return value
  }
  const mailroom = await createMailroom({
    database: env('BENCH_DATABASE_URL'),
    docserverDir: env('BENCH_DOCSERVER_DIR'),
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    migrate: false,
    throttle: false,
    fulltext: {
      workers: WORKERS,
      pollMs: 100,
      leaseMs: LEASE_SECONDS * 1000,
      serverName: env('BENCH_SERVER_NAME'),
      extractor: new LoggingExtractor(new CommandLineTextExtractor({ language: 'fr' }), env('BENCH_EXTRACTION_LOG')),
    },
  })
  process.once('SIGTERM', () => {
    void mailroom.close().then(() => process.exit(0))
  })
  process.send?.('ready')
}

interface QueuedFile {
  readonly resId: number
  readonly sha: string
  readonly kind: 'pdf' | 'image'
}

async function queueFiles(url: string, docserverDir: string): Promise<QueuedFile[]> {
  const writer = await createMailroom({
    database: url,
    docserverDir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    demo: true,
    throttle: false,
    fulltext: { workers: 0 },
  })
  try {
    const cchaplin = await writer.auth.authenticatePassword('cchaplin', 'maarch')
    const pdf = Buffer.from(makeBenchPdf(1, 3000))
    const files: QueuedFile[] = []
    const started = performance.now()
    let next = 0
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < FILES) {
          const i = next++
          const image = IMAGE_EVERY > 0 && i % IMAGE_EVERY === IMAGE_EVERY - 1
          const bytes = image
            ? (
                await makeScannedLetter(
                  `Courrier numéro ${i}\nObjet : réfection de la toiture du gymnase\nLa pluie traverse le plafond.`,
                )
              ).png
            : // Each PDF its own bytes (a comment after %%EOF): a count per file's bytes is a count per job.
              Buffer.concat([pdf, Buffer.from(`\n%file ${i}\n`)])
          const { resId } = await writer.records.create(cchaplin, {
            modelId: 1,
            status: 'NEW',
            format: image ? 'png' : 'pdf',
            encodedFile: Buffer.from(bytes).toString('base64'),
          })
          files.push({ resId, sha: sha256(bytes), kind: image ? 'image' : 'pdf' })
        }
      }),
    )
    const images = files.filter((file) => file.kind === 'image').length
    console.log(
      `queued ${files.length} files (${files.length - images} text PDFs, ${images} scanned letters as PNG images) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    return files
  } finally {
    await writer.close()
  }
}

function startServer(name: string, url: string, docserverDir: string, log: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--server'], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      // One core per Tesseract run, as a server extracting beside others should be configured.
      OMP_THREAD_LIMIT: '1',
      BENCH_DATABASE_URL: url,
      BENCH_DOCSERVER_DIR: docserverDir,
      BENCH_SERVER_NAME: name,
      BENCH_EXTRACTION_LOG: log,
    },
  })
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child))
    child.once('exit', (code) => reject(new Error(`server ${name} exited with ${code} before it was ready`)))
  })
}

async function main(): Promise<void> {
  console.log(
    `Mailroom full-text queue benchmark: 3 server processes x ${WORKERS} workers, one PostgreSQL database, lease ${LEASE_SECONDS} s, one server killed (SIGKILL) once ${(KILL_AT * 100).toFixed(0)} % of the files are indexed`,
  )
  const database = await createTestDatabase('postgres')
  const folder = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-queue-bench-'))
  const docserverDir = join(folder, 'docservers')
  const url = database.url as string
  const client = new pg.Client({ connectionString: url })
  const children: ChildProcess[] = []
  try {
    const files = await queueFiles(url, docserverDir)
    await client.connect()
    const count = async (query: string, values: unknown[] = []) =>
      Number((await client.query<{ n: string }>(query, values)).rows[0]!.n)
    const logs = Object.fromEntries(SERVERS.map((name) => [name, join(folder, `${name}.log`)]))
    const started = performance.now()
    children.push(...(await Promise.all(SERVERS.map((name) => startServer(name, url, docserverDir, logs[name]!)))))
    console.log(`3 server processes started and extracting in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    const doomed = children[2]!
    const killAt = Math.ceil(FILES * KILL_AT)
    for (;;) {
      const indexed = await count('select count(*) as n from fulltext_texts')
      const held = await count("select count(*) as n from fulltext_jobs where leased_by = $1 and state = 'running'", [
        DOOMED,
      ])
      if (indexed >= killAt && held > 0) break
      if (performance.now() - started > 30 * 60_000) throw new Error('the kill point was never reached')
      await sleep(20)
    }
    doomed.kill('SIGKILL')
    await new Promise((resolve) => doomed.once('exit', resolve))
    const killedAfter = (performance.now() - started) / 1000
    // What the killed server held: frozen from now on (nobody renews it), until another server takes it over.
    const heldAtKill = new Set(
      (
        await client.query<{ res_id: string }>(
          "select res_id from fulltext_jobs where leased_by = $1 and state = 'running'",
          [DOOMED],
        )
      ).rows.map((row) => Number(row.res_id)),
    )
    const indexedAtKill = await count('select count(*) as n from fulltext_texts')
    console.log(
      `killed ${DOOMED} after ${killedAfter.toFixed(1)} s, ${indexedAtKill} files indexed; it held ${heldAtKill.size} job(s) not committed`,
    )
    for (;;) {
      const open = await count("select count(*) as n from fulltext_jobs where state in ('pending', 'running')")
      if (open === 0) break
      if (performance.now() - started > 60 * 60_000) throw new Error(`the queue never drained: ${open} open`)
      await sleep(100)
    }
    const seconds = (performance.now() - started) / 1000
    await Promise.all(
      children.slice(0, 2).map(
        (child) =>
          new Promise((resolve) => {
            child.once('exit', resolve)
            child.kill('SIGTERM')
          }),
      ),
    )

    // The logs against the database.
    const extractions = new Map<string, number>()
    const byServer: Record<string, number> = {}
    for (const name of SERVERS) {
      const lines = (await readFile(logs[name]!, 'utf8').catch(() => '')).split('\n').filter(Boolean)
      byServer[name] = lines.length
      for (const sha of lines) extractions.set(sha, (extractions.get(sha) ?? 0) + 1)
    }
    const jobs = new Map(
      (
        await client.query<{ res_id: string; state: string; attempts: number; leased_by: string; indexed: boolean }>(
          `select j.res_id, j.state, j.attempts, j.leased_by,
             exists (select from fulltext_texts t where t.file_kind = j.file_kind and t.file_id = j.file_id) as indexed
           from fulltext_jobs j where j.file_kind = 'resource'`,
        )
      ).rows.map((row) => [Number(row.res_id), row]),
    )
    const histogram = new Map<number, number>()
    let again = 0
    const unexpected: string[] = []
    let indexed = 0
    let failed = 0
    let lost = 0
    for (const file of files) {
      const n = extractions.get(file.sha) ?? 0
      histogram.set(n, (histogram.get(n) ?? 0) + 1)
      const job = jobs.get(file.resId)
      if (job?.indexed) indexed++
      else if (job?.state === 'failed') failed++
      else lost++
      if (heldAtKill.has(file.resId)) {
        // Claimed by the killed server and not committed: extracted again by its new owner (or, if the
        // server died between its claim and its first line, once).
        if (n === 2) again++
        else if (n !== 1) unexpected.push(`${file.resId}: ${n} extractions (held by the killed server)`)
      } else if (n !== 1) unexpected.push(`${file.resId}: ${n} extractions`)
    }
    const perFile = [...histogram.entries()]
      .sort(([a], [b]) => a - b)
      .map(([n, files]) => `${files} file(s) ${n}x`)
      .join(', ')
    console.log(
      `drained ${seconds.toFixed(1)} s after the servers were started (${(FILES / seconds).toFixed(1)} files/s), of which ${(seconds - killedAfter).toFixed(1)} s after the kill (the lease is ${LEASE_SECONDS} s)`,
    )
    console.log(`extractions per server: ${SERVERS.map((name) => `${name} ${byServer[name]}`).join(', ')}`)
    console.log(`files indexed: ${indexed} of ${files.length}; failed: ${failed}; jobs lost: ${lost}`)
    console.log(
      `extractions per file: ${perFile}; extracted again after the kill (claimed by the killed server, not committed): ${again} of ${heldAtKill.size}`,
    )
    console.log(
      unexpected.length === 0
        ? 'every other file was extracted exactly once'
        : `NOT exactly once: ${unexpected.length} file(s): ${unexpected.slice(0, 10).join('; ')}`,
    )
    if (unexpected.length > 0 || lost > 0 || failed > 0) process.exitCode = 1
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await client.end().catch(() => {})
    await database.drop()
    await rm(folder, { recursive: true, force: true })
  }
}

if (process.argv.includes('--server')) await serve()
else await main()
