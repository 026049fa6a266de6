import { describe, expect, it } from 'vitest'
import { parseHistoryQuery } from './history-query.js'

describe('parseHistoryQuery', () => {
  it("reads 20.10's defaults: newest first, 25 lines, no filter", () => {
    expect(parseHistoryQuery({}, null)).toEqual({
      resId: null,
      onlyActions: false,
      users: null,
      after: null,
      before: null,
      eventTypes: null,
      searchPatterns: [],
      order: { column: 'event_date', direction: 'desc' },
      limit: 25,
      offset: 0,
    })
  })

  it('reads onlyActions as PHP’s empty() does: "false" asks for actions, "0" does not', () => {
    expect(parseHistoryQuery({ onlyActions: 'false' }, 1).onlyActions).toBe(true)
    expect(parseHistoryQuery({ onlyActions: '0' }, 1).onlyActions).toBe(false)
  })

  it('orders by a known column (userLabel by user id), ascending unless desc is asked', () => {
    expect(parseHistoryQuery({ orderBy: 'userLabel' }, 1).order).toEqual({ column: 'user_id', direction: 'asc' })
    expect(parseHistoryQuery({ orderBy: 'info', order: 'desc' }, 1).order).toEqual({
      column: 'info',
      direction: 'desc',
    })
    expect(parseHistoryQuery({ orderBy: 'password', order: 'asc' }, 1).order).toEqual({
      column: 'event_date',
      direction: 'desc',
    })
  })

  it('splits users into ids and logins; actions become ACTION# event types beside the system ones', () => {
    const query = parseHistoryQuery(
      { 'users[]': ['19', 'bbain', '99999999999'], 'actions[]': '20', 'systemActions[]': 'ADD' },
      1,
    )
    expect(query.users).toEqual({ ids: [19], logins: ['bbain'] })
    expect(query.eventTypes).toEqual(['ACTION#20', 'ADD'])
  })

  it('searches words of 2 bytes or more, literally, one that starts another followed by a space', () => {
    expect(parseHistoryQuery({ search: 'a Clo Cloturer 5%_' }, 1).searchPatterns).toEqual([
      '%Clo %',
      '%Cloturer%',
      '%5\\%\\_%',
    ])
  })

  it('ignores what 20.10 ignores and refuses what would fail its SQL', () => {
    expect(parseHistoryQuery({ limit: 'abc', offset: '' }, 1)).toMatchObject({ limit: 25, offset: 0 })
    expect(parseHistoryQuery({ limit: '0' }, 1).limit).toBe(25)
    expect(() => parseHistoryQuery({ limit: '-3' }, 1)).toThrow('Query limit is not valid')
    expect(() => parseHistoryQuery({ limit: '501' }, 1)).toThrow('Query limit is not valid')
    expect(() => parseHistoryQuery({ startDate: 'hier' }, 1)).toThrow('Query startDate is not valid')
    expect(() => parseHistoryQuery({ 'users[]': ['x\u0000'] }, 1)).toThrow('Query users is not valid')
    expect(() => parseHistoryQuery({ 'users[]': Array.from({ length: 101 }, (_, i) => String(i)) }, 1)).toThrow(
      'Query users is not valid',
    )
  })
})
