import { describe, expect, it } from 'vitest'
import { positiveIntegerOf } from './route-integer.js'

describe('positiveIntegerOf', () => {
  it('takes positive integers and strings of digits naming one', () => {
    expect(positiveIntegerOf(22)).toBe(22)
    expect(positiveIntegerOf('22')).toBe(22)
    expect(positiveIntegerOf('0022')).toBe(22)
  })

  it('refuses anything else', () => {
    for (const value of [
      0,
      -1,
      1.5,
      '',
      'abc',
      '1e3',
      ' 1',
      '-1',
      '99999999999999999',
      null,
      undefined,
      [1],
      { id: 1 },
      true,
    ])
      expect(positiveIntegerOf(value)).toBeNull()
  })
})
