import { fail } from '../errors/domain-error.js'

/**
 * How a stored file becomes the PDF served by `GET /resources/{resId}/content`:
 * `pdf` is served as it is, `image` and `text` are laid out on PDF pages in-process, `office` goes through
 * LibreOffice, `none` cannot be converted (reference extensions.xml `canConvert=false`).
 */
export type ConversionKind = 'pdf' | 'image' | 'text' | 'office' | 'none'

/** One allowed format: the MIME types its bytes may sniff as, and its conversion route. */
export interface FormatDefinition {
  /** Sniffed MIME types accepted for this extension; the first is the canonical one. */
  readonly mimeTypes: readonly string[]
  readonly conversion: ConversionKind
}

const WORD_CFB = 'application/msword'
const EXCEL_CFB = 'application/vnd.ms-excel'
const POWERPOINT_CFB = 'application/vnd.ms-powerpoint'

/**
 * The allowed formats: lower-case extension → accepted sniffed MIME types and conversion route.
 * Like the reference's extensions.xml, a file is allowed only when its (extension, sniffed MIME) pair is
 * listed here. The MIME types are the ones the storage sniffer produces (file-type names plus the text
 * fallbacks), not libmagic's, so the table and the sniffer change together.
 */
export const FORMATS: Readonly<Record<string, FormatDefinition>> = {
  pdf: { mimeTypes: ['application/pdf'], conversion: 'pdf' },

  png: { mimeTypes: ['image/png'], conversion: 'image' },
  jpg: { mimeTypes: ['image/jpeg'], conversion: 'image' },
  jpeg: { mimeTypes: ['image/jpeg'], conversion: 'image' },
  jpe: { mimeTypes: ['image/jpeg'], conversion: 'image' },
  gif: { mimeTypes: ['image/gif'], conversion: 'image' },
  tif: { mimeTypes: ['image/tiff'], conversion: 'image' },
  tiff: { mimeTypes: ['image/tiff'], conversion: 'image' },

  txt: { mimeTypes: ['text/plain'], conversion: 'text' },

  doc: { mimeTypes: [WORD_CFB], conversion: 'office' },
  docx: {
    mimeTypes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    conversion: 'office',
  },
  odt: { mimeTypes: ['application/vnd.oasis.opendocument.text'], conversion: 'office' },
  rtf: { mimeTypes: ['application/rtf', 'text/rtf'], conversion: 'office' },
  xls: { mimeTypes: [EXCEL_CFB], conversion: 'office' },
  xlsx: { mimeTypes: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'], conversion: 'office' },
  xlsm: { mimeTypes: ['application/vnd.ms-excel.sheet.macroenabled.12'], conversion: 'office' },
  ods: { mimeTypes: ['application/vnd.oasis.opendocument.spreadsheet'], conversion: 'office' },
  ppt: { mimeTypes: [POWERPOINT_CFB], conversion: 'office' },
  pps: { mimeTypes: [POWERPOINT_CFB], conversion: 'office' },
  pptx: {
    mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
    conversion: 'office',
  },
  pptm: { mimeTypes: ['application/vnd.ms-powerpoint.presentation.macroenabled.12'], conversion: 'office' },
  ppsx: { mimeTypes: ['application/vnd.openxmlformats-officedocument.presentationml.slideshow'], conversion: 'office' },
  ppsm: { mimeTypes: ['application/vnd.ms-powerpoint.slideshow.macroenabled.12'], conversion: 'office' },
  odp: { mimeTypes: ['application/vnd.oasis.opendocument.presentation'], conversion: 'office' },
  // HTML fragments without a doctype or <html> sniff as plain text; both are real HTML mail bodies.
  html: { mimeTypes: ['text/html', 'text/plain'], conversion: 'office' },
  htm: { mimeTypes: ['text/html', 'text/plain'], conversion: 'office' },
  // A message whose first lines do not look like RFC 822 headers still sniffs as text.
  eml: { mimeTypes: ['message/rfc822', 'text/plain'], conversion: 'office' },
  xml: { mimeTypes: ['application/xml', 'text/xml'], conversion: 'office' },

  msg: { mimeTypes: ['application/vnd.ms-outlook'], conversion: 'none' },
  csv: { mimeTypes: ['text/csv', 'text/plain'], conversion: 'none' },
  zip: { mimeTypes: ['application/zip'], conversion: 'none' },
}

/** Canonical spelling of a declared format: trimmed, lower-case, without a leading dot. */
export function normaliseFormat(format: string): string {
  return format.trim().replace(/^\./, '').toLowerCase()
}

/** The definition of a format, or undefined when it is not in the table. */
export function formatDefinition(format: string): FormatDefinition | undefined {
  const key = normaliseFormat(format)
  return Object.hasOwn(FORMATS, key) ? FORMATS[key] : undefined
}

/** True when the (format, sniffed MIME) pair is in the table. */
export function isFormatAllowed(format: string, sniffedMime: string): boolean {
  const definition = formatDefinition(format)
  return definition?.mimeTypes.includes(sniffedMime.trim().toLowerCase()) ?? false
}

/**
 * Refuses a file whose declared format and sniffed MIME type are not an allowed pair, with the reference's
 * exact message (`Format with this mimeType is not allowed : docx text/plain`). The message shows the
 * format as the caller sent it, as the reference does.
 */
export function checkFormatAllowed(format: string, sniffedMime: string): void {
  if (!isFormatAllowed(format, sniffedMime)) fail('FORMAT_NOT_ALLOWED', { format, mimeType: sniffedMime })
}

/** The conversion route of a format; unknown formats cannot be converted. */
export function conversionKind(format: string): ConversionKind {
  return formatDefinition(format)?.conversion ?? 'none'
}

/** True when a file of this format can be turned into a PDF. */
export function canConvertToPdf(format: string): boolean {
  return conversionKind(format) !== 'none'
}

/** The canonical MIME type of a format, or `application/octet-stream` when the format is unknown. */
export function mimeTypeOfFormat(format: string): string {
  return formatDefinition(format)?.mimeTypes[0] ?? 'application/octet-stream'
}
