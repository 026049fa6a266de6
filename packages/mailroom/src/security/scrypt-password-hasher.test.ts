import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RECOMMENDED_SCRYPT_COST, ScryptPasswordHasher } from './scrypt-password-hasher.js'

describe('ScryptPasswordHasher', () => {
  it('hashes at OWASP’s recommended cost by default (N=2^17, r=8, p=1) and verifies', async () => {
    expect(RECOMMENDED_SCRYPT_COST).toEqual({ N: 131072, r: 8, p: 1 })
    const hasher = new ScryptPasswordHasher()
    const hash = await hasher.hash('correct horse')
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/)
    expect(await hasher.verify('correct horse', hash)).toBe(true)
    expect(await hasher.verify('correct horsf', hash)).toBe(false)
    expect(hasher.needsRehash(hash)).toBe(false)
  })

  it('still verifies hashes of an older, lower cost, and asks for them to be rehashed', async () => {
    const older = await new ScryptPasswordHasher({ N: 2 ** 10 }).hash('maarch')
    const current = new ScryptPasswordHasher({ N: 2 ** 11 })
    expect(await current.verify('maarch', older)).toBe(true)
    expect(current.needsRehash(older)).toBe(true)
    expect(current.needsRehash(await current.hash('maarch'))).toBe(false)
  })

  it('never asks to rehash down to a lower cost', async () => {
    const stronger = await new ScryptPasswordHasher({ N: 2 ** 11, r: 9 }).hash('maarch')
    expect(new ScryptPasswordHasher({ N: 2 ** 10 }).needsRehash(stronger)).toBe(false)
  })

  it('refuses, and asks to replace, anything that is not one of its hashes (imported schemes)', async () => {
    const hasher = new ScryptPasswordHasher({ N: 2 ** 10 })
    for (const foreign of [
      '$2y$10$abcdefghijklmnopqrstuuN2Jv9H5x1f6VvQzW4mI7.y0mF3rkLxm',
      '',
      'scrypt$0$8$1$c2FsdA==$a2V5',
      'scrypt$x$8$1$$',
    ]) {
      expect(await hasher.verify('maarch', foreign)).toBe(false)
      expect(hasher.needsRehash(foreign)).toBe(true)
    }
    await fc.assert(
      fc.asyncProperty(fc.string(), async (text) => {
        expect(await hasher.verify('maarch', text)).toBe(false)
      }),
      { numRuns: 50 },
    )
  })

  it('verifies the bcrypt hashes Maarch Courrier stores ($2y$, $2a$, $2b$) and always asks to replace them', async () => {
    const hasher = new ScryptPasswordHasher({ N: 2 ** 10 })
    // The hash of `maarch` in Maarch 20.10's demo data (data_fr.sql).
    const maarch = '$2y$10$C.QSslBKD3yNMfRPuZfcaubFwPKiCkqqOUyAdOr5FSGKPaePwuEjG'
    for (const hash of [maarch, maarch.replace('$2y$', '$2a$'), maarch.replace('$2y$', '$2b$')]) {
      expect(await hasher.verify('maarch', hash)).toBe(true)
      expect(await hasher.verify('maarch ', hash)).toBe(false)
      expect(await hasher.verify('Maarch', hash)).toBe(false)
      expect(hasher.needsRehash(hash)).toBe(true)
    }
    // A truncated or altered hash is not bcrypt: refused without throwing.
    expect(await hasher.verify('maarch', maarch.slice(0, -1))).toBe(false)
    expect(await hasher.verify('maarch', maarch.replace('$10$', '$1$'))).toBe(false)
  })
})
