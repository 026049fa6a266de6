import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type {
  ExtractedText,
  ExtractionInput,
  ExtractionMethod,
  FullTextLanguage,
  PdfConverter,
  TextExtractor,
} from '@mailroom/core'
import { conversionKind, normaliseFormat } from '@mailroom/core/internal'
import { runTool } from './run-tool.js'

/** Tesseract's language data per installation language; English is read too, as letters often quote it. */
const OCR_LANGUAGES: Record<FullTextLanguage, string> = { fr: 'fra+eng', en: 'eng+fra' }

/** A page of a PDF whose text layer has fewer letters than this is taken for a scan and read by OCR. */
const SCANNED_PAGE_LETTERS = 16

/** The language, the converter for office files, and where the tools are (on PATH by default). */
export interface CommandLineTextExtractorOptions {
  readonly language: FullTextLanguage
  /** Turns office files into PDFs (the conversion the content read uses); without it they are not read. */
  readonly converter?: PdfConverter
  /** Resolution of scanned pages given to Tesseract (300 dpi reads body text of letters well). */
  readonly ocrDpi?: number
  /** Longest a single tool run may take before it is killed, in milliseconds. */
  readonly toolTimeoutMs?: number
  readonly pdftotext?: string
  readonly pdftoppm?: string
  readonly tesseract?: string
}

/**
 * The words of a file through poppler and Tesseract, as child processes (no shell; files in a private
 * temporary folder, removed afterwards): `pdftotext` for a PDF's text layer, `pdftoppm` then `tesseract` for
 * its pages that have none, `tesseract` for images, the PDF conversion then `pdftotext` for office files.
 */
export class CommandLineTextExtractor implements TextExtractor {
  readonly #options: Required<Omit<CommandLineTextExtractorOptions, 'converter'>>
  readonly #converter: PdfConverter | undefined

  constructor(options: CommandLineTextExtractorOptions) {
    this.#converter = options.converter
    this.#options = {
      language: options.language,
      ocrDpi: options.ocrDpi ?? 300,
      toolTimeoutMs: options.toolTimeoutMs ?? 120_000,
      pdftotext: options.pdftotext ?? 'pdftotext',
      pdftoppm: options.pdftoppm ?? 'pdftoppm',
      tesseract: options.tesseract ?? 'tesseract',
    }
  }

  async extract(input: ExtractionInput): Promise<ExtractedText> {
    const format = normaliseFormat(input.format)
    switch (conversionKind(format)) {
      case 'text':
        return { text: new TextDecoder('utf-8').decode(input.bytes), method: 'plain', ocrPages: 0 }
      case 'pdf':
        return this.#withFolder((folder) => this.#readPdf(folder, input.bytes))
      case 'image':
        return this.#withFolder(async (folder) => {
          const image = join(folder, `image.${format}`)
          await writeFile(image, input.bytes)
          return { text: await this.#ocr(image), method: 'ocr', ocrPages: 1 }
        })
      case 'office': {
        if (!this.#converter) return { text: '', method: 'none', ocrPages: 0 }
        const pdf = await this.#converter.convert(input)
        return this.#withFolder((folder) => this.#readPdf(folder, pdf))
      }
      default:
        return { text: '', method: 'none', ocrPages: 0 }
    }
  }

  /** The text layer page by page; the pages without one (scans) through OCR. */
  async #readPdf(folder: string, bytes: Uint8Array): Promise<ExtractedText> {
    const file = join(folder, 'file.pdf')
    await writeFile(file, bytes)
    const { pdftotext, toolTimeoutMs } = this.#options
    const layer = await runTool(pdftotext, ['-enc', 'UTF-8', file, '-'], toolTimeoutMs)
    // pdftotext ends every page with a form feed.
    const pages = layer.split('\f')
    if (pages.length > 1 && pages.at(-1)?.trim() === '') pages.pop()
    let ocrPages = 0
    for (const [index, page] of pages.entries()) {
      if (letters(page) >= SCANNED_PAGE_LETTERS) continue
      pages[index] = await this.#ocrPdfPage(folder, file, index + 1)
      ocrPages++
    }
    const method: ExtractionMethod = ocrPages === 0 ? 'text-layer' : ocrPages === pages.length ? 'ocr' : 'mixed'
    return { text: pages.join('\n\f'), method, ocrPages }
  }

  async #ocrPdfPage(folder: string, file: string, page: number): Promise<string> {
    const { pdftoppm, ocrDpi, toolTimeoutMs } = this.#options
    const prefix = join(folder, `page-${page}`)
    const range = ['-f', String(page), '-l', String(page)]
    await runTool(pdftoppm, ['-r', String(ocrDpi), '-gray', '-png', ...range, file, prefix], toolTimeoutMs)
    // pdftoppm pads the page number to the width of the last page's: find the file rather than guess.
    const rendered = (await readdir(folder)).find((name) => name.startsWith(`page-${page}-`) && name.endsWith('.png'))
    if (!rendered) throw new Error(`pdftoppm wrote no image for page ${page}`)
    return this.#ocr(join(folder, rendered))
  }

  #ocr(image: string): Promise<string> {
    const { tesseract, language, toolTimeoutMs } = this.#options
    return runTool(tesseract, [image, 'stdout', '-l', OCR_LANGUAGES[language], '--psm', '3'], toolTimeoutMs)
  }

  async #withFolder<T>(use: (folder: string) => Promise<T>): Promise<T> {
    const folder = await mkdtemp(join(tmpdir(), 'mailroom-text-'))
    try {
      return await use(folder)
    } finally {
      await rm(folder, { recursive: true, force: true })
    }
  }
}

function letters(text: string): number {
  return text.match(/\p{L}/gu)?.length ?? 0
}
