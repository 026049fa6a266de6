/**
 * Full-text search (issue #35), each figure beside its floor (not a test):
 *
 * 1. Extraction throughput on one core: text PDFs through the extractor against `pdftotext` run directly on
 *    the same files; scanned pages (no text layer) through the extractor against `pdftoppm` + `tesseract`
 *    run directly with the same settings.
 *
 * The queue shared by three server processes, one killed: fulltext-queue-bench.ts; creates/s with the queue
 * on and off: fulltext-creates-bench.ts; query latency at 1,000,000 records: fulltext-query-bench.ts.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext (after pnpm build)
 *   BENCH_OCR_PAGES (default 3; 0: none)
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CommandLineTextExtractor } from '@mailroom/mailroom'
import { makeScannedLetter } from '../packages/testing/src/fixtures/files/index.js'
import { makeBenchPdf } from './bench-kit.js'

const OCR_PAGES = Number(process.env.BENCH_OCR_PAGES ?? 3)

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

async function main(): Promise<void> {
  console.log('Mailroom full-text benchmark')
  await extractionThroughput()
}

await main()
