import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { containsNul, JSON_NESTING_LIMIT, scanJsonText } from './json-text.js'

const deepArray = (depth: number, leaf: string) => `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
const deepObject = (depth: number, leaf: string) => `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`

describe('scanJsonText', () => {
  it('finds nesting past the limit, arrays and objects alike, however deep (no recursion)', () => {
    expect(scanJsonText(deepArray(JSON_NESTING_LIMIT, '1')).tooDeep).toBe(false)
    expect(scanJsonText(deepObject(JSON_NESTING_LIMIT, '1')).tooDeep).toBe(false)
    expect(scanJsonText(deepArray(JSON_NESTING_LIMIT + 1, '1')).tooDeep).toBe(true)
    expect(scanJsonText(deepObject(JSON_NESTING_LIMIT + 1, '1')).tooDeep).toBe(true)
    expect(scanJsonText(deepArray(1_000_000, '"\\u0000"')).tooDeep).toBe(true)
  })

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(scanJsonText(`{"a":"${'['.repeat(200)}\\"${'{'.repeat(200)}"}`).tooDeep).toBe(false)
  })

  it('finds an escaped NUL in a string or a key, and only there', () => {
    expect(scanJsonText('{"a":"x\\u0000y"}').hasNul).toBe(true)
    expect(scanJsonText('{"k\\u0000":1}').hasNul).toBe(true)
    expect(scanJsonText('["\\n\\t\\"","\\u0000"]').hasNul).toBe(true)
    expect(scanJsonText('{"a":"x\\\\u0000y"}').hasNul).toBe(false)
    expect(scanJsonText('{"a":"\\u00001"}').hasNul).toBe(true)
    expect(scanJsonText('{"a":"\\u0001"}').hasNul).toBe(false)
  })

  it('agrees with the parsed value on any JSON text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value)
        expect(scanJsonText(text).hasNul).toBe(containsNul(value))
      }),
    )
  })

  it('stays linear on a long string of escapes', () => {
    const text = `"${'\\n'.repeat(2_000_000)}"`
    expect(scanJsonText(text)).toEqual({ tooDeep: false, hasNul: false })
  })
})

describe('containsNul', () => {
  it('walks values deeper than the stack would allow, keys included', () => {
    let deep: unknown = '\0'
    for (let i = 0; i < 200_000; i++) deep = [deep]
    expect(containsNul(deep)).toBe(true)
    expect(containsNul({ a: [{ 'b\0': 1 }] })).toBe(true)
    expect(containsNul({ a: ['b', 1, null, { c: 'd' }] })).toBe(false)
  })
})
