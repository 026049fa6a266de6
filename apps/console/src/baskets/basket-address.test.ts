import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseHash } from '../ui/use-hash-route.js'
import { basketHash, basketPlaceOf } from './basket-address.js'

describe('a basket in the hash', () => {
  it('reads the list and a letter of it back from the hash it writes', () => {
    fc.assert(
      fc.property(
        fc.record({
          userId: fc.integer({ min: 1, max: 2 ** 40 }),
          groupId: fc.integer({ min: 1, max: 2 ** 40 }),
          basketId: fc.integer({ min: 1, max: 2 ** 40 }),
        }),
        fc.option(fc.integer({ min: 1, max: 2 ** 40 }), { nil: undefined }),
        (basket, resId) => {
          const route = parseHash(basketHash(basket, resId))
          expect(route.page).toBe('basket')
          expect(basketPlaceOf(route.params)).toEqual({ basket, resId: resId ?? null })
        },
      ),
    )
  })

  it('names no basket for parameters that are not serial ids', () => {
    for (const params of [
      [],
      ['3', '4'],
      ['3', '4', '0'],
      ['3', '4', '-2'],
      ['3', '4', '2x'],
      ['3', '4', '2', '5', '6'],
    ])
      expect(basketPlaceOf(params)).toBeNull()
    expect(basketPlaceOf(['1', '1', '99999999999999999'])).toBeNull()
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 5 }), (params) => {
        const place = basketPlaceOf(params)
        if (place) expect(Object.values(place.basket).every((n) => Number.isSafeInteger(n) && n > 0)).toBe(true)
      }),
    )
  })

  it('opens the baskets for an empty or unknown hash', () => {
    expect(parseHash('')).toEqual({ page: 'baskets', id: null, params: [] })
    expect(parseHash('#/nowhere/1')).toEqual({ page: 'baskets', id: null, params: [] })
    expect(parseHash('#/record/12')).toEqual({ page: 'record', id: '12', params: ['12'] })
  })
})
