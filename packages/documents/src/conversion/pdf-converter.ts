import { availableParallelism } from 'node:os'
// zlib.crc32 is in Node since 20.15 and 22.2 (engines: >= 22.12).
import { crc32, deflateSync } from 'node:zlib'
import type { PDFDocument, PDFFont, PDFImage } from '@cantoo/pdf-lib'
import type { ConversionObserver, ConvertInput, PdfConverter } from '@mailroom/core'
import { domainError, fail, isDomainError } from '@mailroom/core'
import { conversionKind, normaliseFormat } from '@mailroom/core/internal'
import { GifReader } from 'omggif'
import UTIF from 'utif2'
import { loadUnicodeFont } from '../fonts/unicode-font.js'
import { pdfLibrary } from '../pdf-library/pdf-library.js'
import { ConcurrencyLimit } from './concurrency-limit.js'

/** A4 portrait, in points. */
export const A4: readonly [number, number] = [595.28, 841.89]

/** Layout of text files on PDF pages. */
export interface TextLayout {
  readonly pageSize: readonly [number, number]
  readonly margin: number
  readonly fontSize: number
  readonly lineHeight: number
}

/** 10 pt DejaVu Sans on A4 with 2 cm margins. */
export const DEFAULT_TEXT_LAYOUT: TextLayout = { pageSize: A4, margin: 56.7, fontSize: 10, lineHeight: 13 }

/** True when `bytes` holds a PDF header (readers accept it within the first 1024 bytes). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 1024))
  return head.includes('%PDF-')
}

/** A PDF as it is, once its header is checked: the reference copies PDFs without touching them. */
export function passThroughPdf(bytes: Uint8Array): Uint8Array {
  if (!looksLikePdf(bytes)) fail('CONVERSION_FAILED', { detail: 'file declared as PDF has no PDF header' })
  return bytes
}

/** One page per image (every frame of a multi-page TIFF), each page the size of its image. */
export async function imageToPdf(bytes: Uint8Array, format: string): Promise<Uint8Array> {
  return wrapFailures('image', async () => {
    const doc = await (await pdfLibrary()).pdfLib.PDFDocument.create()
    for (const image of await embedImages(doc, bytes, normaliseFormat(format))) {
      const page = doc.addPage([image.width, image.height])
      page.drawImage(image.image, { x: 0, y: 0, width: image.width, height: image.height })
    }
    return doc.save()
  })
}

interface PlacedImage {
  image: PDFImage
  /** Page size in points. */
  width: number
  height: number
}

async function embedImages(doc: PDFDocument, bytes: Uint8Array, format: string): Promise<PlacedImage[]> {
  // The sniffed bytes decide, not the extension: a PNG saved as .jpg is still embedded as PNG.
  if (bytes[0] === 0x89 && bytes[1] === 0x50) return [placed(await doc.embedPng(bytes))]
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return [placed(await doc.embedJpg(bytes))]
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) return [placed(await doc.embedPng(gifToPng(bytes)))]
  if ((bytes[0] === 0x49 && bytes[1] === 0x49) || (bytes[0] === 0x4d && bytes[1] === 0x4d)) return tiffPages(doc, bytes)
  throw new Error(`unsupported image data for format ${format}`)
}

function placed(image: PDFImage, dpi = 72): PlacedImage {
  return { image, width: (image.width * 72) / dpi, height: (image.height * 72) / dpi }
}

/** The first frame of a GIF, composited to RGBA and re-encoded as PNG. */
function gifToPng(bytes: Uint8Array): Uint8Array {
  const reader = new GifReader(bytes as unknown as Buffer)
  const rgba = new Uint8Array(reader.width * reader.height * 4)
  reader.decodeAndBlitFrameRGBA(0, rgba)
  return encodePng(reader.width, reader.height, rgba)
}

async function tiffPages(doc: PDFDocument, bytes: Uint8Array): Promise<PlacedImage[]> {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
  const ifds = UTIF.decode(buffer).filter((ifd) => ifd.t256 !== undefined && ifd.t257 !== undefined)
  if (ifds.length === 0) throw new Error('TIFF has no image')
  const pages: PlacedImage[] = []
  for (const ifd of ifds) {
    UTIF.decodeImage(buffer, ifd)
    const rgba = UTIF.toRGBA8(ifd)
    // Scans are often 200–300 dpi: honour the resolution tag so an A4 scan becomes an A4 page.
    pages.push(placed(await doc.embedPng(encodePng(ifd.width, ifd.height, rgba)), tiffDpi(ifd)))
  }
  return pages
}

function tiffDpi(ifd: UTIF.IFD): number {
  // UTIF gives a RATIONAL as [[numerator, denominator]].
  const first: unknown = Array.isArray(ifd.t282) ? ifd.t282[0] : ifd.t282
  const value = Array.isArray(first) ? Number(first[0]) / Number(first[1]) : Number(first)
  const unit = Array.isArray(ifd.t296) ? Number(ifd.t296[0]) : 2
  if (!Number.isFinite(value) || value <= 0) return 72
  const dpi = unit === 3 ? value * 2.54 : unit === 2 ? value : 72
  return dpi >= 36 && dpi <= 2400 ? dpi : 72
}

/**
 * RGBA pixels as a PNG: RGB (colour type 2) when every pixel is opaque so pdf-lib adds no soft mask,
 * RGBA (type 6) otherwise.
 */
export function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  let opaque = true
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) opaque = false
  const channels = opaque ? 3 : 4
  const stride = 1 + width * channels
  const raw = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = (y * width + x) * 4
      const to = y * stride + 1 + x * channels
      raw[to] = rgba[from] ?? 0
      raw[to + 1] = rgba[from + 1] ?? 0
      raw[to + 2] = rgba[from + 2] ?? 0
      if (!opaque) raw[to + 3] = rgba[from + 3] ?? 0
    }
  }
  const header = new Uint8Array(13)
  const view = new DataView(header.buffer)
  view.setUint32(0, width)
  view.setUint32(4, height)
  header.set([8, opaque ? 2 : 6, 0, 0, 0], 8)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(raw)),
    pngChunk('IEND', new Uint8Array()),
  ])
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(body.length + 8)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc32(body), body.length + 4)
  return out
}

/** Decodes a text file: UTF-8 or UTF-16 with BOM, UTF-8, else Windows-1252 (the common legacy encoding). */
export function decodeTextFile(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3))
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2))
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2))
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return decodeWindows1252(bytes)
  }
}

// 0x80–0x9F of Windows-1252 (undefined positions kept as the C1 code point). Node's TextDecoder treats the
// `windows-1252` label as ISO-8859-1 and would turn € into U+0080.
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ'

function decodeWindows1252(bytes: Uint8Array): string {
  let out = ''
  for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b)
  return out
}

/**
 * A text file laid out on A4 pages in DejaVu Sans (embedded, subset), word-wrapped to the margins,
 * a form feed starting a new page. Characters the font lacks show as its missing-glyph box.
 */
export async function textToPdf(bytes: Uint8Array, layout: TextLayout = DEFAULT_TEXT_LAYOUT): Promise<Uint8Array> {
  return wrapFailures('text', async () => {
    const { pdfLib, fontkit } = await pdfLibrary()
    const doc = await pdfLib.PDFDocument.create()
    doc.registerFontkit(fontkit)
    const font = await doc.embedFont(await loadUnicodeFont(), { subset: true })
    const [pageWidth, pageHeight] = layout.pageSize
    const maxWidth = pageWidth - 2 * layout.margin
    const linesPerPage = Math.max(1, Math.floor((pageHeight - 2 * layout.margin) / layout.lineHeight))
    const text = decodeTextFile(bytes)
      .replace(/\r\n?/g, '\n')
      .replace(/\t/g, '    ')
      // Other C0/C1 controls have no glyph and would print as boxes.
      .replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f-\u009f]/g, '')
    for (const block of text.split('\f')) {
      const lines = block.split('\n').flatMap((line) => wrapLine(line, font, layout.fontSize, maxWidth))
      for (let start = 0; start < Math.max(lines.length, 1); start += linesPerPage) {
        const page = doc.addPage([pageWidth, pageHeight])
        lines.slice(start, start + linesPerPage).forEach((line, i) => {
          if (line === '') return
          page.drawText(line, {
            x: layout.margin,
            y: pageHeight - layout.margin - layout.fontSize - i * layout.lineHeight,
            size: layout.fontSize,
            font,
          })
        })
      }
    }
    return doc.save()
  })
}

/** Splits one line into pieces no wider than `maxWidth`: at spaces when possible, else inside long words. */
export function wrapLine(line: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const width = (s: string) => font.widthOfTextAtSize(s, size)
  if (width(line) <= maxWidth) return [line.trimEnd()]
  const out: string[] = []
  let current = ''
  for (const word of line.split(/(?<= )/)) {
    if (width(current + word) <= maxWidth || (current === '' && width(word.trimEnd()) <= maxWidth)) {
      current += word
      continue
    }
    if (current !== '') out.push(current.trimEnd())
    current = ''
    let rest = word
    while (width(rest.trimEnd()) > maxWidth) {
      const chars = Array.from(rest)
      let n = chars.length
      while (n > 1 && width(chars.slice(0, n).join('')) > maxWidth) n--
      out.push(chars.slice(0, n).join(''))
      rest = chars.slice(n).join('')
    }
    current = rest
  }
  if (current.trimEnd() !== '' || out.length === 0) out.push(current.trimEnd())
  return out
}

async function wrapFailures(kind: string, run: () => Promise<Uint8Array>): Promise<Uint8Array> {
  try {
    return await run()
  } catch (error) {
    if (isDomainError(error)) throw error
    const reason = error instanceof Error ? error.message : String(error)
    throw domainError('CONVERSION_FAILED', { detail: `${kind} could not be converted (${reason})` })
  }
}

/** Converts office formats (a LibreOffice converter). */
export interface OfficeConverter {
  convert(input: ConvertInput): Promise<Uint8Array>
}

/** What {@link ConversionService} needs: the office route is optional (no LibreOffice installed). */
export interface ConversionServiceOptions {
  readonly office?: OfficeConverter
  readonly textLayout?: TextLayout
  /** In-process (image, text) conversions running at once; default: the cores available. */
  readonly inProcessConcurrency?: number
  /** Told of every conversion, its wait and its outcome (metrics); nothing by default. */
  readonly observer?: ConversionObserver
}

/**
 * The PdfConverter of the content read: picks the route from the core's format table. PDFs pass through,
 * images and text are laid out in-process with pdf-lib, office formats go to LibreOffice.
 */
export class ConversionService implements PdfConverter {
  readonly #office: OfficeConverter | undefined
  readonly #textLayout: TextLayout
  readonly #inProcess: ConcurrencyLimit
  readonly #observer: ConversionObserver | undefined

  constructor(options: ConversionServiceOptions = {}) {
    this.#office = options.office
    this.#observer = options.observer
    this.#textLayout = options.textLayout ?? DEFAULT_TEXT_LAYOUT
    this.#inProcess = new ConcurrencyLimit(options.inProcessConcurrency ?? availableParallelism())
  }

  /** Alias of {@link convert} with the name the use cases read best. */
  toPdf(input: ConvertInput): Promise<Uint8Array> {
    return this.convert(input)
  }

  /** Turns a file into PDF bytes, or fails with CONVERSION_FAILED / CONVERSION_QUEUE_FULL. */
  async convert(input: ConvertInput): Promise<Uint8Array> {
    const kind = conversionKind(input.format)
    if (!this.#observer || kind === 'pdf' || kind === 'none') return this.#convert(kind, input)
    const finished = this.#observer.conversionStarted(kind)
    try {
      const pdf = await this.#convert(kind, input)
      finished('ok')
      return pdf
    } catch (error) {
      finished('failed')
      throw error
    }
  }

  async #convert(kind: ReturnType<typeof conversionKind>, input: ConvertInput): Promise<Uint8Array> {
    switch (kind) {
      case 'pdf':
        return passThroughPdf(input.bytes)
      case 'image':
        return this.#inProcess.run(() => imageToPdf(input.bytes, input.format))
      case 'text':
        return this.#inProcess.run(() => textToPdf(input.bytes, this.#textLayout))
      case 'office':
        if (!this.#office)
          fail('CONVERSION_FAILED', { detail: 'LibreOffice is not installed, office documents cannot be converted' })
        return this.#office.convert(input)
      case 'none':
        return fail('CONVERSION_FAILED', {
          detail: `format ${normaliseFormat(input.format)} cannot be converted to PDF`,
        })
    }
  }
}
