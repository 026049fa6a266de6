import type { WatermarkOptions } from './watermark-text.js'

/** A file to turn into a PDF: its bytes and its declared format (extension, any case). */
export interface ConvertInput {
  readonly bytes: Uint8Array
  readonly format: string
}

/**
 * Turns a stored file into the PDF served by the content read. Fails with CONVERSION_FAILED
 * (`Conversion error : …`) or CONVERSION_QUEUE_FULL; never returns bytes that are not a PDF.
 */
export interface PdfConverter {
  convert(input: ConvertInput): Promise<Uint8Array>
}

/**
 * Draws a watermark text on every page of a PDF. Fails with PDF_ENCRYPTED or PDF_UNREADABLE; the use case
 * decides whether to serve the unwatermarked bytes (the reference does) or to fail.
 */
export interface PdfWatermarker {
  watermark(pdf: Uint8Array, text: string, options: WatermarkOptions): Promise<Uint8Array>
}

/**
 * Finds the MIME type of a file from its bytes (never from its name). `format` only refines containers the
 * bytes cannot tell apart (legacy Office compound files). Empty input gives `application/x-empty`.
 */
export interface MimeTypeSniffer {
  sniff(bytes: Uint8Array, format?: string): Promise<string>
}

/** An office file carrying the chrono placeholder, ready to take the record's chrono. */
export interface PreparedChronoMerge {
  /** The file asks for a QR code, which names the record: its id must be known before `fill`. */
  readonly needsRecordId: boolean
  /** The file's bytes with the chrono (empty text when the record gets none) and its pictures merged in. */
  fill(fields: {
    readonly chrono: string
    readonly resIdMaster: number | null
    readonly title: string | null
  }): Promise<Uint8Array>
}

/** Merges a record's chrono into an office file that carries the placeholder (reference §2.2). */
export interface ChronoMerger {
  /** Null when the file carries no placeholder: it is stored as sent. */
  prepare(format: string, bytes: Uint8Array): PreparedChronoMerge | null
}
