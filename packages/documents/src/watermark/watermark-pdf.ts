import type { Color, PDFDocument, PDFFont, PDFPage, StandardFonts } from '@cantoo/pdf-lib'
import type { PdfWatermarker, WatermarkOptions } from '@mailroom/core'
import { domainError, isDomainError } from '@mailroom/core'
import { loadUnicodeFont } from '../fonts/unicode-font.js'
import { type PdfLibrary, pdfLibrary } from '../pdf-library/pdf-library.js'

// pdf-lib's StandardFonts values, written out so that the map needs no pdf-lib before the first watermark.
const STANDARD_FONTS: Readonly<Record<string, `${StandardFonts}`>> = {
  helvetica: 'Helvetica',
  times: 'Times-Roman',
  courier: 'Courier',
}

/**
 * Draws `text` on every page of a PDF (reference WatermarkController). Position, angle and font size are
 * taken on the page as displayed: the page's /Rotate and crop box are applied, so the text sits at (x, y)
 * from the visible bottom-left corner and reads at `angle` on screen. A standard font is used when the
 * text is WinAnsi, else the embedded DejaVu Sans. Encrypted PDFs fail with PDF_ENCRYPTED, unreadable ones
 * with PDF_UNREADABLE: the caller decides what to serve.
 */
export async function watermarkPdf(pdfBytes: Uint8Array, text: string, options: WatermarkOptions): Promise<Uint8Array> {
  const library = await pdfLibrary()
  const doc = await loadPdf(library, pdfBytes)
  const pages = safePages(doc)
  if (text.trim() === '') return pdfBytes
  try {
    const font = await chooseFont(library, doc, text, options.fontFamily)
    const color = library.pdfLib.rgb(
      ...(options.color.map((c) => Math.min(255, Math.max(0, c)) / 255) as [number, number, number]),
    )
    for (const page of pages) drawOnPage(library, page, text, font, options, color)
    return await doc.save({ useObjectStreams: false })
  } catch (error) {
    if (isDomainError(error)) throw error
    throw domainError('PDF_UNREADABLE')
  }
}

/** {@link watermarkPdf} as the core's PdfWatermarker port. */
export const pdfWatermarker: PdfWatermarker = { watermark: watermarkPdf }

async function loadPdf({ pdfLib }: PdfLibrary, bytes: Uint8Array): Promise<PDFDocument> {
  let doc: PDFDocument
  try {
    // Loaded even when encrypted so `isEncrypted` tells: matching pdf-lib's EncryptedPDFError by class breaks
    // when its CJS and ESM builds are both loaded.
    doc = await pdfLib.PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true })
  } catch {
    throw domainError('PDF_UNREADABLE')
  }
  if (doc.isEncrypted) throw domainError('PDF_ENCRYPTED')
  return doc
}

function safePages(doc: PDFDocument): PDFPage[] {
  let pages: PDFPage[]
  try {
    pages = doc.getPages()
  } catch {
    throw domainError('PDF_UNREADABLE')
  }
  // pdf-lib recovers from many broken files by returning an empty document: never serve that as a watermark.
  if (pages.length === 0) throw domainError('PDF_UNREADABLE')
  return pages
}

async function chooseFont(library: PdfLibrary, doc: PDFDocument, text: string, family: string): Promise<PDFFont> {
  const standard = STANDARD_FONTS[family.toLowerCase()]
  // Helvetica, Times and Courier write WinAnsi only; the library would print `?` for anything else (Greek,
  // Cyrillic…), so such text goes to the Unicode font.
  if (standard && Array.from(text).every((c) => library.winAnsi.canEncodeUnicodeCodePoint(c.codePointAt(0)!))) {
    return doc.embedFont(standard)
  }
  doc.registerFontkit(library.fontkit)
  return doc.embedFont(await loadUnicodeFont(), { subset: true })
}

function drawOnPage(
  { pdfLib }: PdfLibrary,
  page: PDFPage,
  text: string,
  font: PDFFont,
  options: WatermarkOptions,
  color: Color,
): void {
  const box = page.getCropBox()
  const rotation = (((page.getRotation().angle % 360) + 360) % 360) as number
  const { x: vx, y: vy } = options
  // Visible coordinates → user space, per /Rotate (the viewer turns the page clockwise by that angle).
  let x = box.x + vx
  let y = box.y + vy
  if (rotation === 90) {
    x = box.x + box.width - vy
    y = box.y + vx
  } else if (rotation === 180) {
    x = box.x + box.width - vx
    y = box.y + box.height - vy
  } else if (rotation === 270) {
    x = box.x + vy
    y = box.y + box.height - vx
  }
  page.drawText(text, {
    x,
    y,
    font,
    size: options.fontSize,
    color,
    opacity: Math.min(1, Math.max(0, options.opacity)),
    rotate: pdfLib.degrees(options.angle + (rotation === 90 || rotation === 180 || rotation === 270 ? rotation : 0)),
  })
}
