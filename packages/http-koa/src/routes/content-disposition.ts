import type { ServedFile } from '@mailroom/core'

/** `inline` opens the file in the browser (`mode=view`), `attachment` downloads it. */
type DispositionType = ServedFile['disposition']

// RFC 5987 attr-char: everything else is percent-encoded in filename*.
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/

/**
 * A safe `Content-Disposition` value (RFC 6266): always a quoted ASCII `filename="…"` fallback (diacritics
 * stripped, other non-ASCII as `_`, `"` and `\` escaped), plus `filename*=UTF-8''…` when the name is not
 * plain printable ASCII. Control characters never reach the header (they would allow header injection).
 * The reference sends the name unquoted; quoting is required as soon as it holds spaces or `;`.
 */
export function contentDisposition(type: DispositionType, filename: string): string {
  const clean = Array.from(filename)
    .map((c) => (isControl(c) ? '_' : c))
    .join('')
  const fallback = asciiFallback(clean)
  const quoted = fallback.replace(/[\\"]/g, (c) => `\\${c}`)
  const header = `${type}; filename="${quoted}"`
  return fallback === clean ? header : `${header}; filename*=UTF-8''${encodeExtValue(clean)}`
}

function isControl(character: string): boolean {
  const code = character.codePointAt(0) ?? 0
  return code < 0x20 || (code >= 0x7f && code <= 0x9f)
}

function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/gu, '_')
}

function encodeExtValue(name: string): string {
  let out = ''
  for (const byte of new TextEncoder().encode(name)) {
    const c = String.fromCharCode(byte)
    out += byte < 0x80 && ATTR_CHAR.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}
