import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto'
import type { PasswordHasher } from '@mailroom/core'
import bcrypt from 'bcryptjs'

/** scrypt parameters: cost N (a power of two), block size r, parallelism p. */
export interface ScryptCost {
  readonly N: number
  readonly r: number
  readonly p: number
}

/**
 * OWASP's recommended minimum for scrypt (Password Storage Cheat Sheet): N=2^17, r=8, p=1, 128 MiB per
 * check. Node runs scrypt on the libuv thread pool (4 threads by default), so at most 4 checks, 512 MiB,
 * run at once whatever the number of logins in flight.
 */
export const RECOMMENDED_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 }
const KEY_LENGTH = 32
const PREFIX = 'scrypt'

function derive(password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { ...cost, maxmem: 128 * cost.N * cost.r * 2 }, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/** The cost, salt and key of a stored `scrypt$N$r$p$<salt>$<key>` hash; null when it is not one. */
function parse(storedHash: string): { cost: ScryptCost; salt: Buffer; key: Buffer } | null {
  const parts = storedHash.split('$')
  if (parts.length !== 6 || parts[0] !== PREFIX) return null
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0) || N > 2 ** 20) return null
  const key = Buffer.from(parts[5]!, 'base64')
  if (key.length !== KEY_LENGTH) return null
  return { cost: { N, r, p }, salt: Buffer.from(parts[4]!, 'base64'), key }
}

/**
 * bcrypt hashes as PHP's password_hash writes them (`$2y$`, Maarch Courrier's users), and the other
 * prefixes of the same algorithm. `$2y$` is PHP's name for the fixed `$2b$` variant: same computation.
 */
const BCRYPT_HASH = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/

/** An imported bcrypt hash checked against a password; callers then replace it (needsRehash is true). */
function verifyBcrypt(password: string, storedHash: string): Promise<boolean> {
  // bcrypt reads at most 72 bytes; longer passwords never matched in Maarch either, so nothing is lost.
  return bcrypt.compare(password, storedHash.replace(/^\$2y\$/, '$2b$'))
}

/**
 * Salted scrypt hashes stored as `scrypt$N$r$p$<salt b64>$<key b64>`, compared in constant time.
 * The cost lives in each hash, so raising it keeps old hashes valid; `needsRehash` tells the login use case
 * which ones to replace.
 */
export class ScryptPasswordHasher implements PasswordHasher {
  readonly #cost: ScryptCost

  constructor(cost: Partial<ScryptCost> = {}) {
    this.#cost = { ...RECOMMENDED_SCRYPT_COST, ...cost }
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(16)
    const key = await derive(password, salt, this.#cost)
    const { N, r, p } = this.#cost
    return `${PREFIX}$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`
  }

  async verify(password: string, storedHash: string): Promise<boolean> {
    const parsed = parse(storedHash)
    if (!parsed) return BCRYPT_HASH.test(storedHash) ? verifyBcrypt(password, storedHash) : false
    const key = await derive(password, parsed.salt, parsed.cost)
    return timingSafeEqual(key, parsed.key)
  }

  /** True for a hash of another scheme or of a lower cost than this hasher's (never a downgrade). */
  needsRehash(storedHash: string): boolean {
    const parsed = parse(storedHash)
    if (!parsed) return true
    const { N, r, p } = parsed.cost
    return N < this.#cost.N || r < this.#cost.r || p < this.#cost.p
  }
}
