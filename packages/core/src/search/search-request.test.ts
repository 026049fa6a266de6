import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { checkSearchLimit, isPhpEmpty, parseSearchRequest, parseSelect } from './search-request.js'
import { VIEW_COLUMN_NAMES } from './view-columns.js'

const OK = { select: 'res_id', clause: '1=1' }

function messageOf(body: unknown): string {
  try {
    parseSearchRequest(body)
  } catch (error) {
    if (isDomainError(error)) return error.message
    throw error
  }
  return 'accepted'
}

describe('parseSearchRequest: the reference order and messages (§3 steps 1-5)', () => {
  it.each([undefined, null, '', '   ', '0', 0, 1, true, false, ['res_id'], {}])('refuses select %j', (select) => {
    expect(messageOf({ select, clause: 'nope nope' })).toBe('Bad Request: select is not valid')
  })

  it.each([undefined, null, '', ' \n', '0', 12, true, ['1=1']])('refuses clause %j after a good select', (clause) => {
    expect(messageOf({ select: 'res_id', clause, limit: 'x' })).toBe('Bad Request: clause is not valid')
  })

  it.each(['wrong format', 'true', 1, 'false', {}, [true]].filter((v) => !isPhpEmpty(v)))(
    'refuses withFile %j',
    (withFile) => {
      expect(messageOf({ ...OK, withFile, orderBy: 'x' })).toBe('Bad Request: withFile parameter is not a boolean')
    },
  )

  it.each(['res_id', 1, true, { a: 'res_id' }])('refuses orderBy %j', (orderBy) => {
    expect(messageOf({ ...OK, orderBy, limit: 'x' })).toBe('Bad Request: orderBy parameter not valid')
  })

  it.each(['5', 1.5, -1, true, [5], 'x'])('refuses limit %j', (limit) => {
    expect(messageOf({ ...OK, limit, offset: 'x' })).toBe('Bad Request: limit parameter not valid')
  })

  it.each(['5', 1.5, -1, true, Number.MAX_SAFE_INTEGER + 2])('refuses offset %j', (offset) => {
    expect(messageOf({ ...OK, offset })).toBe('Bad Request: offset parameter not valid')
  })

  it('treats PHP-empty optional values as absent', () => {
    for (const empty of [undefined, null, false, 0, '', '0', [], {}]) {
      expect(parseSearchRequest({ ...OK, withFile: empty, orderBy: empty, limit: empty, offset: empty })).toMatchObject(
        {
          withFile: false,
          orderBy: [],
          limit: null,
          offset: 0,
        },
      )
    }
  })

  it('checks shapes before parsing texts, then select, clause and orderBy in that order', () => {
    expect(messageOf({ select: 'foo', clause: 'bar', limit: '1' })).toBe('Bad Request: limit parameter not valid')
    expect(messageOf({ select: 'foo', clause: 'bar' })).toBe(
      'Bad Request: select is not valid: unknown column "foo" at position 1',
    )
    expect(messageOf({ select: 'res_id', clause: 'bar', orderBy: ['baz'] })).toBe(
      'Bad Request: clause is not valid: unknown column "bar" at position 1',
    )
    expect(messageOf({ ...OK, orderBy: ['res_id', 'baz desc'] })).toBe(
      'Bad Request: orderBy parameter not valid: unknown column "baz" at position 1',
    )
    expect(messageOf({ ...OK, orderBy: ['res_id', 5] })).toBe(
      'Bad Request: orderBy parameter not valid: item is not a string',
    )
    expect(messageOf({ ...OK, orderBy: [''] })).toBe(
      'Bad Request: orderBy parameter not valid: unexpected end of input at position 1',
    )
    expect(messageOf({ ...OK, orderBy: Array.from({ length: 33 }, () => 'res_id') })).toBe(
      'Bad Request: orderBy parameter not valid: more than 32 ordering expressions',
    )
    expect(messageOf({ ...OK, clause: 'typist = @user_id' })).toBe(
      'Bad Request: clause is not valid: macro "@user_id" is not allowed here at position 10',
    )
  })

  it('treats a body that is not an object as missing everything', () => {
    for (const body of [null, 'x', 3, ['res_id']]) expect(messageOf(body)).toBe('Bad Request: select is not valid')
  })
})

describe('parseSearchRequest: the query it builds', () => {
  it('builds the query of a B8 client', () => {
    expect(
      parseSearchRequest({
        select: 'res_id',
        clause: "alt_identifier='MAARCH/2021D/12'",
        orderBy: ['res_id'],
        limit: 1,
        withFile: true,
      }),
    ).toEqual({
      columns: ['res_id'],
      clause: {
        kind: 'comparison',
        op: '=',
        left: { kind: 'column', name: 'alt_identifier' },
        right: { kind: 'string', value: 'MAARCH/2021D/12' },
      },
      orderBy: [{ expr: { kind: 'column', name: 'res_id' }, direction: 'asc', nulls: null }],
      limit: 1,
      offset: 0,
      withFile: true,
      sveStartDate: false,
      fulltextExcerpt: false,
    })
  })

  it('honours the limit as given, never lowers it, and keeps the offset', () => {
    expect(parseSearchRequest({ ...OK, limit: 5000, offset: 20 })).toMatchObject({ limit: 5000, offset: 20 })
    expect(parseSearchRequest({ ...OK, limit: 250_000 })).toMatchObject({ limit: 250_000 })
    expect(parseSearchRequest({ ...OK, limit: 1 })).toMatchObject({ limit: 1 })
  })

  it('reads no limit, 0 (as the reference does) and a limit beyond any table as every match', () => {
    expect(parseSearchRequest(OK)).toMatchObject({ limit: null })
    expect(parseSearchRequest({ ...OK, limit: 0 })).toMatchObject({ limit: null })
    expect(parseSearchRequest({ ...OK, limit: 1e300 })).toMatchObject({ limit: null })
  })

  it('refuses a limit over the operator ceiling with a message naming the setting, and accepts one at it', () => {
    const over = (() => {
      try {
        checkSearchLimit(parseSearchRequest({ ...OK, limit: 501 }), 500)
      } catch (error) {
        return error
      }
    })()
    expect(over).toMatchObject({ code: 'SEARCH_LIMIT_OVER_CEILING', kind: 'bad-request' })
    expect((over as Error).message).toBe(
      'Bad Request: limit is larger than 500, the most results a search may return on this server (setting MAILROOM_SEARCH_MAX_RESULTS)',
    )
    expect(() => checkSearchLimit(parseSearchRequest({ ...OK, limit: 500 }), 500)).not.toThrow()
    expect(() => checkSearchLimit(parseSearchRequest({ ...OK, limit: 10 ** 9 }), null)).not.toThrow()
    // Without limit the ceiling is checked against the matches, by the storage side.
    expect(() => checkSearchLimit(parseSearchRequest(OK), 500)).not.toThrow()
  })

  it('property: any positive safe integer limit comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (limit) => parseSearchRequest({ ...OK, limit }).limit === limit,
      ),
    )
  })
})

describe('parseSelect', () => {
  it('trims, lower-cases, deduplicates and keeps order', () => {
    expect(parseSelect(' Subject , res_id,SUBJECT, res_view_letterbox.status ').columns).toEqual([
      'subject',
      'res_id',
      'status',
    ])
  })

  it('expands * to every column in catalogue order', () => {
    expect(parseSelect('*').columns).toEqual([...VIEW_COLUMN_NAMES])
    expect(parseSelect('subject, *').columns[0]).toBe('subject')
    expect(parseSelect('subject, *').columns).toHaveLength(VIEW_COLUMN_NAMES.length)
  })

  it('drops sve_start_date, selecting res_id when nothing else is left', () => {
    expect(parseSelect('sve_start_date')).toEqual({ columns: ['res_id'], sveStartDate: true, fulltextExcerpt: false })
    expect(parseSelect('subject, sve_start_date, fulltext_excerpt')).toEqual({
      columns: ['subject'],
      sveStartDate: true,
      fulltextExcerpt: true,
    })
  })

  it('refuses anything but column names, naming the token', () => {
    const cases: [string, string][] = [
      ['res_id,', 'Bad Request: select is not valid: unexpected end of input at position 8'],
      ['res_id, , subject', 'Bad Request: select is not valid: unexpected token "," at position 9'],
      ['res_id as id', 'Bad Request: select is not valid: unexpected token "as" at position 8'],
      ['count(*)', 'Bad Request: select is not valid: unknown column "count" at position 1'],
      ['(select password from users)', 'Bad Request: select is not valid: unexpected token "(" at position 1'],
      ['select', 'Bad Request: select is not valid: sub-queries are not allowed: "select" at position 1'],
      [
        'res_id; drop table users',
        'Bad Request: select is not valid: statement separators are not allowed: ";" at position 7',
      ],
      ['users.password', 'Bad Request: select is not valid: unknown table "users" at position 1'],
      ['"res_id"', 'Bad Request: select is not valid: quoted identifiers are not allowed: "\\"" at position 1'],
    ]
    for (const [select, message] of cases) expect(messageOf({ select, clause: '1=1' })).toBe(message)
  })

  it('throws nothing but a DomainError for any select, orderBy or body', () => {
    fc.assert(
      fc.property(fc.string(), fc.array(fc.string(), { maxLength: 3 }), fc.anything(), (select, orderBy, limit) => {
        for (const body of [
          { select, clause: '1=1' },
          { ...OK, orderBy },
          { ...OK, limit },
          { ...OK, offset: limit, withFile: limit },
        ]) {
          try {
            parseSearchRequest(body)
          } catch (error) {
            if (!isDomainError(error)) throw error
            expect(error.kind).toBe('bad-request')
          }
        }
      }),
      { numRuns: 300, seed: 31 },
    )
  })
})
