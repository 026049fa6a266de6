import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { JSON_NESTING_LIMIT, scanJsonText } from './json-text.js'

/** The oracle: whether a string anywhere in a parsed value (keys included) holds U+0000. */
function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value]
  while (pending.length > 0) {
    const item = pending.pop()
    if (typeof item === 'string') {
      if (item.includes('\0')) return true
    } else if (Array.isArray(item)) for (const inner of item) pending.push(inner)
    else if (item !== null && typeof item === 'object')
      for (const [key, inner] of Object.entries(item)) {
        if (key.includes('\0')) return true
        pending.push(inner)
      }
  }
  return false
}

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
