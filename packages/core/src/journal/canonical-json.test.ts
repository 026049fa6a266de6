import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type CanonicalValue, canonicalJson } from './canonical-json.js'

describe('canonicalJson', () => {
  it('sorts members by code unit, drops whitespace and undefined members', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], A: { z: undefined, y: -0.5 }, é: 'é', '': 2 })).toBe(
      '{"":2,"A":{"y":-0.5},"a":[true,null,"x"],"b":1,"é":"é"}',
    )
  })

  it('writes dates as ISO 8601 UTC with milliseconds', () => {
    expect(canonicalJson({ t: new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6)) })).toBe('{"t":"2024-01-02T03:04:05.006Z"}')
  })

  it('escapes strings as JSON does, including lone surrogates', () => {
    expect(canonicalJson('a"b\\c\n\u0001\ud800')).toBe('"a\\"b\\\\c\\n\\u0001\\ud800"')
  })

  it('refuses non-finite numbers and invalid dates', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(RangeError)
    expect(() => canonicalJson(new Date(Number.NaN))).toThrow(RangeError)
  })

  it('is valid JSON, equal to the value, and independent of member insertion order', () => {
    const json = fc.jsonValue({ noUnicodeString: false }).filter((v) => !Object.is(v, -0))
    fc.assert(
      fc.property(json, (value) => {
        const text = canonicalJson(value as CanonicalValue)
        expect(text).not.toMatch(/^\s|\s$/)
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)))
        const reparsed = JSON.parse(text) as CanonicalValue
        const reversed = reverseMembers(reparsed)
        expect(canonicalJson(reversed)).toBe(text)
      }),
      { numRuns: 300 },
    )
  })
})

function reverseMembers(value: CanonicalValue): CanonicalValue {
  if (Array.isArray(value)) return value.map(reverseMembers)
  if (value === null || typeof value !== 'object' || value instanceof Date) return value
  // fromEntries keeps a `__proto__` key as an own member.
  return Object.fromEntries(
    Object.entries(value as Record<string, CanonicalValue>)
      .reverse()
      .map(([k, v]) => [k, reverseMembers(v)]),
  )
}
