import type { Clock } from '../auth/ports.js'
import { domainError, fail, isDomainError } from '../errors/domain-error.js'
import type { HistoryRow } from '../history/history-row.js'
import type { OperatorLog, VerifiedFile, WatermarkMemo } from './content-read-ports.js'
import { CONTENT_VIEW_HISTORY, viewHistoryInfo } from './content-view.js'
import { conversionKind, normaliseFormat } from './formats.js'
import type { PdfConverter, PdfWatermarker } from './ports.js'
import { renderWatermarkText, type WatermarkOptions } from './watermark-text.js'

/** Bytes sniffed for the type of a served PDF. */
export const SNIFF_HEAD = 256 * 1024

/** The VIEW row a read of a record's file writes (content, originalContent, attachments' files). */
export function contentViewHistory(resId: number): HistoryRow {
  return { ...CONTENT_VIEW_HISTORY, recordId: String(resId), info: viewHistoryInfo(resId) }
}

/** What drawing the watermark of a read needs. */
export interface WatermarkDependencies {
  readonly watermarker: PdfWatermarker
  readonly watermarks: WatermarkMemo
  readonly clock: Clock
  readonly log: OperatorLog
  readonly settings: { readonly watermark: WatermarkOptions; readonly timeZone: string }
}

/**
 * Draws the configured watermark with the record's columns. A PDF that cannot take one (encrypted, damaged) is
 * served without it, as the reference does, with a warning in the log: the same caller may read the unmarked
 * original through originalContent anyway, so refusing would protect nothing and only hide the document.
 */
export async function watermarkPdf(
  deps: WatermarkDependencies,
  source: VerifiedFile,
  resId: number,
  columns: Readonly<Record<string, unknown>>,
): Promise<Uint8Array> {
  const options = deps.settings.watermark
  const text = renderWatermarkText(options.text, {
    record: columns,
    now: deps.clock.now(),
    timeZone: deps.settings.timeZone,
  })
  const cached = deps.watermarks.get(source.digest.fingerprint, text)
  if (cached) return cached
  try {
    const marked = await deps.watermarker.watermark(source.bytes, text, options)
    deps.watermarks.set(source.digest.fingerprint, text, marked)
    return marked
  } catch (error) {
    if (isDomainError(error) && (error.code === 'PDF_ENCRYPTED' || error.code === 'PDF_UNREADABLE')) {
      deps.log.warn({ resId, code: error.code }, 'PDF served without watermark')
      return source.bytes
    }
    throw error
  }
}

/**
 * Whether a file of this format can be converted here: CONVERSION_FAILED for a format no converter takes or
 * a server with conversion disabled. Returns the converter to use.
 */
export function converterFor(converter: PdfConverter | null, format: string): PdfConverter {
  if (conversionKind(format) === 'none')
    fail('CONVERSION_FAILED', { detail: `format ${normaliseFormat(format) || '(none)'} cannot be converted to PDF` })
  if (!converter) fail('CONVERSION_FAILED', { detail: 'conversion to PDF is disabled on this server' })
  return converter
}

/** Converts bytes to PDF; a converter's unexpected failure becomes CONVERSION_FAILED with its message. */
export async function convertToPdf(converter: PdfConverter, bytes: Uint8Array, format: string): Promise<Uint8Array> {
  try {
    return await converter.convert({ bytes, format })
  } catch (error) {
    if (isDomainError(error)) throw error
    throw domainError('CONVERSION_FAILED', { detail: error instanceof Error ? error.message : String(error) })
  }
}

/** The extension of a stored file: its declared format, else its stored name's extension. */
export function extensionOf(format: string | null, filename: string | null): string {
  const declared = normaliseFormat(format ?? '')
  if (declared) return declared
  const match = /\.([A-Za-z0-9]{1,10})$/.exec(filename ?? '')
  return match?.[1]?.toLowerCase() ?? ''
}

type NativeBuffer = {
  from(buffer: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'base64'): string }
}
// Core runs in browsers too (the SDK's types reach it): Node's Buffer where there is one, else btoa.
const nativeBuffer = (globalThis as { Buffer?: NativeBuffer }).Buffer
const BTOA_CHUNK = 0x8000

/** Bytes as base64, without copying them first where the runtime has a native encoder. */
export function base64Of(bytes: Uint8Array): string {
  if (nativeBuffer) return nativeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')
  let binary = ''
  for (let i = 0; i < bytes.length; i += BTOA_CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + BTOA_CHUNK))
  return btoa(binary)
}
