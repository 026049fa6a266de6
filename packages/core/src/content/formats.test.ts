import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import {
  canConvertToPdf,
  checkFormatAllowed,
  conversionKind,
  FORMATS,
  isFormatAllowed,
  mimeTypeOfFormat,
  normaliseFormat,
} from './formats.js'

const formats = Object.keys(FORMATS)

/** Randomly upper-cases letters and pads with whitespace (and sometimes a leading dot). */
const spelled = (format: string) =>
  fc
    .tuple(
      fc.array(fc.boolean(), { minLength: format.length, maxLength: format.length }),
      fc.constantFrom('', ' ', '\t', '  '),
      fc.constantFrom('', ' ', '\n'),
      fc.boolean(),
    )
    .map(
      ([upper, before, after, dot]) =>
        `${before}${dot ? '.' : ''}${Array.from(format, (c, i) => (upper[i] ? c.toUpperCase() : c)).join('')}${after}`,
    )

describe('format table', () => {
  it('keys are lower-case extensions and every format has at least one MIME type', () => {
    for (const [format, definition] of Object.entries(FORMATS)) {
      expect(format).toMatch(/^[a-z0-9]+$/)
      expect(definition.mimeTypes.length).toBeGreaterThan(0)
      for (const mime of definition.mimeTypes) expect(mime).toBe(mime.toLowerCase())
    }
  })

  it('routes each format family to its converter', () => {
    expect(conversionKind('pdf')).toBe('pdf')
    for (const f of ['png', 'jpg', 'jpeg', 'jpe', 'gif', 'tif', 'tiff']) expect(conversionKind(f)).toBe('image')
    expect(conversionKind('txt')).toBe('text')
    for (const f of [
      'doc',
      'docx',
      'odt',
      'rtf',
      'xls',
      'xlsx',
      'xlsm',
      'ods',
      'ppt',
      'pptx',
      'odp',
      'html',
      'htm',
      'eml',
    ])
      expect(conversionKind(f)).toBe('office')
    for (const f of ['csv', 'zip', 'msg', 'exe', '']) expect(conversionKind(f)).toBe('none')
    expect(canConvertToPdf('DOCX')).toBe(true)
    expect(canConvertToPdf('csv')).toBe(false)
  })

  it('gives the canonical MIME type of a format, octet-stream when unknown', () => {
    expect(mimeTypeOfFormat('PDF')).toBe('application/pdf')
    expect(mimeTypeOfFormat('jpe')).toBe('image/jpeg')
    expect(mimeTypeOfFormat('docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    expect(mimeTypeOfFormat('exe')).toBe('application/octet-stream')
    expect(mimeTypeOfFormat('constructor')).toBe('application/octet-stream')
  })

  it('normalises any spelling of a known format to its key', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...formats).chain((f) => spelled(f).map((s) => [f, s] as const)),
        ([format, spelling]) => {
          expect(normaliseFormat(spelling)).toBe(format)
          expect(conversionKind(spelling)).toBe(FORMATS[format]?.conversion)
        },
      ),
    )
  })

  it('normalisation is idempotent and lower-case', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const once = normaliseFormat(s)
        expect(normaliseFormat(once)).toBe(normaliseFormat(once))
        expect(once).toBe(once.toLowerCase())
      }),
    )
  })

  it('allows exactly the listed (format, MIME) pairs, whatever the case of the format', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...formats).chain((f) => spelled(f).map((s) => [f, s] as const)),
        fc.constantFrom(
          ...new Set(Object.values(FORMATS).flatMap((d) => d.mimeTypes)),
          'application/x-empty',
          'application/octet-stream',
        ),
        ([format, spelling], mime) => {
          expect(isFormatAllowed(spelling, mime)).toBe(FORMATS[format]?.mimeTypes.includes(mime))
        },
      ),
    )
  })

  it('refuses a mismatched pair with the reference message', () => {
    expect(() => checkFormatAllowed('docx', 'text/plain')).toThrow(
      'Format with this mimeType is not allowed : docx text/plain',
    )
    try {
      checkFormatAllowed('exe', 'application/x-msdownload')
      expect.unreachable()
    } catch (error) {
      expect(isDomainError(error) && error.kind).toBe('bad-request')
      expect(isDomainError(error) && error.code).toBe('FORMAT_NOT_ALLOWED')
    }
    expect(() => checkFormatAllowed('txt', 'application/x-empty')).toThrow(
      'Format with this mimeType is not allowed : txt application/x-empty',
    )
    expect(() => checkFormatAllowed('PDF', 'application/pdf')).not.toThrow()
    expect(() => checkFormatAllowed('toString', 'text/plain')).toThrow()
  })
})
