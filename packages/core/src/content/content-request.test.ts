import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  parseContentMode,
  parseContentResId,
  parseOriginalMode,
  parseSignedVersion,
  parseVersionParam,
  parseVersionType,
  parseWatermarkFlag,
} from './content-request.js'
import { servedMimeType, viewHistoryInfo } from './content-view.js'

describe('content request parameters', () => {
  it('accepts exactly the positive decimal integers as resId and version', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(parseContentResId(String(n))).toBe(n)
      }),
    )
    // Versions are an integer column: past 2^31 − 1 none can exist, and PostgreSQL would refuse the parameter.
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2_147_483_647 }), (n) => {
        expect(parseVersionParam(String(n))).toBe(n)
      }),
    )
    expect(() => parseVersionParam('2147483648')).toThrow('Parameter version must be greater than 0')
    for (const bad of ['0', '-1', '', ' ', 'abc', '1.5', '1e3', '0x10', '99999999999999999', undefined]) {
      expect(() => parseContentResId(bad)).toThrow('Parameter resId must be greater than 0')
      expect(() => parseVersionParam(bad)).toThrow('Parameter version must be greater than 0')
    }
  })

  it('never accepts a non-positive or non-integer value', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        let n: number | undefined
        try {
          n = parseContentResId(s)
        } catch {
          return
        }
        expect(Number.isSafeInteger(n) && n > 0).toBe(true)
      }),
    )
  })

  it('reads type: PDF by default, SIGN/NOTE, anything else refused', () => {
    expect(parseVersionType(undefined)).toBe('PDF')
    expect(parseVersionType('')).toBe('PDF')
    expect(parseVersionType('SIGN')).toBe('SIGN')
    expect(parseVersionType('NOTE')).toBe('NOTE')
    for (const bad of ['TYPE', 'pdf', 'DOC', ' PDF'])
      expect(() => parseVersionType(bad)).toThrow('Parameter type can not be empty and should be PDF, TYPE, NOTE')
  })

  it('reads modes, watermark and signedVersion', () => {
    expect([
      parseContentMode('base64'),
      parseContentMode('view'),
      parseContentMode(''),
      parseContentMode('x'),
      parseContentMode(undefined),
    ]).toEqual(['base64', 'view', 'download', 'download', 'download'])
    expect([parseOriginalMode('base64'), parseOriginalMode('view')]).toEqual(['base64', 'download'])
    expect([undefined, '', 'true', 'yes', 'false', 'FALSE', '0'].map(parseWatermarkFlag)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ])
    expect([undefined, '', 'false', 'true', 'TRUE'].map(parseSignedVersion)).toEqual([false, false, false, true, true])
    for (const bad of ['1', '0', 'yes', 'on'])
      expect(() => parseSignedVersion(bad)).toThrow('signedVersion param is not a boolean')
  })
})

describe('content view helpers', () => {
  it('keeps specific sniffed types and refines generic ones from the format', () => {
    expect(servedMimeType('application/pdf', 'pdf')).toBe('application/pdf')
    expect(servedMimeType('application/zip', 'docx')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    )
    expect(servedMimeType('text/plain', 'html')).toBe('text/html')
    expect(servedMimeType('text/plain', 'txt')).toBe('text/plain')
    expect(servedMimeType('application/octet-stream', 'exe')).toBe('application/octet-stream')
    expect(servedMimeType('image/png', 'docx')).toBe('image/png')
  })

  it('writes the reference history message', () => {
    expect(viewHistoryInfo(12)).toBe('Viewing document : 12')
  })
})
