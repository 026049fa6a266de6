import fontkit from '@cantoo/fontkit'
import { degrees, PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from '@cantoo/pdf-lib'
import { Encodings } from '@cantoo/pdf-lib/standard-fonts'
import type { PdfWatermarker, WatermarkOptions } from '@mailroom/core'
import { domainError, isDomainError } from '@mailroom/core'
import { loadUnicodeFont } from '../fonts/unicode-font.js'

const STANDARD_FONTS: Readonly<Record<string, StandardFonts>> = {
  helvetica: StandardFonts.Helvetica,
  times: StandardFonts.TimesRoman,
  courier: StandardFonts.Courier,
}

/**
 * Draws `text` on every page of a PDF (reference WatermarkController). Position, angle and font size are
 * taken on the page as displayed: the page's /Rotate and crop box are applied, so the text sits at (x, y)
 * from the visible bottom-left corner and reads at `angle` on screen. A standard font is used when the
 * text is WinAnsi, else the embedded DejaVu Sans. Encrypted PDFs fail with PDF_ENCRYPTED, unreadable ones
 * with PDF_UNREADABLE: the caller decides what to serve.
 */
export async function watermarkPdf(pdfBytes: Uint8Array, text: string, options: WatermarkOptions): Promise<Uint8Array> {
  const doc = await loadPdf(pdfBytes)
  const pages = safePages(doc)
  if (text.trim() === '') return pdfBytes
  try {
    const font = await chooseFont(doc, text, options.fontFamily)
    const color = rgb(...(options.color.map((c) => Math.min(255, Math.max(0, c)) / 255) as [number, number, number]))
    for (const page of pages) drawOnPage(page, text, font, options, color)
    return await doc.save({ useObjectStreams: false })
  } catch (error) {
    if (isDomainError(error)) throw error
    throw domainError('PDF_UNREADABLE')
  }
}

/** {@link watermarkPdf} as the core's PdfWatermarker port. */
export const pdfWatermarker: PdfWatermarker = { watermark: watermarkPdf }

async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  let doc: PDFDocument
  try {
    // Loaded even when encrypted so `isEncrypted` tells: matching pdf-lib's EncryptedPDFError by class breaks
    // when its CJS and ESM builds are both loaded.
    doc = await PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true })
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

async function chooseFont(doc: PDFDocument, text: string, family: string): Promise<PDFFont> {
  const standard = STANDARD_FONTS[family.toLowerCase()]
  // Helvetica, Times and Courier write WinAnsi only; the library would print `?` for anything else (Greek,
  // Cyrillic…), so such text goes to the Unicode font.
  if (standard && Array.from(text).every((c) => Encodings.WinAnsi.canEncodeUnicodeCodePoint(c.codePointAt(0)!))) {
    return doc.embedFont(standard)
  }
  doc.registerFontkit(fontkit)
  return doc.embedFont(await loadUnicodeFont(), { subset: true })
}

function drawOnPage(
  page: PDFPage,
  text: string,
  font: PDFFont,
  options: WatermarkOptions,
  color: ReturnType<typeof rgb>,
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
    rotate: degrees(options.angle + (rotation === 90 || rotation === 180 || rotation === 270 ? rotation : 0)),
  })
}
