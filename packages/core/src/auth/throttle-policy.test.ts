import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ThrottleCounter } from './ports.js'
import { DEFAULT_THROTTLE_POLICY, judgeAttempt, progressiveDelayMs, throttleSubjects } from './throttle-policy.js'

const NOW = new Date('2026-11-25T12:00:00Z')
const subjects = throttleSubjects('Ddur', '10.0.0.1')
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000)
const counter = (failures: number, secondsAgo = 0, lockedUntil: Date | null = null): ThrottleCounter => ({
  failures,
  updatedAt: ago(secondsAgo),
  lockedUntil,
})
const judge = (entries: [string, ThrottleCounter][], policy = DEFAULT_THROTTLE_POLICY) =>
  judgeAttempt(new Map(entries), subjects, NOW, policy)

describe('throttle policy', () => {
  it('names its counters by login (any case) and address', () => {
    expect(subjects).toEqual({
      pair: 'pair:10.0.0.1 ddur',
      address: 'address:10.0.0.1',
      login: 'login:ddur',
      lock: 'lock:ddur',
      known: 'known:10.0.0.1 ddur',
    })
  })

  it('refuses a login to the address that guessed it, until its window ends', () => {
    expect(judge([[subjects.pair, counter(4, 10)]]).refusal).toBeNull()
    expect(judge([[subjects.pair, counter(5, 10)]]).refusal).toEqual({
      code: 'ADDRESS_THROTTLED',
      reason: 'too many failures for this login from this address',
      retryAfterSeconds: 290,
    })
    // Even from an address the login is known at.
    expect(
      judge([
        [subjects.pair, counter(5, 10)],
        [subjects.known, counter(0, 60)],
      ]).refusal?.code,
    ).toBe('ADDRESS_THROTTLED')
    expect(judge([[subjects.pair, counter(5, 300)]]).refusal).toBeNull()
  })

  it('refuses an address over its limit only for logins not known there', () => {
    const busy: [string, ThrottleCounter] = [subjects.address, counter(30, 100)]
    expect(judge([busy]).refusal).toEqual({
      code: 'ADDRESS_THROTTLED',
      reason: 'too many failures from this address',
      retryAfterSeconds: 200,
    })
    expect(judge([busy, [subjects.known, counter(0, 86_400)]])).toEqual({ refusal: null, known: true, delayMs: 0 })
    // A success older than the known-address time no longer counts.
    expect(judge([busy, [subjects.known, counter(0, 31 * 86_400)]]).refusal?.code).toBe('ADDRESS_THROTTLED')
  })

  it('only slows a login guessed from many addresses, and not at the addresses it is known at', () => {
    expect(judge([[subjects.login, counter(9)]]).delayMs).toBe(0)
    expect(judge([[subjects.login, counter(10)]]).delayMs).toBe(250)
    expect(judge([[subjects.login, counter(12)]]).delayMs).toBe(1000)
    expect(judge([[subjects.login, counter(1000)]])).toEqual({ refusal: null, known: false, delayMs: 10_000 })
    expect(
      judge([
        [subjects.login, counter(1000)],
        [subjects.known, counter(0)],
      ]).delayMs,
    ).toBe(0)
  })

  it('keeps the delay growing and bounded, never a refusal', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), (a, b) => {
        const [low, high] = a <= b ? [a, b] : [b, a]
        expect(progressiveDelayMs(low, DEFAULT_THROTTLE_POLICY)).toBeLessThanOrEqual(
          progressiveDelayMs(high, DEFAULT_THROTTLE_POLICY),
        )
        expect(progressiveDelayMs(high, DEFAULT_THROTTLE_POLICY)).toBeLessThanOrEqual(
          DEFAULT_THROTTLE_POLICY.maxDelayMs,
        )
        expect(judge([[subjects.login, counter(high)]]).refusal).toBeNull()
      }),
    )
  })

  it('applies the account lock only when it is turned on, whatever the address', () => {
    const locked: [string, ThrottleCounter] = [subjects.lock, counter(0, 0, new Date(NOW.getTime() + 60_000))]
    expect(judge([locked]).refusal).toBeNull()
    const on = { ...DEFAULT_THROTTLE_POLICY, lockAttempts: 3 }
    expect(judge([locked, [subjects.known, counter(0)]], on).refusal).toEqual({
      code: 'ACCOUNT_LOCKED',
      reason: 'account locked',
      retryAfterSeconds: 60,
    })
    expect(judge([[subjects.lock, counter(0, 0, ago(1))]], on).refusal).toBeNull()
  })
})
