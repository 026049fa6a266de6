/**
 * The languages a Mailroom installation indexes its text in (one per installation, MAILROOM_FULLTEXT_LANGUAGE):
 * it chooses Tesseract's language data for OCR and the database's text search configuration (stemming, stop
 * words; accents are folded in both).
 */
export const FULLTEXT_LANGUAGES = ['fr', 'en'] as const
/** One of FULLTEXT_LANGUAGES. */
export type FullTextLanguage = (typeof FULLTEXT_LANGUAGES)[number]

/** How the text of a file was obtained: read as it is, from a PDF's text layer, or by OCR of its pages. */
export type ExtractionMethod = 'plain' | 'text-layer' | 'ocr' | 'mixed' | 'none'

/** The words of a file, as the index keeps them, and how they were read. */
export interface ExtractedText {
  readonly text: string
  readonly method: ExtractionMethod
  /** Pages read by OCR (0 when none). */
  readonly ocrPages: number
}

/** A stored file whose words are wanted: its bytes and its declared format (extension, any case). */
export interface ExtractionInput {
  readonly bytes: Uint8Array
  readonly format: string
}

/**
 * Reads the words of a file: text PDFs through their text layer, office files through their PDF conversion,
 * images and scanned pages through OCR. A format it cannot read gives empty text with method `none`; a
 * failure (a damaged file, a tool that crashed) throws, and the queue retries it.
 */
export interface TextExtractor {
  extract(input: ExtractionInput): Promise<ExtractedText>
}
