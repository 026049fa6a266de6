import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { passwordPolicyViolations } from './password-policy.js'

describe('passwordPolicyViolations', () => {
  const strict = { minLength: 10, minUpper: 1, minDigits: 2, minSpecial: 1 }

  it('lists every rule a password breaks', () => {
    expect(passwordPolicyViolations('abc', strict)).toEqual([
      'at least 10 characters',
      'at least 1 upper-case letter',
      'at least 2 digits',
      'at least 1 special character',
    ])
    expect(passwordPolicyViolations('Correct-horse-42', strict)).toEqual([])
  })

  it('counts characters, not UTF-16 units, and accepts letters of any script', () => {
    expect(
      passwordPolicyViolations('ÉÉÉÉ😀😀😀😀😀1', { minLength: 10, minUpper: 4, minDigits: 1, minSpecial: 5 }),
    ).toEqual([])
    expect(passwordPolicyViolations('😀😀😀😀😀', { minLength: 6, minUpper: 0, minDigits: 0, minSpecial: 0 })).toEqual([
      'at least 6 characters',
    ])
  })

  it('uses the default policy (12 characters) and refuses huge passwords', () => {
    expect(passwordPolicyViolations('short')).toEqual(['at least 12 characters'])
    expect(passwordPolicyViolations('x'.repeat(2000))).toEqual(['at least 1024 characters'.replace('least', 'most')])
  })

  it('accepts any password long enough under the default policy', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 12, maxLength: 60, unit: 'grapheme-ascii' }), (p) => {
        expect(passwordPolicyViolations(p)).toEqual([])
      }),
    )
  })
})
