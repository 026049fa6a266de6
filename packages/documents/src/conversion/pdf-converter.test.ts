import { PDFDict, PDFDocument, PDFName } from '@cantoo/pdf-lib'
import { isDomainError } from '@mailroom/core'
import { GifReader } from 'omggif'
import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import {
  hasPdftotext,
  makeGif,
  makePdf,
  makePng,
  makeText,
  makeTiff,
  pdfText,
  readSample,
  SAMPLE_TEXT,
} from '../../../testing/src/fixtures/files/index.js'
import { ConversionService, decodeTextFile, encodePng, imageToPdf, textToPdf } from './pdf-converter.js'

const service = new ConversionService()

async function pages(pdf: Uint8Array) {
  const doc = await PDFDocument.load(pdf)
  return doc.getPages().map((p) => p.getSize())
}

function embeddedFontNames(doc: PDFDocument): string[] {
  const names: string[] = []
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (
      object instanceof PDFDict &&
      object.get(PDFName.of('Type')) === PDFName.of('FontDescriptor') &&
      object.has(PDFName.of('FontFile2'))
    ) {
      names.push(String(object.get(PDFName.of('FontName'))))
    }
  }
  return names
}

async function rejection(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('ConversionService', () => {
  it('passes PDFs through untouched and refuses a PDF without header', async () => {
    const pdf = makePdf({ pages: 2 })
    expect(await service.toPdf({ bytes: pdf, format: 'PDF' })).toBe(pdf)
    const error = await rejection(service.toPdf({ bytes: makeText(), format: 'pdf' }))
    expect(isDomainError(error) && error.code).toBe('CONVERSION_FAILED')
    expect((error as Error).message).toMatch(/^Conversion error : /)
  })

  it('puts each image on a page of its size', async () => {
    for (const [format, bytes] of [
      ['png', makePng(8, 6)],
      ['gif', makeGif(8, 6)],
      ['tiff', makeTiff(8, 6)],
    ] as const) {
      expect(await pages(await service.convert({ bytes, format })), format).toEqual([{ width: 8, height: 6 }])
    }
    const jpeg = await pages(await service.convert({ bytes: readSample('sample.jpg'), format: 'JPG' }))
    expect(jpeg).toHaveLength(1)
    expect(jpeg[0]?.width).toBeGreaterThan(0)
  })

  it('keeps every page of a multi-page TIFF and honours its resolution', async () => {
    expect(
      await pages(await imageToPdf(makeTiff(300, 150, [0, 0, 0], [255, 255, 255], { pages: 3, dpi: 150 }), 'tif')),
    ).toEqual([
      { width: 144, height: 72 },
      { width: 144, height: 72 },
      { width: 144, height: 72 },
    ])
  })

  it('converts GIF pixels faithfully through PNG', () => {
    const reader = new GifReader(Buffer.from(makeGif(8, 6, [255, 0, 0], [0, 0, 255])))
    const rgba = new Uint8Array(8 * 6 * 4)
    reader.decodeAndBlitFrameRGBA(0, rgba)
    expect(Array.from(rgba.subarray(0, 4))).toEqual([255, 0, 0, 255])
    expect(Array.from(rgba.subarray(rgba.length - 4))).toEqual([0, 0, 255, 255])
    const png = encodePng(8, 6, rgba)
    expect(Array.from(png.subarray(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47])
    // pngjs checks every chunk's CRC-32; IEND's is the one every PNG ends with.
    const decoded = PNG.sync.read(Buffer.from(png), { checkCRC: true })
    expect([decoded.width, decoded.height, ...decoded.data.subarray(0, 4)]).toEqual([8, 6, 255, 0, 0, 255])
    expect(Buffer.from(png.subarray(png.length - 4)).toString('hex')).toBe('ae426082')
  })

  it('lays text out in an embedded Unicode font, accents and other scripts intact', async () => {
    const pdf = await service.convert({ bytes: makeText(), format: 'txt' })
    const doc = await PDFDocument.load(pdf)
    expect(doc.getPageCount()).toBe(1)
    expect(doc.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 })
    expect(embeddedFontNames(doc).some((n) => n.includes('DejaVuSans'))).toBe(true)
    if (hasPdftotext()) {
      const text = pdfText(pdf)
      for (const line of SAMPLE_TEXT.trim().split('\n')) expect(text).toContain(line)
    }
  })

  it('wraps long lines and paginates long text', async () => {
    const long = `${'mot '.repeat(400)}\n${Array.from({ length: 150 }, (_, i) => `ligne ${i + 1}`).join('\n')}`
    const pdf = await textToPdf(new TextEncoder().encode(long))
    const doc = await PDFDocument.load(pdf)
    expect(doc.getPageCount()).toBeGreaterThanOrEqual(3)
    if (hasPdftotext()) {
      const text = pdfText(pdf)
      expect(text).toContain('ligne 150')
      expect(Math.max(...text.split('\n').map((l) => l.length))).toBeLessThan(140)
    }
  })

  it('starts a new page at a form feed and handles empty text', async () => {
    expect(await pages(await textToPdf(new TextEncoder().encode('a\fb')))).toHaveLength(2)
    expect(await pages(await textToPdf(new Uint8Array()))).toHaveLength(1)
  })

  it('decodes BOM, UTF-8 and Windows-1252 text', () => {
    expect(decodeTextFile(new Uint8Array([0xef, 0xbb, 0xbf, 0x41]))).toBe('A')
    expect(decodeTextFile(new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x80]))).toBe('Café€')
    expect(decodeTextFile(new Uint8Array([0xff, 0xfe, 0xa9, 0x03]))).toBe('Ω')
  })

  it('refuses non-convertible formats and office files without LibreOffice', async () => {
    expect(((await rejection(service.convert({ bytes: makeText(), format: 'csv' }))) as Error).message).toBe(
      'Conversion error : format csv cannot be converted to PDF',
    )
    expect(
      ((await rejection(service.convert({ bytes: readSample('sample.docx'), format: 'docx' }))) as Error).message,
    ).toMatch(/^Conversion error : LibreOffice is not installed/)
    const broken = await rejection(service.convert({ bytes: new Uint8Array([0x89, 0x50, 1, 2, 3]), format: 'png' }))
    expect(isDomainError(broken) && broken.code).toBe('CONVERSION_FAILED')
  })

  it('sends office formats to the office converter', async () => {
    const calls: string[] = []
    const office = {
      convert: async ({ format }: { format: string }) => {
        calls.push(format)
        return makePdf()
      },
    }
    const withOffice = new ConversionService({ office })
    await withOffice.convert({ bytes: readSample('sample.docx'), format: 'DOCX' })
    await withOffice.convert({ bytes: new Uint8Array([60]), format: 'html' })
    expect(calls).toEqual(['DOCX', 'html'])
  })

  it('tells its observer of each conversion: route, wait and outcome; not of PDFs passed through', async () => {
    const events: string[] = []
    let inFlight = 0
    let release: () => void = () => {}
    const office = { convert: () => new Promise<Uint8Array>((resolve) => (release = () => resolve(makePdf()))) }
    const observed = new ConversionService({
      office,
      observer: {
        conversionStarted: (route) => {
          inFlight++
          events.push(`start:${route}`)
          return (outcome) => {
            inFlight--
            events.push(`end:${route}:${outcome}`)
          }
        },
        libreOfficeRestarted: () => {},
      },
    })
    await observed.convert({ bytes: makePdf(), format: 'pdf' })
    await observed.convert({ bytes: makeText(), format: 'txt' })
    await rejection(observed.convert({ bytes: new Uint8Array([0x89, 0x50, 1, 2, 3]), format: 'png' }))
    const waiting = observed.convert({ bytes: readSample('sample.docx'), format: 'docx' })
    expect(inFlight).toBe(1)
    release()
    await waiting
    expect(inFlight).toBe(0)
    expect(events).toEqual([
      'start:text',
      'end:text:ok',
      'start:image',
      'end:image:failed',
      'start:office',
      'end:office:ok',
    ])
  })
})
