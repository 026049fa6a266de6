import { decodePDFRawStream, PDFArray, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib'
import { DEFAULT_WATERMARK_OPTIONS, isDomainError, type WatermarkOptions } from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import { hasPdftotext, makePdf, pdfText } from '../../../testing/src/fixtures/files/index.js'
import { watermarkPdf } from './watermark-pdf.js'

const options: WatermarkOptions = { ...DEFAULT_WATERMARK_OPTIONS }

/** The decoded content-stream operators of one page (what a viewer paints). */
async function pageOperators(pdf: Uint8Array, index: number): Promise<string> {
  const doc = await PDFDocument.load(pdf)
  const page = doc.getPage(index)
  const contents = page.node.Contents()
  const refs = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : []
  let out = ''
  for (const ref of refs) {
    const stream = doc.context.lookup(ref)
    if (stream instanceof PDFRawStream)
      out += `${new TextDecoder('latin1').decode(decodePDFRawStream(stream).decode())}\n`
  }
  return out
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise
  } catch (error) {
    return error
  }
  throw new Error('expected a rejection')
}

describe('watermarkPdf', () => {
  it('draws the text on every page with the configured colour and opacity', async () => {
    const pdf = await watermarkPdf(
      makePdf({ pages: 3 }),
      'Copie conforme de MAARCH/2024A/1 le 05-03-2024 08:09',
      options,
    )
    const doc = await PDFDocument.load(pdf)
    expect(doc.getPageCount()).toBe(3)
    for (let i = 0; i < 3; i++) {
      const ops = await pageOperators(pdf, i)
      expect(ops).toMatch(/0\.0784\d* 0\.7529\d* 0\.1176\d* rg/) // 20,192,30
      expect(ops).toContain('1 0 0 1 30 35 Tm')
      const gs = doc.getPage(i).node.Resources()?.lookup(PDFName.of('ExtGState'))
      expect(String(gs)).toContain('/ca 0.5')
      if (hasPdftotext()) expect(pdfText(pdf, i + 1)).toContain('Copie conforme de MAARCH/2024A/1 le 05-03-2024 08:09')
    }
  })

  it('uses the embedded Unicode font for text beyond WinAnsi', async () => {
    const text = 'Копия — Αντίγραφο — Copie'
    const pdf = await watermarkPdf(makePdf(), text, options)
    const raw = new TextDecoder('latin1').decode(await (await PDFDocument.load(pdf)).save({ useObjectStreams: false }))
    expect(raw).toContain('DejaVuSans')
    if (hasPdftotext()) expect(pdfText(pdf)).toContain(text)
    const latin = new TextDecoder('latin1').decode(await watermarkPdf(makePdf(), 'Copie conforme é', options))
    expect(latin).toContain('/Helvetica')
    expect(latin).not.toContain('DejaVuSans')
  })

  it('places the text from the visible corner of rotated pages', async () => {
    const pdf = await watermarkPdf(makePdf({ mediaBox: [600, 800], rotate: 90 }), 'WM', { ...options, x: 30, y: 35 })
    // Rotate 90: visible (30,35) is user space (600-35, 30), text turned by 90°.
    expect(await pageOperators(pdf, 0)).toMatch(/0\.0000000000000000612\d* 1 -1 0\.0000000000000000612\d* 565 30 Tm/)
    const upsideDown = await watermarkPdf(makePdf({ mediaBox: [600, 800], rotate: 180 }), 'WM', options)
    expect(await pageOperators(upsideDown, 0)).toMatch(
      /-1 0\.000000000000000122\d* -0\.000000000000000122\d* -1 570 765 Tm/,
    )
  })

  it('honours the angle and font size', async () => {
    const pdf = await watermarkPdf(makePdf(), 'WM', { ...options, angle: 45, fontSize: 30 })
    const ops = await pageOperators(pdf, 0)
    expect(ops).toContain('0.7071067811865476 0.7071067811865475 -0.7071067811865475 0.7071067811865476 30 35 Tm')
    expect(ops).toMatch(/ 30 Tf/)
  })

  it('refuses encrypted and unreadable PDFs with domain errors', async () => {
    const encrypted = new TextDecoder('latin1')
      .decode(makePdf())
      .replace('/Root 1 0 R >>', '/Root 1 0 R /Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >> >>')
    const e1 = await failure(watermarkPdf(new TextEncoder().encode(encrypted), 'WM', options))
    expect(isDomainError(e1) && e1.code).toBe('PDF_ENCRYPTED')
    const e2 = await failure(watermarkPdf(new TextEncoder().encode('not a pdf at all'), 'WM', options))
    expect(isDomainError(e2) && e2.code).toBe('PDF_UNREADABLE')
  })

  it('returns the PDF unchanged for an empty text', async () => {
    const pdf = makePdf()
    expect(await watermarkPdf(pdf, '  ', options)).toBe(pdf)
  })
})
