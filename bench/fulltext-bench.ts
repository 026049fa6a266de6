/**
 * Full-text search (issue #35), each figure beside its floor (not a test):
 *
 * 1. Extraction throughput on one core: text PDFs through the extractor against `pdftotext` run directly on
 *    the same files; scanned pages (no text layer) through the extractor against `pdftoppm` + `tesseract`
 *    run directly with the same settings.
 * 2. The queue: BENCH_QUEUE_FILES text PDFs (default 1,000) created through Mailroom, then drained by three
 *    servers (createMailroom instances, two workers each) on one PostgreSQL database: time, files/s, and how
 *    many files were extracted more than once (must be 0).
 * 3. Creates/s with the queue's trigger on and off (the cost a create pays for being queued).
 *
 * Query latency at 1,000,000 records is fulltext-query-bench.ts.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext (after pnpm build)
 *   BENCH_QUEUE_FILES, BENCH_OCR_PAGES (default 3; 0: none),
 *   TEST_DATABASE_URL
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ExtractedText, ExtractionInput, TextExtractor } from '@mailroom/core'
import { CommandLineTextExtractor, createMailroom, type Mailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import pg from 'pg'
import { makeScannedLetter } from '../packages/testing/src/fixtures/files/index.js'
import { makeBenchPdf } from './bench-kit.js'

const QUEUE_FILES = Number(process.env.BENCH_QUEUE_FILES ?? 1000)
const OCR_PAGES = Number(process.env.BENCH_OCR_PAGES ?? 3)

const PDF = Buffer.from(makeBenchPdf(1, 3000))

const ms = (value: number) => `${value.toFixed(1)} ms`

async function timeEach(count: number, run: (index: number) => Promise<unknown> | unknown): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < count; i++) await run(i)
  return (performance.now() - started) / count
}

async function extractionThroughput(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-bench-'))
  try {
    const extractor = new CommandLineTextExtractor({ language: 'fr' })
    const pdfs = Array.from({ length: 20 }, () => makeBenchPdf(2, 20_000))
    await writeFile(join(folder, 'text.pdf'), pdfs[0]!)
    const viaMailroom = await timeEach(pdfs.length, (i) => extractor.extract({ bytes: pdfs[i]!, format: 'pdf' }))
    const direct = await timeEach(pdfs.length, () =>
      execFileSync('pdftotext', ['-enc', 'UTF-8', join(folder, 'text.pdf'), '-']),
    )
    console.log(
      `text PDF (2 pages): ${ms(viaMailroom)} per file (${(1000 / viaMailroom).toFixed(1)}/s on one core); pdftotext directly ${ms(direct)}`,
    )
    const { scannedPdf } = await makeScannedLetter(
      'Objet : réfection de la toiture du gymnase\nMadame la Directrice, la pluie traverse le plafond depuis février.',
    )
    await writeFile(join(folder, 'scan.pdf'), scannedPdf)
    const pages = OCR_PAGES
    if (pages === 0) return
    const ocr = await timeEach(pages, () => extractor.extract({ bytes: scannedPdf, format: 'pdf' }))
    const ocrDirect = await timeEach(pages, () => {
      execFileSync('pdftoppm', [
        '-r',
        '300',
        '-gray',
        '-png',
        '-singlefile',
        join(folder, 'scan.pdf'),
        join(folder, 'p'),
      ])
      execFileSync('tesseract', [join(folder, 'p.png'), 'stdout', '-l', 'fra+eng', '--psm', '3'], {
        env: { ...process.env, OMP_THREAD_LIMIT: '1' },
      })
    })
    console.log(`scanned page (OCR, 300 dpi): ${ms(ocr)} per page; pdftoppm + tesseract directly ${ms(ocrDirect)}`)
  } finally {
    await rm(folder, { recursive: true, force: true })
  }
}

/** Counts what it is given per file, then extracts with the real tools. */
class CountingExtractor implements TextExtractor {
  constructor(
    private readonly inner: TextExtractor,
    private readonly counts: Map<string, number>,
  ) {}
  extract(input: ExtractionInput): Promise<ExtractedText> {
    const key = createHash('sha256').update(input.bytes).digest('hex')
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1)
    return this.inner.extract(input)
  }
}

async function queueAndCreates(url: string, docserverDir: string): Promise<void> {
  const common = { database: url, docserverDir, secret: TEST_SECRET, passwordHasher: TEST_PASSWORD_HASHER }
  const writer = await createMailroom({ ...common, demo: true, fulltext: { workers: 0 }, throttle: false })
  try {
    const cchaplin = await writer.auth.authenticatePassword('cchaplin', 'maarch')
    const create = (i: number) =>
      writer.records.create(cchaplin, {
        modelId: 1,
        status: 'NEW',
        format: 'pdf',
        // Each file its own bytes (a comment after %%EOF), so the count per file is the count per job.
        encodedFile: Buffer.concat([PDF, Buffer.from(`\n%file ${i}-${Math.random()}\n`)]).toString('base64'),
      })
    // Creates/s with the trigger off, then on (the same files); the jobs made by the second run are the queue.
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await timeEach(100, create) // warm-up: prepared statements, caches, the JIT
    await client.query('delete from fulltext_jobs')
    // Alternate blocks with the trigger off and on, so that a machine's drift weighs on both alike.
    const times = { off: 0, on: 0 }
    const half = Math.ceil(QUEUE_FILES / 2)
    for (const state of ['off', 'on', 'off', 'on'] as const) {
      await client.query(
        `alter table res_letterbox ${state === 'off' ? 'disable' : 'enable'} trigger res_letterbox_fulltext`,
      )
      times[state] += (await timeEach(half, create)) / 2
    }
    const { off, on } = times
    console.log(
      `creates (one client): ${(1000 / off).toFixed(0)}/s without the queue, ${(1000 / on).toFixed(0)}/s with it (${(((on - off) / off) * 100).toFixed(1)} % per create)`,
    )
    await client.end()
    const counts = new Map<string, number>()
    const started = performance.now()
    const servers: Mailroom[] = await Promise.all(
      [0, 1, 2].map((n) =>
        createMailroom({
          ...common,
          migrate: false,
          fulltext: {
            workers: 2,
            pollMs: 50,
            serverName: `bench-${n}`,
            extractor: new CountingExtractor(new CommandLineTextExtractor({ language: 'fr' }), counts),
          },
        }),
      ),
    )
    for (;;) {
      const status = await writer.fulltext.status(0)
      if (status.pending === 0 && status.running === 0) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const seconds = (performance.now() - started) / 1000
    await Promise.all(servers.map((server) => server.close()))
    const status = await writer.fulltext.status(0)
    const twice = [...counts.values()].filter((n) => n > 1).length
    console.log(
      `queue: ${QUEUE_FILES} text PDFs drained by 3 servers x 2 workers in ${seconds.toFixed(1)} s (${(QUEUE_FILES / seconds).toFixed(0)} files/s), ${status.failed} failed, ${twice} extracted more than once`,
    )
  } finally {
    await writer.close()
  }
}

async function main(): Promise<void> {
  console.log('Mailroom full-text benchmark')
  await extractionThroughput()
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-bench-docs-'))
  try {
    const url = database.url as string
    await queueAndCreates(url, docserverDir)
  } finally {
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

await main()
