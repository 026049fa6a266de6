import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PDFDocument } from '@cantoo/pdf-lib'
import { isDomainError } from '@mailroom/core'
import { afterAll, describe, expect, it } from 'vitest'
import { hasPdftotext, makeHtml, pdfText, readSample } from '../../../testing/src/fixtures/files/index.js'
import { findSoffice, LibreOfficeConverter } from './libreoffice-converter.js'
import { ConversionService } from './pdf-converter.js'

const scratch = mkdtempSync(join(tmpdir(), 'mailroom-lo-test-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A stand-in `soffice` that never finishes, to test timeouts and the queue without LibreOffice. */
function stuckSoffice(): string {
  const path = join(scratch, 'stuck-soffice.sh')
  writeFileSync(path, '#!/bin/sh\nsleep 300 & wait\n')
  chmodSync(path, 0o755)
  return path
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('LibreOfficeConverter without LibreOffice', () => {
  it('scales the timeout with the file size', () => {
    const converter = new LibreOfficeConverter({ sofficePath: '/bin/true', mode: 'process' })
    expect(converter.timeoutFor(0)).toBe(30_000)
    expect(converter.timeoutFor(1)).toBe(31_000)
    expect(converter.timeoutFor(1_024_000)).toBe(40_000)
  })

  it('kills a stuck conversion at the timeout and cleans its files', async () => {
    const workDir = join(scratch, 'work-timeout')
    const converter = new LibreOfficeConverter({
      sofficePath: stuckSoffice(),
      mode: 'process',
      workDir,
      baseTimeoutMs: 300,
      timeoutPer100KbMs: 0,
    })
    const started = Date.now()
    const error = await failure(converter.convert({ bytes: readSample('sample.docx'), format: 'docx' }))
    // Stopped at the 300 ms timeout, not at the stuck process's own end (300 s), on a loaded machine too.
    expect(Date.now() - started).toBeLessThan(30_000)
    expect(isDomainError(error) && error.code).toBe('CONVERSION_FAILED')
    expect((error as Error).message).toBe('Conversion error : LibreOffice did not finish within 300 ms and was stopped')
    expect(readdirSync(workDir)).toEqual([])
  })

  it('refuses conversions beyond the queue length, then accepts again', async () => {
    const converter = new LibreOfficeConverter({
      sofficePath: stuckSoffice(),
      mode: 'process',
      workDir: join(scratch, 'work-queue'),
      baseTimeoutMs: 300,
      timeoutPer100KbMs: 0,
      maxQueue: 1,
    })
    const input = { bytes: readSample('sample.odt'), format: 'odt' }
    const first = converter.convert(input)
    const second = converter.convert(input)
    const third = await failure(converter.convert(input))
    expect(isDomainError(third) && third.code).toBe('CONVERSION_QUEUE_FULL')
    expect(converter.pending).toBe(2)
    await Promise.allSettled([first, second])
    expect(converter.pending).toBe(0)
    await expect(converter.convert(input)).rejects.toThrow(/did not finish/)
  })

  it('reports a missing soffice as a conversion error', async () => {
    const converter = new LibreOfficeConverter({
      sofficePath: join(scratch, 'no-such-soffice'),
      mode: 'process',
      workDir: join(scratch, 'work-missing'),
    })
    await expect(converter.convert({ bytes: readSample('sample.odt'), format: 'odt' })).rejects.toThrow(
      /^Conversion error : LibreOffice produced no PDF/,
    )
  })
})

const soffice = findSoffice()

describe.skipIf(!soffice)('LibreOfficeConverter with LibreOffice', () => {
  for (const mode of ['process', 'auto'] as const) {
    it(`converts real docx, odt, xlsx, doc and html files (${mode} mode)`, async () => {
      const converter = new LibreOfficeConverter({ mode, workDir: join(scratch, `work-${mode}`) })
      const service = new ConversionService({ office: converter })
      try {
        for (const [format, bytes, expected] of [
          ['docx', readSample('sample.docx'), 'Courrier de test'],
          ['odt', readSample('sample.odt'), 'Ελληνικά'],
          ['doc', readSample('sample.doc'), 'Кириллица'],
          ['xlsx', readSample('sample.xlsx'), 'Dupont'],
          ['html', makeHtml('<h1>Réponse</h1>'), 'Réponse'],
        ] as const) {
          const pdf = await service.toPdf({ bytes, format })
          expect((await PDFDocument.load(pdf)).getPageCount(), format).toBeGreaterThan(0)
          if (hasPdftotext()) expect(pdfText(pdf), format).toContain(expected)
        }
        expect(readdirSync(join(scratch, `work-${mode}`)).filter((f) => f.startsWith('mailroom-convert-'))).toEqual([])
      } finally {
        await converter.close()
      }
    }, 120_000)
  }

  it('fails cleanly on a corrupt office file', async () => {
    const converter = new LibreOfficeConverter({ mode: 'process', workDir: join(scratch, 'work-corrupt') })
    try {
      const bytes = readSample('sample.docx').slice(0, 200)
      await expect(converter.convert({ bytes, format: 'docx' })).rejects.toThrow(/^Conversion error : /)
    } finally {
      await converter.close()
    }
  })
})

describe.skipIf(!soffice)('LibreOfficeConverter listener fallback', () => {
  it('falls back to one process per file when unoconv cannot work, then stops trying it', async () => {
    const broken = join(scratch, 'broken-unoconv.sh')
    writeFileSync(broken, '#!/bin/sh\nexit 1\n')
    chmodSync(broken, 0o755)
    let restarts = 0
    const observer = { libreOfficeRestarted: () => void restarts++ }
    const converter = new LibreOfficeConverter({
      mode: 'listener',
      unoconvPath: broken,
      workDir: join(scratch, 'work-fallback'),
      observer,
    })
    try {
      expect(converter.mode).toBe('listener')
      for (let i = 0; i < 2; i++) {
        const pdf = await converter.convert({ bytes: readSample('sample.odt'), format: 'odt' })
        expect((await PDFDocument.load(pdf)).getPageCount()).toBe(1)
      }
      expect(converter.mode).toBe('process')
      // The second conversion started the listener again after the first one failed: one restart.
      expect(restarts).toBe(1)
    } finally {
      await converter.close()
    }
  }, 120_000)
})
