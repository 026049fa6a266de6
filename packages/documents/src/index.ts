/**
 * @module @mailroom/documents
 * Document processing without a database: MIME type sniffing, conversion to PDF (in process, and through
 * LibreOffice for office files), watermarking, and the chrono merge of office files with its QR codes and
 * barcodes. Each part implements a port `@mailroom/core` declares; `@mailroom/mailroom` plugs them into
 * the storage.
 */

export { officeChronoMerger } from './chrono-merge/office-chrono-merger.js'
export { CHRONO_PLACEHOLDER } from './chrono-merge/replace-chrono-placeholder.js'
export type { LibreOfficeConverterOptions } from './conversion/libreoffice-converter.js'
export { findSoffice, LibreOfficeConverter } from './conversion/libreoffice-converter.js'
export type { ConversionServiceOptions, OfficeConverter } from './conversion/pdf-converter.js'
export { ConversionService } from './conversion/pdf-converter.js'
export { mimeTypeSniffer } from './sniffing/sniff-mime-type.js'
export type { CommandLineTextExtractorOptions } from './text-extraction/text-extractor.js'
export { CommandLineTextExtractor } from './text-extraction/text-extractor.js'
export { pdfWatermarker } from './watermark/watermark-pdf.js'
