import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONSOLE_DIST } from './console-dist.js'

describe('the console build', () => {
  it('stays under 300 KB gzipped without pdf.js’s worker, the console itself a small part of it', () => {
    const report = JSON.parse(readFileSync(`${CONSOLE_DIST}/bundle-size.json`, 'utf8')) as {
      totalGzipWithoutWorker: number
      appGzip: number
      workerGzip: number
    }
    expect(report.totalGzipWithoutWorker).toBeLessThan(300 * 1024)
    expect(report.appGzip).toBeLessThan(60 * 1024)
    // The worker is counted apart: it is there, and not in the total.
    expect(report.workerGzip).toBeGreaterThan(100 * 1024)
  })
})
