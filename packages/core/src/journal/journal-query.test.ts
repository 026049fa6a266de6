import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import {
  buildConsultationEvent,
  buildDepositEvent,
  buildJournalReadEvent,
  chainPositionAfter,
  type JournalBuilderDeps,
} from './build-journal-event.js'
import type { JournalEvent } from './journal-event.js'
import {
  compareCodePoints,
  compareJournalOrder,
  compareOriginatorArchiveId,
  JOURNAL_MAX_LIMIT,
  matchesJournalQuery,
  ORIGINATOR_ARCHIVE_ID_RANGE_RULE,
  parseJournalDate,
  parseJournalQuery,
  type RawJournalQuery,
  selectJournalPage,
} from './journal-query.js'

function failure(f: () => unknown): string {
  try {
    f()
  } catch (error) {
    if (isDomainError(error)) return `${error.kind}: ${error.message}`
    throw error
  }
  return 'no error'
}

describe('parseJournalDate', () => {
  it.each([
    ['2019-12-11', false, '2019-12-11T00:00:00.000Z'],
    ['2019-12-11', true, '2019-12-11T23:59:59.999Z'],
    ['2024-02-29', true, '2024-02-29T23:59:59.999Z'],
    ['2019-12-11T10:00', false, '2019-12-11T10:00:00.000Z'],
    ['2019-12-11T10:00', true, '2019-12-11T10:00:00.000Z'],
    ['2019-12-11T10:11:39', false, '2019-12-11T10:11:39.000Z'],
    ['2019-12-11 10:11:39', false, '2019-12-11T10:11:39.000Z'],
    ['2019-12-11T10:11:39.5', false, '2019-12-11T10:11:39.500Z'],
    ['2019-12-11T10:11:39,123456789', false, '2019-12-11T10:11:39.123Z'],
    ['2019-12-11T10:11:39Z', false, '2019-12-11T10:11:39.000Z'],
    ['2019-12-11T10:11:39+00:00', false, '2019-12-11T10:11:39.000Z'],
    ['2019-12-11T10:11:39+02:00', false, '2019-12-11T08:11:39.000Z'],
    ['2019-12-11T00:30:00-0130', false, '2019-12-11T02:00:00.000Z'],
    ['2019-12-11T00:30:00+01', false, '2019-12-10T23:30:00.000Z'],
    ['0050-01-01', false, '0050-01-01T00:00:00.000Z'],
  ])('reads %s (end of day: %s)', (text, endOfDay, expected) => {
    expect(parseJournalDate(text, endOfDay).toISOString()).toBe(expected)
  })

  it.each([
    '',
    'yesterday',
    '2019-13-01',
    '2019-02-29',
    '2019-12-32',
    '2019-00-10',
    '2019-12-11T24:00',
    '2019-12-11T10:60',
    '2019-12-11T10:00:60',
    '2019-12-11T10',
    '2019-12-11T10:00+24:00',
    '2019-12-11T10:00:00.',
    '20191211',
    '11/12/2019',
    ' 2019-12-11',
    '2019-12-11Z',
    '２０１９-12-11',
  ])('refuses %j with Invalid format date', (text) => {
    expect(failure(() => parseJournalDate(text))).toBe('bad-request: Invalid format date')
  })

  it('agrees with Date.parse on every valid ISO date-time with offset', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-02T00:00:00Z'), max: new Date('9999-12-30T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (date, offset) => {
          const local = new Date(date.getTime() + offset * 60_000).toISOString().slice(0, 23)
          const sign = offset < 0 ? '-' : '+'
          const abs = Math.abs(offset)
          const text = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
          expect(parseJournalDate(text).getTime()).toBe(date.getTime())
          expect(parseJournalDate(text).getTime()).toBe(Date.parse(text))
        },
      ),
      { numRuns: 300 },
    )
  })

  it('never throws anything but Invalid format date on arbitrary text', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.stringMatching(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,4})?)?([Zz]|[+-]\d{2}(:?\d{2})?)?)?$/),
        ),
        (text) => {
          try {
            const date = parseJournalDate(text)
            expect(Number.isNaN(date.getTime())).toBe(false)
          } catch (error) {
            expect(isDomainError(error) && error.code).toBe('JOURNAL_INVALID_DATE')
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('parseJournalQuery', () => {
  it('returns only the parameters given, with dates parsed and toDate covering its day', () => {
    expect(parseJournalQuery({})).toEqual({})
    expect(
      parseJournalQuery({
        originatorOrgRegNumber: 'PJS',
        fromDate: '2024-01-01',
        toDate: '2024-01-31',
        fromOriginatorArchiveId: '10',
        toOriginatorArchiveId: '20',
        limit: '500',
        after: 'mailroom_x-1',
        unknown: 'ignored',
      }),
    ).toEqual({
      originatorOrgRegNumber: 'PJS',
      fromDate: new Date('2024-01-01T00:00:00.000Z'),
      toDate: new Date('2024-01-31T23:59:59.999Z'),
      fromOriginatorArchiveId: '10',
      toOriginatorArchiveId: '20',
      limit: 500,
      after: 'mailroom_x-1',
    })
    expect(parseJournalQuery({ archiveId: 'mailroom_a', originatorOrgRegNumber: 'PJS', limit: '1' })).toEqual({
      archiveId: 'mailroom_a',
      originatorOrgRegNumber: 'PJS',
      limit: 1,
    })
  })

  it('treats empty parameters as absent and takes a one-element array as a value', () => {
    expect(parseJournalQuery({ archiveId: '', fromDate: '', limit: '', after: '' })).toEqual({})
    expect(parseJournalQuery({ archiveId: ['mailroom_a'] })).toEqual({ archiveId: 'mailroom_a' })
    expect(parseJournalQuery({ archiveId: 'x', fromDate: '' })).toEqual({ archiveId: 'x' })
  })

  it('refuses archiveId with any date or originator archive identifier bound', () => {
    for (const other of ['fromDate', 'toDate', 'fromOriginatorArchiveId', 'toOriginatorArchiveId']) {
      expect(failure(() => parseJournalQuery({ archiveId: 'mailroom_a', [other]: '2024-01-01' }))).toBe(
        'bad-request: archiveId cannot be combined with dates or originator archive identifiers',
      )
    }
  })

  it('refuses bad dates, inverted ranges, bad limits, bad cursors and repeated parameters', () => {
    expect(failure(() => parseJournalQuery({ fromDate: 'soon' }))).toBe('bad-request: Invalid format date')
    expect(failure(() => parseJournalQuery({ toDate: '2024-02-30' }))).toBe('bad-request: Invalid format date')
    expect(failure(() => parseJournalQuery({ fromDate: '2024-01-02', toDate: '2024-01-01' }))).toBe(
      'bad-request: fromDate must not be later than toDate',
    )
    expect(parseJournalQuery({ fromDate: '2024-01-01T12:00', toDate: '2024-01-01' }).toDate).toEqual(
      new Date('2024-01-01T23:59:59.999Z'),
    )
    expect(failure(() => parseJournalQuery({ fromDate: '2024-01-01T12:00:00.001', toDate: '2024-01-01T12:00' }))).toBe(
      'bad-request: fromDate must not be later than toDate',
    )
    for (const limit of ['0', '-1', '1.5', '10001', 'ten', '1e3', ' 5', '9999999']) {
      expect(failure(() => parseJournalQuery({ limit }))).toBe(
        'bad-request: limit must be an integer between 1 and 10000',
      )
    }
    expect(parseJournalQuery({ limit: String(JOURNAL_MAX_LIMIT) }).limit).toBe(10_000)
    expect(parseJournalQuery({ limit: '007' }).limit).toBe(7)
    for (const after of ['a b', 'x/y', 'é', 'a'.repeat(256)]) {
      expect(failure(() => parseJournalQuery({ after }))).toBe(
        'bad-request: after must be the eventId of an event of this digital safe',
      )
    }
    expect(failure(() => parseJournalQuery({ fromDate: ['2024-01-01', '2024-01-02'] }))).toBe(
      'bad-request: Query parameter fromDate must be given at most once',
    )
  })

  it('either returns a query or raises a bad-request DomainError, for any input', () => {
    const names = [
      'archiveId',
      'originatorOrgRegNumber',
      'fromDate',
      'toDate',
      'fromOriginatorArchiveId',
      'toOriginatorArchiveId',
      'limit',
      'after',
      'other',
    ]
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.constantFrom('2024-01-01', '2024-01-01T10:00:00Z', '5', 'mailroom_x'),
    )
    const raw = fc.dictionary(fc.constantFrom(...names), fc.oneof(value, fc.array(value, { maxLength: 2 })))
    fc.assert(
      fc.property(raw, (query) => {
        try {
          const parsed = parseJournalQuery(query as RawJournalQuery)
          if (parsed.fromDate && parsed.toDate)
            expect(parsed.fromDate.getTime()).toBeLessThanOrEqual(parsed.toDate.getTime())
          if (parsed.archiveId !== undefined)
            expect(
              parsed.fromDate ?? parsed.toDate ?? parsed.fromOriginatorArchiveId ?? parsed.toOriginatorArchiveId,
            ).toBeUndefined()
        } catch (error) {
          expect(isDomainError(error) && error.kind).toBe('bad-request')
        }
      }),
      { numRuns: 500 },
    )
  })
})

describe('compareOriginatorArchiveId', () => {
  it('compares integers numerically and everything else by code point, inclusively', () => {
    expect(compareOriginatorArchiveId('9', '2', '10')).toBe(true)
    expect(compareOriginatorArchiveId('10', '2', '10')).toBe(true)
    expect(compareOriginatorArchiveId('11', '2', '10')).toBe(false)
    expect(compareOriginatorArchiveId('0009', '9', '9')).toBe(true)
    expect(
      compareOriginatorArchiveId('123456789012345678901234567890', '123456789012345678901234567889', undefined),
    ).toBe(true)
    // One non-integer makes the comparison lexicographic.
    expect(compareOriginatorArchiveId('9', '2', '10a')).toBe(false)
    expect(compareOriginatorArchiveId('9a', '2', '10')).toBe(false)
    expect(compareOriginatorArchiveId('MAARCH/2024A/15', 'MAARCH/2024A/1', 'MAARCH/2024A/2')).toBe(true)
    expect(compareOriginatorArchiveId('b', 'a', undefined)).toBe(true)
    expect(compareOriginatorArchiveId('a', undefined, 'a')).toBe(true)
    expect(compareOriginatorArchiveId('anything', undefined, undefined)).toBe(true)
    expect(compareOriginatorArchiveId('', '0', undefined)).toBe(false)
    // Code point, not code unit: U+1F600 sorts after U+FFFD, as in UTF-8 bytes.
    expect(compareOriginatorArchiveId('\u{1F600}', '\uFFFD', undefined)).toBe(true)
    expect(ORIGINATOR_ARCHIVE_ID_RANGE_RULE).toContain('inclusive')
  })

  it('matches numeric order on integers and UTF-8 byte order on strings', () => {
    const bytes = (s: string) => Buffer.from(s, 'utf8')
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (a, b) => {
        expect(Math.sign(compareCodePoints(a, b))).toBe(Math.sign(Buffer.compare(bytes(a), bytes(b))))
      }),
      { numRuns: 500 },
    )
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        (v, x, y) => {
          const [from, to] = x <= y ? [x, y] : [y, x]
          expect(compareOriginatorArchiveId(String(v), String(from), String(to))).toBe(v >= from && v <= to)
        },
      ),
      { numRuns: 300 },
    )
  })
})

describe('selection', () => {
  const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')
  const SAFE = '21750001600019'
  let n = 0
  const deps: JournalBuilderDeps = { sha256Hex, newEventId: () => `mailroom_q-${String(++n).padStart(3, '0')}` }
  const events: JournalEvent[] = []
  const add = (build: (position: ReturnType<typeof chainPositionAfter>) => JournalEvent) => {
    events.push(build(chainPositionAfter(SAFE, events.at(-1) ?? null)))
  }
  const actor = (unit: string) => ({ accountId: 'cchaplin', accountName: 'C', orgUnitRegNumber: unit })
  const resource = { resId: '1', hash: sha256Hex('x'), size: 1 }
  const deposit = (archiveId: string, originatorArchiveId: string, unit: string, at: string) =>
    add((position) =>
      buildDepositEvent(deps, {
        position,
        actor: actor(unit),
        timestamp: new Date(at),
        archiveId,
        resource,
        originatorOrgRegNumber: unit,
        depositorOrgRegNumber: unit,
        archiverOrgRegNumber: 'VILLE',
        originatorArchiveId,
      }),
    )
  deposit('mailroom_a9', '9', 'PJS', '2024-01-01T10:00:00Z')
  deposit('mailroom_a10', '10', 'COU', '2024-01-02T10:00:00Z')
  add((position) =>
    buildConsultationEvent(deps, {
      position,
      actor: actor('PJS'),
      timestamp: new Date('2024-01-02T10:00:00Z'),
      archiveId: 'mailroom_a9',
      resource,
      originatorArchiveId: '9',
    }),
  )
  add((position) =>
    buildJournalReadEvent(deps, {
      position,
      actor: actor('VILLE'),
      timestamp: new Date('2024-01-03T00:00:00Z'),
      organizationRegNumber: SAFE,
      orgName: 'Ville',
      ownerOrgId: SAFE,
    }),
  )
  deposit('mailroom_b', 'MAARCH/2024A/1', 'PJS', '2024-01-03T12:00:00Z')

  const ids = (query: RawJournalQuery, cursor?: JournalEvent) =>
    selectJournalPage(events, SAFE, parseJournalQuery(query), cursor).map((e) => e.eventId)

  it('returns archive events of the safe only, in timestamp then eventId order', () => {
    expect(ids({})).toEqual(['mailroom_q-001', 'mailroom_q-002', 'mailroom_q-003', 'mailroom_q-005'])
    expect(selectJournalPage(events, 'OTHER', {})).toEqual([])
    const shuffled = [events[4]!, events[2]!, events[0]!, events[1]!]
    expect(selectJournalPage(shuffled, SAFE, {}).map((e) => e.eventId)).toEqual([
      'mailroom_q-001',
      'mailroom_q-002',
      'mailroom_q-003',
      'mailroom_q-005',
    ])
    expect(compareJournalOrder(events[1]!, events[2]!)).toBeLessThan(0)
  })

  it('applies each filter', () => {
    expect(ids({ archiveId: 'mailroom_a9' })).toEqual(['mailroom_q-001', 'mailroom_q-003'])
    expect(ids({ originatorOrgRegNumber: 'COU' })).toEqual(['mailroom_q-002'])
    expect(ids({ fromDate: '2024-01-02' })).toEqual(['mailroom_q-002', 'mailroom_q-003', 'mailroom_q-005'])
    expect(ids({ toDate: '2024-01-02' })).toEqual(['mailroom_q-001', 'mailroom_q-002', 'mailroom_q-003'])
    expect(ids({ toDate: '2024-01-02T09:59:59.999Z' })).toEqual(['mailroom_q-001'])
    expect(ids({ fromDate: '2024-01-02T11:00:00+01:00', toDate: '2024-01-02T10:00:00Z' })).toEqual([
      'mailroom_q-002',
      'mailroom_q-003',
    ])
    expect(ids({ fromOriginatorArchiveId: '2', toOriginatorArchiveId: '9' })).toEqual([
      'mailroom_q-001',
      'mailroom_q-003',
    ])
    expect(ids({ fromOriginatorArchiveId: '10' })).toEqual(['mailroom_q-002', 'mailroom_q-005'])
    expect(ids({ fromOriginatorArchiveId: 'M' })).toEqual(['mailroom_q-005'])
    expect(matchesJournalQuery(events[3]!, SAFE, {})).toBe(false)
  })

  it('pages with limit and the after cursor', () => {
    expect(ids({ limit: '2' })).toEqual(['mailroom_q-001', 'mailroom_q-002'])
    expect(ids({ limit: '2', after: 'mailroom_q-002' }, events[1])).toEqual(['mailroom_q-003', 'mailroom_q-005'])
    expect(ids({ after: 'mailroom_q-005' }, events[4])).toEqual([])
    expect(failure(() => ids({ after: 'mailroom_q-404' }))).toBe(
      'bad-request: after must be the eventId of an event of this digital safe',
    )
    expect(failure(() => ids({ after: 'mailroom_q-002' }, events[0]))).toBe(
      'bad-request: after must be the eventId of an event of this digital safe',
    )
  })
})
