// Sextet value of every byte: standard (+/) and URL-safe (-_) alphabets both map; 64 = whitespace
// (skipped), 65 = padding, 255 = invalid.
const WHITESPACE = 64
const PADDING = 65
const INVALID = 255
const SEXTETS = (() => {
  const table = new Uint8Array(256).fill(INVALID)
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i
  table['+'.charCodeAt(0)] = 62
  table['-'.charCodeAt(0)] = 62
  table['/'.charCodeAt(0)] = 63
  table['_'.charCodeAt(0)] = 63
  for (const c of ' \t\r\n\f\v') table[c.charCodeAt(0)] = WHITESPACE
  table['='.charCodeAt(0)] = PADDING
  return table
})()

type NativeBytes = Uint8Array & { toString(encoding: 'base64'): string }
type NativeBuffer = { from(text: string, encoding: 'base64'): NativeBytes }
const nativeBuffer = (globalThis as { Buffer?: NativeBuffer }).Buffer

/**
 * Decodes base64 as clients send `encodedFile`: the standard and URL-safe alphabets (even mixed),
 * whitespace anywhere (MIME line breaks), padding optional. Returns null for anything else: a foreign
 * character, padding followed by data, or a length that leaves a single dangling sextet.
 * What nearly every client sends, canonical text (standard alphabet, padded, no whitespace), goes to the
 * runtime's native decoder where there is one (Node's Buffer): decoding a file in JavaScript costs a create
 * more than all its checks. The native decoder skips what it does not understand, so its result counts only
 * when encoding it again gives back the very text (which only canonical text does; a regular expression
 * over the text cost more than the decoding). Everything else takes the one-pass decoder.
 */
export function decodeBase64(text: string): Uint8Array | null {
  if (nativeBuffer && text.length % 4 === 0) {
    const decoded = nativeBuffer.from(text, 'base64')
    if (decoded.toString('base64') === text)
      return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength)
  }
  return decodeLoose(text)
}

/** The one-pass decoder of every accepted form; the output is sized from the input once (about 3/4 of the text). */
export function decodeLoose(text: string): Uint8Array | null {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4) + 3)
  let length = 0
  let accumulator = 0
  let sextets = 0
  let padded = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const value = code < 256 ? (SEXTETS[code] as number) : INVALID
    if (value < 64) {
      if (padded) return null
      accumulator = (accumulator << 6) | value
      if (++sextets === 4) {
        out[length++] = (accumulator >> 16) & 0xff
        out[length++] = (accumulator >> 8) & 0xff
        out[length++] = accumulator & 0xff
        accumulator = 0
        sextets = 0
      }
    } else if (value === PADDING) {
      // Padding may only close a group of 2 or 3 sextets (or follow other padding of that group).
      if (!padded && sextets < 2) return null
      padded = true
    } else if (value !== WHITESPACE) {
      return null
    }
  }
  if (sextets === 1) return null
  if (sextets === 2) out[length++] = (accumulator >> 4) & 0xff
  if (sextets === 3) {
    out[length++] = (accumulator >> 10) & 0xff
    out[length++] = (accumulator >> 2) & 0xff
  }
  return out.subarray(0, length)
}
