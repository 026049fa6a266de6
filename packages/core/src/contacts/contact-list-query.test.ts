import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { foldForSearch, parseContactListQuery } from './contact-list-query.js'

describe('parseContactListQuery', () => {
  it('takes 20.10 defaults, and refuses what 20.10 would send to the database', () => {
    expect(parseContactListQuery({})).toEqual({ words: [], offset: 0, limit: 25, orderBy: null, order: 'asc' })
    expect(parseContactListQuery({ limit: '0', orderBy: 'email', order: 'up' })).toMatchObject({
      limit: 25,
      orderBy: null,
      order: 'asc',
    })
    expect(parseContactListQuery({ search: ' Jean  ÉRCOLANI ', orderBy: 'lastname', order: 'desc' })).toMatchObject({
      words: ['jean', 'ercolani'],
      orderBy: 'lastname',
      order: 'desc',
    })
    expect(() => parseContactListQuery({ limit: '-1' })).toThrow('Query limit must be an integer from 1 to 1000')
    expect(() => parseContactListQuery({ offset: 'x' })).toThrow('Query offset must be an integer from 0 to 2147483647')
  })

  it('refuses a search of more than 20 words rather than dropping the words past the twentieth', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `mot${i}`).join(' ')
    expect(parseContactListQuery({ search: words(20) }).words).toHaveLength(20)
    expect(() => parseContactListQuery({ search: words(21) })).toThrow('Query search has more than 20 words')
  })

  it('answers a page within bounds or a 400, for any query values', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.constantFrom('limit', 'offset', 'search', 'orderBy', 'order'), fc.string()),
        (query) => {
          try {
            const parsed = parseContactListQuery(query)
            expect(parsed.limit).toBeGreaterThanOrEqual(1)
            expect(parsed.limit).toBeLessThanOrEqual(1000)
            expect(parsed.offset).toBeGreaterThanOrEqual(0)
          } catch (error) {
            expect((error as { kind?: string }).kind).toBe('bad-request')
          }
        },
      ),
    )
  })

  it('folds accents and case', () => {
    expect(foldForSearch('Société Générale À')).toBe('societe generale a')
  })
})
