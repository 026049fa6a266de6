import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { MAX_STATUS_UPDATE_TARGETS } from './status-limits.js'
import {
  characterLength,
  parseStatusUpdateRequest,
  parseTargetStatus,
  statusUpdateBodySchema,
} from './status-update-request.js'

function outcome(body: unknown): string | ReturnType<typeof parseStatusUpdateRequest> {
  try {
    return parseStatusUpdateRequest(body)
  } catch (error) {
    if (isDomainError(error)) return error.message
    throw error
  }
}

describe('parseStatusUpdateRequest: status', () => {
  it.each([undefined, null, ''])('defaults an unset status %j to COU', (status) => {
    expect(parseTargetStatus({ status, resId: [1] })).toBe('COU')
  })

  it('keeps the status exactly (case-sensitive, no trimming)', () => {
    expect(parseTargetStatus({ status: 'end' })).toBe('end')
    expect(parseTargetStatus({ status: ' END' })).toBe(' END')
    expect(parseTargetStatus({ status: 'ÉÉÉÉÉÉÉÉÉÉ' })).toBe('ÉÉÉÉÉÉÉÉÉÉ')
  })

  it.each([0, 12, true, false, ['END'], { id: 'END' }, 'ABCDEFGHIJK', 'A\u0000B', '\ud800'])(
    'refuses status %j with status not found',
    (status) => {
      expect(outcome({ status, resId: [1] })).toBe('status not found')
    },
  )

  it('reports the status before anything else (reference order)', () => {
    expect(outcome({ status: 7, historyMessage: 5, resId: 'x', chrono: 3 })).toBe('status not found')
  })

  it('counts the 10-character limit in characters, not UTF-16 units', () => {
    const astral = '😀'.repeat(10)
    expect(characterLength(astral)).toBe(10)
    expect(parseTargetStatus({ status: astral })).toBe(astral)
    expect(outcome({ status: `${astral}x`, resId: [1] })).toBe('status not found')
  })
})

describe('parseStatusUpdateRequest: historyMessage', () => {
  it.each([undefined, null, ''])('defaults %j to "status update"', (historyMessage) => {
    expect(outcome({ status: 'END', historyMessage, resId: [1] })).toMatchObject({ historyMessage: 'status update' })
  })

  it('keeps a given message', () => {
    const historyMessage = 'Réconciliation : clôture du document cible dans le cadre de la réconciliation automatique'
    expect(outcome({ historyMessage, resId: [1] })).toMatchObject({ historyMessage })
  })

  it.each([1, true, ['x'], {}, 'x'.repeat(4001), 'a\u0000b', 'a\udc00'])('refuses %j', (historyMessage) => {
    expect(outcome({ historyMessage, resId: [1] })).toBe(
      'Body historyMessage is not a string of at most 4000 characters',
    )
  })

  it('accepts exactly 4000 characters', () => {
    expect(outcome({ historyMessage: 'é'.repeat(4000), resId: [1] })).toMatchObject({
      historyMessage: 'é'.repeat(4000),
    })
  })
})

describe('parseStatusUpdateRequest: identifier lists', () => {
  it('reads the earlier variant (resId only) and the current one', () => {
    expect(outcome({ status: 'END', resId: [3, 1, 2] })).toEqual({
      status: 'END',
      historyMessage: 'status update',
      targets: { kind: 'resId', identifiers: [3, 1, 2] },
    })
    expect(outcome({ chrono: ['MAARCH/2026A/1'] })).toEqual({
      status: 'COU',
      historyMessage: 'status update',
      targets: { kind: 'chrono', identifiers: ['MAARCH/2026A/1'] },
    })
  })

  it('accepts decimal strings as the admin UI sends them, mixed with integers', () => {
    expect(outcome({ resId: ['12', 13, '0014'] })).toMatchObject({
      targets: { kind: 'resId', identifiers: [12, 13, 14] },
    })
  })

  it('counts duplicates once, keeping the first position', () => {
    expect(outcome({ resId: [5, '3', 5, 3, '5'] })).toMatchObject({ targets: { identifiers: [5, 3] } })
    expect(outcome({ chrono: ['B', 'A', 'B'] })).toMatchObject({ targets: { identifiers: ['B', 'A'] } })
  })

  it('lets a non-empty chrono win over resId, which is then not read', () => {
    expect(outcome({ chrono: ['X'], resId: [1] })).toMatchObject({ targets: { kind: 'chrono', identifiers: ['X'] } })
    expect(outcome({ chrono: ['X'], resId: 'not read' })).toMatchObject({ targets: { kind: 'chrono' } })
    expect(outcome({ chrono: [], resId: [1] })).toMatchObject({ targets: { kind: 'resId', identifiers: [1] } })
    expect(outcome({ chrono: null, resId: [1] })).toMatchObject({ targets: { kind: 'resId' } })
  })

  it.each([
    {},
    { resId: [] },
    { chrono: [] },
    { resId: [], chrono: [] },
    { resId: null },
    { resId: '' },
    { chrono: '', resId: null },
    undefined,
    null,
  ])('refuses %j: neither list is usable', (body) => {
    expect(outcome(body)).toBe('Body resId or chrono is not set or empty')
  })

  it.each([
    [{ resId: 12 }, 'Body resId is not an array'],
    [{ resId: '12' }, 'Body resId is not an array'],
    [{ resId: { 0: 12 } }, 'Body resId is not an array'],
    [{ chrono: 'MAARCH/2026A/1', resId: [1] }, 'Body chrono is not an array'],
    [{ chrono: [], resId: true }, 'Body resId is not an array'],
  ])('refuses scalars where a list is expected: %j', (body, message) => {
    expect(outcome(body)).toBe(message)
  })

  it.each([
    [[1, 2, 0], 2],
    [[-1], 0],
    [[1.5], 0],
    [['1.0'], 0],
    [[' 1'], 0],
    [['1e3'], 0],
    [[''], 0],
    [[null], 0],
    [[true], 0],
    [[[1]], 0],
    [[1, 2, 3, Number.MAX_SAFE_INTEGER + 1], 3],
    [['99999999999999999'], 0],
  ])('names the first bad resId element of %j', (resId, index) => {
    expect(outcome({ resId })).toBe(`Body resId[${index}] is not an integer greater than 0`)
  })

  it.each([
    [['A', ''], 1],
    [[12], 0],
    [[null], 0],
    [['A', 'B', 'x'.repeat(256)], 2],
  ])('names the first bad chrono element of %j', (chrono, index) => {
    expect(outcome({ chrono })).toBe(`Body chrono[${index}] is not a string of 1 to 255 characters`)
  })

  it('accepts a chrono of 255 characters', () => {
    expect(outcome({ chrono: ['x'.repeat(255)] })).toMatchObject({ targets: { identifiers: ['x'.repeat(255)] } })
  })

  it('accepts 10,000 identifiers and refuses 10,001 before reading them', () => {
    const ids = Array.from({ length: MAX_STATUS_UPDATE_TARGETS }, (_, i) => i + 1)
    expect(outcome({ resId: ids })).toMatchObject({ targets: { kind: 'resId' } })
    expect(outcome({ resId: [...ids, 'bad'] })).toBe(
      'Body resId holds more than 10000 elements; split the update into several calls',
    )
    expect(outcome({ chrono: Array(10_001).fill('A') })).toBe(
      'Body chrono holds more than 10000 elements; split the update into several calls',
    )
  })

  it.each([[[1]], ['body'], [42], [true]])('refuses a body that is not an object: %j', (body) => {
    expect(outcome(body)).toBe('Body must be a JSON object')
  })
})

describe('parseStatusUpdateRequest: properties', () => {
  const resIdElement = fc.oneof(
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
    fc.integer({ min: 1, max: 10 ** 15 }).map(String),
  )

  it('returns every valid resId once, as numbers, in first-seen order', () => {
    fc.assert(
      fc.property(fc.array(resIdElement, { minLength: 1, maxLength: 200 }), (resId) => {
        const result = outcome({ resId })
        expect(typeof result).not.toBe('string')
        const expected = [...new Set(resId.map(Number))]
        expect((result as Exclude<typeof result, string>).targets.identifiers).toEqual(expected)
      }),
    )
  })

  it('names the index of the first bad element whatever surrounds it', () => {
    const bad = fc.oneof(
      fc.integer({ max: 0 }),
      fc.double().filter((d) => !Number.isInteger(d)),
      fc.string().filter((s) => !/^[0-9]{1,16}$/.test(s) || Number(s) < 1),
      fc.constantFrom(null, true, false, [], {}),
    )
    fc.assert(
      fc.property(
        fc.array(resIdElement, { maxLength: 20 }),
        bad,
        fc.array(fc.anything(), { maxLength: 5 }),
        (before, element, after) => {
          expect(outcome({ resId: [...before, element, ...after] })).toBe(
            `Body resId[${before.length}] is not an integer greater than 0`,
          )
        },
      ),
    )
  })

  it('never throws anything but a DomainError, and accepted bodies satisfy the documented schema', () => {
    const body = fc.oneof(
      fc.anything(),
      fc.record(
        {
          status: fc.oneof(fc.string({ maxLength: 12 }), fc.anything()),
          historyMessage: fc.oneof(fc.string(), fc.anything()),
          resId: fc.oneof(fc.array(fc.oneof(resIdElement, fc.anything())), fc.anything()),
          chrono: fc.oneof(fc.array(fc.string({ maxLength: 260 })), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    )
    fc.assert(
      fc.property(body, (input) => {
        let result: ReturnType<typeof parseStatusUpdateRequest>
        try {
          result = parseStatusUpdateRequest(input)
        } catch (error) {
          expect(isDomainError(error)).toBe(true)
          expect((error as { kind: string }).kind).toBe('bad-request')
          return
        }
        expect(result.targets.identifiers.length).toBeGreaterThan(0)
        expect(new Set<number | string>(result.targets.identifiers as readonly (number | string)[]).size).toBe(
          result.targets.identifiers.length,
        )
        expect(characterLength(result.status)).toBeLessThanOrEqual(10)
        const normalised =
          result.targets.kind === 'resId'
            ? { resId: [...result.targets.identifiers] }
            : { chrono: [...result.targets.identifiers] }
        expect(
          statusUpdateBodySchema.safeParse({
            status: result.status,
            historyMessage: result.historyMessage,
            ...normalised,
          }).success,
        ).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('reads record ids as databaseIdOf reads bigint ids', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(outcome({ status: 'COU', resId: [n, String(n)] })).toMatchObject({ targets: { identifiers: [n] } })
      }),
    )
  })
})
