import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { contentDisposition } from './content-disposition.js'

describe('contentDisposition', () => {
  it('quotes plain ASCII names', () => {
    expect(contentDisposition('inline', 'Courrier 12.pdf')).toBe('inline; filename="Courrier 12.pdf"')
    expect(contentDisposition('attachment', 'a;b.pdf')).toBe('attachment; filename="a;b.pdf"')
  })

  it('adds filename* for non-ASCII names with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'Réponse à M. Ωmega.pdf')).toBe(
      `attachment; filename="Reponse a M. _mega.pdf"; filename*=UTF-8''R%C3%A9ponse%20%C3%A0%20M.%20%CE%A9mega.pdf`,
    )
  })

  it('escapes quotes and backslashes and drops control characters', () => {
    expect(contentDisposition('attachment', 'a"b\\c\r\nSet-Cookie: x.pdf')).toBe(
      'attachment; filename="a\\"b\\\\c__Set-Cookie: x.pdf"',
    )
  })

  it('is always a single header line of printable ASCII whose filename* decodes back', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom('inline' as const, 'attachment' as const),
        (name, type) => {
          const value = contentDisposition(type, name)
          expect(value).toMatch(/^[\x20-\x7e]*$/)
          const ext = /filename\*=UTF-8''(.*)$/.exec(value)
          const cleaned = Array.from(name, (c) =>
            (c.codePointAt(0) ?? 0) < 0x20 || ((c.codePointAt(0) ?? 0) >= 0x7f && (c.codePointAt(0) ?? 0) <= 0x9f)
              ? '_'
              : c,
          ).join('')
          if (ext) expect(decodeURIComponent(ext[1] ?? '')).toBe(cleaned)
        },
      ),
    )
  })
})
