import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeBase64, decodeLoose } from './decode-base64.js'

// Reference encoder written against the RFC alphabet, independent of the decoder's table.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
function encode(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i] as number, bytes[i + 1], bytes[i + 2]]
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0)
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!
    out += b === undefined ? '=' : ALPHABET[(n >> 6) & 63]!
    out += c === undefined ? '=' : ALPHABET[n & 63]!
  }
  return out
}

describe('decodeBase64', () => {
  it('decodes what the standard encoder writes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        expect(decodeBase64(encode(bytes))).toEqual(bytes)
      }),
    )
  })

  it('accepts the URL-safe alphabet, missing padding and whitespace anywhere', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(), { maxLength: 8 }), (bytes, cuts) => {
        let text = encode(bytes).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
        for (const cut of cuts) {
          const at = cut % (text.length + 1)
          text = `${text.slice(0, at)}\r\n ${text.slice(at)}`
        }
        expect(decodeBase64(text)).toEqual(bytes)
      }),
    )
  })

  it('agrees with Node on valid input', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(decodeBase64(Buffer.from(bytes).toString('base64'))).toEqual(new Uint8Array(bytes))
      }),
    )
  })

  it('gives the same answer on the native fast path as the one-pass decoder, for any text', () => {
    const canonicalish = fc.oneof(
      fc.uint8Array({ maxLength: 200 }).map((bytes) => encode(bytes)),
      fc
        .tuple(fc.uint8Array({ maxLength: 60 }), fc.stringMatching(/^[A-Za-z0-9+/=]{0,8}$/))
        .map(([bytes, tail]) => encode(bytes) + tail),
      fc.stringMatching(/^[A-Za-z0-9+/=]{0,24}$/),
    )
    fc.assert(
      fc.property(canonicalish, (text) => {
        expect(decodeBase64(text)).toEqual(decodeLoose(text))
      }),
    )
  })

  it('refuses foreign characters, data after padding and a dangling sextet', () => {
    for (const text of [
      'QUJD*',
      'QU=JD',
      'QUJDR',
      'Q',
      '=QUJD',
      'QUJD=',
      'é',
      'QUJD\u0000',
      '====',
      'QUJD====',
      'Q===',
    ]) {
      expect(decodeBase64(text), text).toBeNull()
    }
    expect(decodeBase64('')).toEqual(new Uint8Array())
    expect(decodeBase64('QUI=')).toEqual(new TextEncoder().encode('AB'))
  })

  it('refuses any text holding a character outside both alphabets', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('*', '.', '!', '%', '\u00e9', '\u2028'), fc.string(), (a, bad, b) => {
        expect(decodeBase64(`${a}${bad}${b}`)).toBeNull()
      }),
    )
  })
})
