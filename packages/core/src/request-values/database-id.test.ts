import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { databaseIdOf, ID_COLUMN_MAX } from './database-id.js'

describe('databaseIdOf', () => {
  it('takes positive integers and their decimal digits', () => {
    expect(databaseIdOf(22)).toBe(22)
    expect(databaseIdOf('22')).toBe(22)
    expect(databaseIdOf('0022')).toBe(22)
  })

  it('takes ids up to the column: 2^31 − 1 for integer columns, 2^53 − 1 for bigint ones', () => {
    expect(databaseIdOf(2_147_483_647)).toBe(2_147_483_647)
    expect(databaseIdOf('2147483647')).toBe(2_147_483_647)
    expect(databaseIdOf(2_147_483_648)).toBeNull()
    expect(databaseIdOf('2147483648')).toBeNull()
    expect(databaseIdOf(2_147_483_648, 'bigint')).toBe(2_147_483_648)
    expect(databaseIdOf(Number.MAX_SAFE_INTEGER, 'bigint')).toBe(Number.MAX_SAFE_INTEGER)
    expect(databaseIdOf('9007199254740991', 'bigint')).toBe(Number.MAX_SAFE_INTEGER)
    expect(databaseIdOf('9007199254740992', 'bigint')).toBeNull()
    expect(databaseIdOf(9_007_199_254_740_992, 'bigint')).toBeNull()
  })

  it('refuses anything else', () => {
    for (const value of [
      0,
      -0,
      '-0',
      -1,
      1.5,
      '1.5',
      1e308,
      '1e308',
      Number.POSITIVE_INFINITY,
      Number.NaN,
      '',
      ' ',
      'abc',
      '1e3',
      '0x10',
      '-1',
      ' 1',
      '+1',
      '1 2',
      '99999999999999999',
      '9'.repeat(400),
      null,
      undefined,
      [1],
      { id: 1 },
      true,
    ])
      expect(databaseIdOf(value, 'bigint'), String(value)).toBeNull()
  })

  it('never answers a value past the column, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.double(), fc.integer(), fc.bigInt().map(String), fc.string(), fc.nat().map(String)),
        fc.constantFrom('integer' as const, 'bigint' as const),
        (value, column) => {
          const id = databaseIdOf(value, column)
          expect(id === null || (Number.isInteger(id) && id >= 1 && id <= ID_COLUMN_MAX[column])).toBe(true)
        },
      ),
    )
  })
})
