import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { pooledRandomBytes } from './random-pool.js'

describe('pooledRandomBytes', () => {
  it('answers the length asked, across refills and beyond the pool, and never the same bytes twice', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 8, max: 80 }), { minLength: 1, maxLength: 60 }), (lengths) => {
        const draw = pooledRandomBytes(64)
        const seen = new Set<string>()
        for (const length of lengths) {
          const bytes = draw(length)
          expect(bytes).toHaveLength(length)
          const hex = Buffer.from(bytes).toString('hex')
          expect(seen.has(hex)).toBe(false)
          seen.add(hex)
        }
      }),
    )
  })

  it('gives copies: a later draw does not change an earlier answer', () => {
    const draw = pooledRandomBytes(16)
    const first = draw(10)
    const kept = Buffer.from(first).toString('hex')
    for (let i = 0; i < 5; i++) draw(10)
    expect(Buffer.from(first).toString('hex')).toBe(kept)
  })
})
