import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkFingerprint, maarchFilePath } from './index.js'

describe('Maarch files', () => {
  const locations = { root: '/srv/maarch', overrides: { OTHER: '/mnt/old' } }

  it('resolves path_template, # paths and filename under the root, or the override', () => {
    expect(maarchFilePath(locations, 'FASTHD_MAN', '/opt/maarch/docservers/resources/', '2020#11#0001#', 'a.pdf')).toBe(
      '/srv/maarch/resources/2020/11/0001/a.pdf',
    )
    expect(maarchFilePath(locations, 'OTHER', '/opt/maarch/docservers/x/', 'tests#', 'b.pdf')).toBe(
      '/mnt/old/tests/b.pdf',
    )
  })

  it('never resolves outside the docserver folder', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('..', '.', 'a', '#', '/', 'b'), { maxLength: 8 }),
        fc.constantFrom('..', 'x.pdf', '../x'),
        (parts, filename) => {
          const file = maarchFilePath(
            locations,
            'FASTHD_MAN',
            '/opt/maarch/docservers/resources/',
            parts.join(''),
            filename,
          )
          expect(file === null || file.startsWith('/srv/maarch/resources/')).toBe(true)
        },
      ),
    )
  })

  it("checks fingerprints with the docserver type's mode: '0' and empty computed, others matched or mismatched", () => {
    const bytes = new TextEncoder().encode('letter')
    const sha512 = createHash('sha512').update(bytes).digest('hex')
    expect(checkFingerprint(bytes, 'SHA512', '0')).toEqual({ check: 'computed', computed: sha512, mode: 'SHA512' })
    expect(checkFingerprint(bytes, 'SHA512', '').check).toBe('computed')
    expect(checkFingerprint(bytes, 'SHA512', sha512.toUpperCase()).check).toBe('matched')
    expect(checkFingerprint(bytes, 'SHA512', 'abc').check).toBe('mismatch')
    expect(checkFingerprint(bytes, 'SHA256', createHash('sha256').update(bytes).digest('hex')).check).toBe('matched')
  })
})
