import { isFormatAllowed, mimeTypeOfFormat } from './formats.js'

/**
 * The history row a content read writes (reference §4.1 step 7, `_DOC_DISPLAYING`): `content` and
 * `originalContent` write it, `content/{version}` does not.
 */
export const CONTENT_VIEW_HISTORY = {
  tableName: 'res_letterbox',
  eventType: 'VIEW',
  eventId: 'resview',
  module: 'resource',
} as const

/** The history info of a content read: `Viewing document : <resId>`. */
export function viewHistoryInfo(resId: number): string {
  return `Viewing document : ${resId}`
}

// Sniffers answer these for containers or samples they cannot tell apart; the declared format knows better.
const GENERIC_MIME_TYPES = new Set([
  'application/octet-stream',
  'application/zip',
  'application/x-cfb',
  'text/plain',
  'application/x-empty',
])

/**
 * The `Content-Type` / `mimeType` of a served file: what its bytes sniff as, unless that is a generic
 * container type (a head sample of a large .docx sniffs as zip) and the declared format is a known one whose
 * pair with the sniffed type is allowed — then the format's canonical type.
 */
export function servedMimeType(sniffed: string, format: string | null | undefined): string {
  if (!format || !GENERIC_MIME_TYPES.has(sniffed)) return sniffed
  const canonical = mimeTypeOfFormat(format)
  if (canonical === 'application/octet-stream') return sniffed
  return isFormatAllowed(format, sniffed) || sniffed === 'application/octet-stream' || sniffed === 'application/zip'
    ? canonical
    : sniffed
}
