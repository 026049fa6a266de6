import { fail } from '../errors/domain-error.js'
import { decodeBase64 } from '../records/decode-base64.js'
import { normaliseFormat } from './formats.js'

/**
 * What `PUT /rest/resources/{resId}` with a file asks for: a new original (`DOC`, version n+1, the previous
 * original kept as adr type DOC) or a signed / annotated PDF attached to the current version.
 */
export type NewVersionKind = 'DOC' | 'SIGN' | 'NOTE'

/** A decoded new-version body (the MIME type is sniffed by the caller before the format check). */
export interface NewVersionRequest {
  readonly kind: NewVersionKind
  readonly bytes: Uint8Array
  /** Normalised extension (`pdf`, `docx`, …). */
  readonly format: string
}

/**
 * Reads `{ encodedFile, format, type? }`: `encodedFile` base64 (standard or URL-safe) and not empty, `format`
 * a non-empty string, `type` absent/empty (a new version), `SIGN` or `NOTE` (then `format` must be `pdf`).
 * The format/MIME pair is checked afterwards with checkFormatAllowed, as on create.
 */
export function parseNewVersionBody(body: unknown): NewVersionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail('UNSUPPORTED_BODY')
  const fields = body as Record<string, unknown>
  const kind = fields.type === undefined || fields.type === null || fields.type === '' ? 'DOC' : fields.type
  if (kind !== 'DOC' && kind !== 'SIGN' && kind !== 'NOTE') fail('VERSION_TYPE_INVALID')
  if (typeof fields.format !== 'string' || fields.format.trim() === '') fail('FORMAT_EMPTY')
  const bytes =
    typeof fields.encodedFile === 'string' && fields.encodedFile !== '' ? decodeBase64(fields.encodedFile) : null
  if (bytes === null || bytes.length === 0) fail('ENCODED_FILE_INVALID')
  const format = normaliseFormat(fields.format)
  if (kind !== 'DOC' && format !== 'pdf')
    fail('FORMAT_NOT_ALLOWED', { format: fields.format, mimeType: 'application/pdf' })
  return { kind, bytes, format }
}
