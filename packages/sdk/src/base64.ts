// btoa/atob work on "binary strings"; going through them in slices keeps the argument lists small.
const SLICE = 0x8000

/** Base64 text of bytes, as encodedFile wants it (works in browsers and Node, no Buffer needed). */
export function encodeBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += SLICE) binary += String.fromCharCode(...bytes.subarray(i, i + SLICE))
  return btoa(binary)
}

/** Bytes of base64 text, such as encodedDocument or fileBase64Content. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/\s+/g, ''))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
