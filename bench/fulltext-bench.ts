/**
 * Full-text search (issue #35), each figure beside its floor (not a test):
 *
 * 1. Extraction throughput on one core: text PDFs through the extractor against `pdftotext` run directly on
 *    the same files; scanned pages (no text layer) through the extractor against `pdftoppm` + `tesseract`
 *    run directly with the same settings.
 * 2. (The queue shared by three server processes, one killed: bench/fulltext-queue-bench.ts; creates/s with
 *    the queue on and off: bench/fulltext-creates-bench.ts.)
 * 3. Query latency: BENCH_TEXT_RECORDS records with text (default 100,000; the target is 1,000,000 on
 *    a quiet machine), `fulltext('w1 w2')` searches as bbain (AGENT: the perimeter applies), p50 and p99,
 *    beside the same tsquery run directly on fulltext_texts without perimeter.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext (after pnpm build)
 *   BENCH_TEXT_RECORDS, BENCH_QUERIES (default 300), BENCH_OCR_PAGES (default 3; 0: none),
 *   TEST_DATABASE_URL
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CommandLineTextExtractor, createMailroom } from '@mailroom/mailroom'
import { createTestDatabase, TEST_PASSWORD_HASHER, TEST_SECRET } from '@mailroom/testing'
import pg from 'pg'
import { makeScannedLetter } from '../packages/testing/src/fixtures/files/index.js'
import { makeBenchPdf, quantile } from './bench-kit.js'

const TEXT_RECORDS = Number(process.env.BENCH_TEXT_RECORDS ?? 100_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 300)
const OCR_PAGES = Number(process.env.BENCH_OCR_PAGES ?? 3)
const VOCABULARY = 5000

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

/** Loads the demo organisation (the users and perimeters the queries run as). */
async function loadDemo(url: string, docserverDir: string): Promise<void> {
  const mailroom = await createMailroom({
    database: url,
    docserverDir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    demo: true,
    fulltext: { workers: 0 },
  })
  await mailroom.close()
}

async function queryLatency(url: string, docserverDir: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const seedStarted = performance.now()
  await client.query("set statement_timeout = 0; set maintenance_work_mem = '512MB'; set synchronous_commit = off")
  await client.query(
    `insert into res_letterbox (subject, typist, category_id, model_id, status, destination, creation_date, modification_date, priority)
     select 'Courrier ' || g, 1 + (g * 31) % 500, 'incoming', 1, 'NEW',
       (array['VILLE','CAB','DGS','DRH','DSI','PJS','PE','COU'])[1 + g % 8], now(), now(), 'poiuytre1357nbvc'
     from generate_series(1, $1::int) g`,
    [TEXT_RECORDS],
  )
  // Sixty words per letter from a vocabulary of 5,000 ("motNNNN"): each word is in about 1.2 % of the letters.
  await client.query('drop index fulltext_texts_document')
  await client.query(
    `insert into fulltext_texts (file_kind, file_id, res_id, method, language, content, document)
     select 'resource', r.res_id, r.res_id, 'text-layer', 'fr', t.content, to_tsvector('mailroom_fr', t.content)
     from res_letterbox r
     cross join lateral (select string_agg('mot' || ((r.res_id * k * 7919 + k * 104729) % ${VOCABULARY}), ' ') as content
                         from generate_series(1, 60) k) t
     where r.filename is null`,
  )
  await client.query('create index fulltext_texts_document on fulltext_texts using gin (document)')
  await client.query('vacuum analyze res_letterbox')
  await client.query('vacuum analyze fulltext_texts')
  console.log(
    `${TEXT_RECORDS.toLocaleString('en')} records with text seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`,
  )
  const mailroom = await createMailroom({
    database: url,
    docserverDir,
    secret: TEST_SECRET,
    passwordHasher: TEST_PASSWORD_HASHER,
    migrate: false,
    fulltext: { workers: 0 },
  })
  try {
    const bbain = await mailroom.auth.authenticatePassword('bbain', 'maarch')
    // One word in two searches (about 1.2 % of the letters match), two words in the others (a handful).
    const words = (i: number) =>
      i % 2 === 0 ? `mot${(i * 7) % VOCABULARY}` : `mot${(i * 7) % VOCABULARY} mot${(i * 13 + 1) % VOCABULARY}`
    const latencies: number[] = []
    const direct: number[] = []
    for (let i = 0; i < QUERIES; i++) {
      let started = performance.now()
      const { hits } = await mailroom.search.find(bbain, {
        select: 'res_id, subject, fulltext_excerpt',
        clause: `fulltext('${words(i)}')`,
        limit: 20,
      })
      for await (const _ of hits as AsyncIterable<unknown>);
      latencies.push(performance.now() - started)
      started = performance.now()
      await client.query(
        `select res_id from fulltext_texts where document @@ websearch_to_tsquery('mailroom_fr', $1) order by ts_rank_cd(document, websearch_to_tsquery('mailroom_fr', $1)) desc limit 20`,
        [words(i)],
      )
      direct.push(performance.now() - started)
    }
    latencies.sort((a, b) => a - b)
    direct.sort((a, b) => a - b)
    console.log(
      `fulltext query as bbain (perimeter, rank, excerpt, limit 20): p50 ${ms(quantile(latencies, 0.5))}, p99 ${ms(quantile(latencies, 0.99))}; tsquery directly on fulltext_texts (no perimeter, no excerpt): p50 ${ms(quantile(direct, 0.5))}, p99 ${ms(quantile(direct, 0.99))}`,
    )
  } finally {
    await mailroom.close()
    await client.end()
  }
}

async function main(): Promise<void> {
  console.log('Mailroom full-text benchmark')
  await extractionThroughput()
  const database = await createTestDatabase('postgres')
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-bench-docs-'))
  try {
    const url = database.url as string
    await loadDemo(url, docserverDir)
    await queryLatency(url, docserverDir)
  } finally {
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

await main()
