import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { checkStatusTargets, type TargetLookup } from './status-targets.js'
import type { StatusTargets } from './status-update-request.js'

function outcome(targets: StatusTargets, lookup: TargetLookup): number[] | string {
  try {
    return checkStatusTargets(targets, lookup)
  } catch (error) {
    if (isDomainError(error)) return `${error.kind}: ${error.message}`
    throw error
  }
}

const byId = (ids: number[], allowed = ids): TargetLookup => ({
  found: new Map(ids.map((id) => [id, id])),
  allowed: new Set(allowed),
})

describe('checkStatusTargets', () => {
  it('returns the records in list order when all exist and are allowed', () => {
    expect(outcome({ kind: 'resId', identifiers: [3, 1, 2] }, byId([1, 2, 3]))).toEqual([3, 1, 2])
  })

  it('maps chrono numbers to their records', () => {
    const lookup: TargetLookup = {
      found: new Map([
        ['MAARCH/2026A/2', 8],
        ['MAARCH/2026A/1', 7],
      ]),
      allowed: new Set([7, 8]),
    }
    expect(outcome({ kind: 'chrono', identifiers: ['MAARCH/2026A/1', 'MAARCH/2026A/2'] }, lookup)).toEqual([7, 8])
  })

  it('names the first identifier that matches nothing', () => {
    expect(outcome({ kind: 'resId', identifiers: [1, 12, 13] }, byId([1]))).toBe('bad-request: Document not found: 12')
    expect(outcome({ kind: 'chrono', identifiers: ['MAARCH/2026A/3'] }, { found: new Map(), allowed: new Set() })).toBe(
      'bad-request: Document not found: MAARCH/2026A/3',
    )
  })

  it('reports whichever failure comes first in list order', () => {
    const lookup = byId([1, 2], [1])
    expect(outcome({ kind: 'resId', identifiers: [1, 2, 99] }, lookup)).toBe('forbidden: Document out of perimeter')
    expect(outcome({ kind: 'resId', identifiers: [1, 99, 2] }, lookup)).toBe('bad-request: Document not found: 99')
  })

  it('does not confuse a chrono "12" with the record 12', () => {
    expect(outcome({ kind: 'chrono', identifiers: ['12'] }, byId([12]))).toBe('bad-request: Document not found: 12')
  })

  it('is all or nothing: any missing or forbidden element refuses the whole list', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 50 }),
        fc.func(fc.constantFrom('ok', 'missing', 'forbidden')),
        (ids, fate) => {
          const existing = ids.filter((id) => fate(id) !== 'missing')
          const allowed = ids.filter((id) => fate(id) === 'ok')
          const result = outcome({ kind: 'resId', identifiers: ids }, byId(existing, allowed))
          const firstBad = ids.find((id) => fate(id) !== 'ok')
          if (firstBad === undefined) expect(result).toEqual(ids)
          else
            expect(result).toBe(
              fate(firstBad) === 'missing'
                ? `bad-request: Document not found: ${firstBad}`
                : 'forbidden: Document out of perimeter',
            )
        },
      ),
    )
  })
})
