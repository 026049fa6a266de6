import { randomFillSync } from 'node:crypto'

/**
 * Cryptographically random bytes served from a pool that node:crypto refills when spent: one call per pool
 * instead of one per request (every journalled create or read draws an event id). Each answer is a copy.
 */
export function pooledRandomBytes(poolSize = 4096): (length: number) => Uint8Array {
  const pool = new Uint8Array(poolSize)
  let offset = poolSize
  return (length) => {
    if (length > poolSize) return randomFillSync(new Uint8Array(length))
    if (offset + length > poolSize) {
      randomFillSync(pool)
      offset = 0
    }
    offset += length
    return pool.slice(offset - length, offset)
  }
}
