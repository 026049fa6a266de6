import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import type { PasswordHasher } from '@mailroom/core'

/** scrypt cost: N=2^15, r=8, p=1 (about 30–60 ms per check on a 2-core machine). */
const DEFAULT_COST = { N: 32768, r: 8, p: 1 }
const KEY_LENGTH = 32

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem: 128 * cost.N * cost.r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/**
 * Salted scrypt hashes stored as `scrypt$N$r$p$<salt b64>$<key b64>`, compared in constant time.
 * The cost lives in each hash, so raising it later keeps old hashes valid.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  readonly #cost: { N: number; r: number; p: number }

  constructor(cost: Partial<{ N: number; r: number; p: number }> = {}) {
    this.#cost = { ...DEFAULT_COST, ...cost }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await derive(password, salt, this.#cost)
    const { N, r, p } = this.#cost
    return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`
  }

  async verify(password: string, storedHash: string): Promise<boolean> {
    const parts = storedHash.split('$')
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false
    const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
    if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return false
    const expected = Buffer.from(parts[5]!, 'base64')
    if (expected.length !== KEY_LENGTH) return false
    const key = await derive(password, Buffer.from(parts[4]!, 'base64'), { N, r, p })
    return timingSafeEqual(key, expected)
  }
}
