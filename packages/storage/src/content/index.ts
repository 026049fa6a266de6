export { EMPTY_MIME_TYPE, mimeTypeSniffer, sniffMimeType, UNKNOWN_MIME_TYPE } from './sniff-mime-type.js'
export {
  A4,
  ConversionService,
  DEFAULT_TEXT_LAYOUT,
  decodeTextFile,
  encodePng,
  imageToPdf,
  looksLikePdf,
  passThroughPdf,
  textToPdf,
  wrapLine,
} from './pdf-converter.js'
export type { ConversionServiceOptions, OfficeConverter, TextLayout } from './pdf-converter.js'
export { findSoffice, findUnoconv, LibreOfficeConverter } from './libreoffice-converter.js'
export type { LibreOfficeConverterOptions } from './libreoffice-converter.js'
export { pdfWatermarker, watermarkPdf } from './watermark-pdf.js'
export { loadUnicodeFont, UNICODE_FONT_NAME } from './unicode-font.js'
export type { ContentJournal } from './content-reader.js'
export { DEFAULT_CONTENT_SETTINGS } from './content-settings.js'
export type { ContentSettings } from './content-settings.js'
