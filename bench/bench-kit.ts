/** Shared measuring loop of the benchmarks: concurrent clients, latencies, throughput, peak RSS. */
import { serializePdf } from '../packages/testing/src/fixtures/files/index.js'

/** What one timed phase measured. */
export interface PhaseResult {
  readonly name: string
  /** Completed operations. */
  readonly count: number
  readonly errors: number
  readonly perSecond: number
  readonly p50: number
  readonly p99: number
  readonly peakRssMb: number
}

/** Runs `operation` from `clients` concurrent loops for `seconds`, timing each call; errors are counted, the first printed. */
export async function runPhase(
  name: string,
  clients: number,
  seconds: number,
  operation: () => Promise<void>,
): Promise<PhaseResult> {
  const latencies: number[] = []
  let errors = 0
  let peakRss = process.memoryUsage().rss
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss)
  }, 100)
  const started = performance.now()
  const deadline = started + seconds * 1000
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now()
        try {
          await operation()
          latencies.push(performance.now() - t0)
        } catch (error) {
          if (errors++ === 0) console.error(`${name}: first error:`, error)
        }
      }
    }),
  )
  const elapsed = (performance.now() - started) / 1000
  clearInterval(sampler)
  latencies.sort((a, b) => a - b)
  return {
    name,
    count: latencies.length,
    errors,
    perSecond: latencies.length / elapsed,
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    peakRssMb: peakRss / 2 ** 20,
  }
}

/** Median of unsorted values (the upper one of an even count); NaN when there are none. */
export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  )
}

/** Nearest-rank quantile (`q` in [0, 1]) of values sorted ascending; NaN when there are none. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN
}

/** A valid PDF of `pages` pages whose text content streams bring it to about `size` bytes. */
export function makeBenchPdf(pages: number, size: number): Uint8Array {
  const perPage = Math.floor(size / pages)
  const objects: string[] = []
  const pageIds = Array.from({ length: pages }, (_, i) => 4 + i * 2)
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>'
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'
  for (let p = 0; p < pages; p++) {
    let ops = ''
    for (let line = 0; ops.length < perPage; line++) {
      ops += `BT /F1 9 Tf 40 ${800 - (line % 85) * 9} Td (Page ${p + 1} ligne ${line} : lorem ipsum dolor sit amet, consectetur adipiscing elit) Tj ET\n`
    }
    const pageId = pageIds[p] as number
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`
    objects[pageId + 1] = `<< /Length ${ops.length} >>\nstream\n${ops}endstream`
  }
  return new TextEncoder().encode(serializePdf(objects))
}

/** The create benchmarks' headers: cchaplin's Basic credentials and a JSON body. */
export const BENCH_CREATE_HEADERS: Readonly<Record<string, string>> = {
  authorization: `Basic ${Buffer.from('cchaplin:maarch').toString('base64')}`,
  'content-type': 'application/json',
}

/** The create benchmarks' body of POST /rest/resources: an incoming letter to COU from contact 1, `pdf` its file. */
export function benchCreateBody(pdf: Uint8Array): string {
  return JSON.stringify({
    modelId: 1,
    status: 'NEW',
    doctype: 101,
    subject: 'Bench',
    destination: 8,
    format: 'pdf',
    encodedFile: Buffer.from(pdf).toString('base64'),
    documentDate: '2024-05-14',
    senders: [{ id: 1, type: 'contact' }],
  })
}
