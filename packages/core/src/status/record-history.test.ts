import { describe, expect, it } from 'vitest'
import { isDomainError } from '../errors/domain-error.js'
import { parseResIdParam, recordHistoryResponseSchema } from './record-history.js'

describe('parseResIdParam', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['007', 7],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('reads %j', (text, n) => {
    expect(parseResIdParam(text)).toBe(n)
  })

  it.each(['0', '-1', 'abc', '1.5', '', ' 1', '1e3', '9007199254740993', undefined])('refuses %j', (text) => {
    try {
      parseResIdParam(text)
      expect.unreachable()
    } catch (error) {
      expect(isDomainError(error)).toBe(true)
      expect((error as Error).message).toBe('Parameter resId must be greater than 0')
    }
  })
})

describe('recordHistoryResponseSchema', () => {
  it('accepts the body the history read produces and refuses other shapes', () => {
    const entry = {
      id: 7,
      eventDate: '2026-01-02T10:00:00.000Z',
      eventType: 'UP',
      eventId: 'resup',
      userId: 3,
      login: 'bbain',
      info: 'status update',
      module: 'resource',
    }
    expect(
      recordHistoryResponseSchema.safeParse({
        history: [entry, { ...entry, eventId: null, userId: null, login: null, info: null }],
      }).success,
    ).toBe(true)
    expect(recordHistoryResponseSchema.safeParse({ history: [{ ...entry, eventDate: '02/01/2026' }] }).success).toBe(
      false,
    )
    expect(recordHistoryResponseSchema.safeParse({ history: [{ ...entry, id: '7' }] }).success).toBe(false)
  })
})
