/** Deterministic test bytes of any length: a pattern that differs by seed and at every offset of a 256-byte cycle. */
export function patternBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let i = 0; i < length; i++) bytes[i] = (i * 7 + seed * 13) & 0xff
  return bytes
}
