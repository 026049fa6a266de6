import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'

/** How `content` serves its PDF: `base64` JSON, `view` inline, anything else (or none) as a download. */
export type ContentMode = 'base64' | 'view' | 'download'

/** The `adr_letterbox` types `content/{version}` serves. */
export type VersionType = 'PDF' | 'SIGN' | 'NOTE'

/**
 * The `resId` path parameter of the content reads: a decimal integer ≥ 1. Anything else (0, negative,
 * `abc`, `1.5`, overflow) is 400 `Parameter resId must be greater than 0` — the interface's limit for
 * content reads; the reference answered 403 for non-integers, which told the caller nothing.
 */
export function parseContentResId(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('RES_ID_NOT_POSITIVE')
}

/** The `version` path parameter of `content/{version}`: a decimal integer ≥ 1, else 400 `Parameter version must be greater than 0`. */
export function parseVersionParam(text: string | undefined): number {
  return databaseIdOf(text) ?? fail('VERSION_NOT_POSITIVE')
}

/**
 * The `type` query parameter of `content/{version}`: `PDF`, `SIGN` or `NOTE` exactly; absent or empty is
 * `PDF`. Anything else is 400 (the interface; the reference silently served the PDF).
 */
export function parseVersionType(text: string | undefined): VersionType {
  if (text === undefined || text === '') return 'PDF'
  if (text === 'PDF' || text === 'SIGN' || text === 'NOTE') return text
  return fail('VERSION_TYPE_INVALID')
}

/** The `mode` query parameter of `content`: `base64`, `view`, anything else a download. */
export function parseContentMode(text: string | undefined): ContentMode {
  if (text === 'base64') return 'base64'
  if (text === 'view') return 'view'
  return 'download'
}

/** The `mode` of `originalContent`: `base64`, anything else a download (it has no inline mode). */
export function parseOriginalMode(text: string | undefined): 'base64' | 'download' {
  return text === 'base64' ? 'base64' : 'download'
}

/**
 * The `watermark` query parameter: `false` or `0` (any case) turns the watermark off; absent, empty or any
 * other value keeps it (the interface: true when absent).
 */
export function parseWatermarkFlag(text: string | undefined): boolean {
  const value = (text ?? '').trim().toLowerCase()
  return !(value === 'false' || value === '0')
}

/**
 * The `signedVersion` query parameter of `originalContent`: `true` or `false` (any case); absent or empty
 * is false. Anything else — `1`, `yes`, `maybe` — is 403 `signedVersion param is not a boolean`: the
 * interface names a boolean, and a query string has only the two JSON spellings of one.
 */
export function parseSignedVersion(text: string | undefined): boolean {
  const value = (text ?? '').trim().toLowerCase()
  if (value === '' || value === 'false') return false
  if (value === 'true') return true
  return fail('SIGNED_VERSION_NOT_BOOLEAN')
}
