import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readMaarchExchanges } from './maarch-exchanges.js'
import { answerDifferences, shapeDifferences } from './same-shape.js'

describe('comparing an answer with the one Maarch 20.10 recorded', () => {
  it('finds nothing between a JSON value and itself', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => shapeDifferences(value, value).length === 0))
  })

  it('names a missing key, an extra key and a changed type by their path', () => {
    const recorded = { contact: { id: 1, lastname: 'Dupont', address: { town: 'Paris' } } }
    const actual = { contact: { id: '1', address: { town: 'Paris', zip: '75000' } } }
    expect(shapeDifferences(actual, recorded)).toEqual([
      'contact.id: string instead of number',
      'contact.lastname: missing',
      "contact.address.zip: not in Maarch's answer",
    ])
  })

  it('compares values only where asked, and every item of an array with the recorded first', () => {
    const recorded = { resources: [{ resId: 21, chrono: 'MAARCH/2026A/1' }] }
    expect(shapeDifferences({ resources: [{ resId: 5, chrono: 'X' }, { resId: 6 }] }, recorded)).toEqual([
      'resources.1.chrono: missing',
    ])
    expect(
      shapeDifferences({ resources: [{ resId: 5, chrono: 'X' }] }, recorded, { sameValuesAt: ['resources.0.resId'] }),
    ).toEqual(['resources.0.resId: 5 instead of 21'])
  })

  it('compares an error body by its exact message and any answer by its status first', () => {
    const recorded = { status: 400, body: { errors: 'Body lastname or company is mandatory' } }
    expect(
      answerDifferences({ status: 400, json: { errors: 'Body lastname or company is mandatory' } }, recorded),
    ).toEqual([])
    expect(answerDifferences({ status: 400, json: { errors: 'lastname is mandatory' } }, recorded)).toHaveLength(1)
    expect(answerDifferences({ status: 500, json: {} }, recorded)[0]).toMatch(/^status 500 instead of 400/)
  })

  it('reads every recorded fixture file as exchanges with a request and a response', () => {
    for (const file of ['capture-workflow.json', 'contacts-create.json', 'search.json']) {
      const exchanges = readMaarchExchanges(file)
      expect(exchanges.length).toBeGreaterThan(0)
      for (const exchange of exchanges) {
        expect(typeof exchange.request.path).toBe('string')
        expect(typeof exchange.response.status).toBe('number')
      }
    }
  })
})
