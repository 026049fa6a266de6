import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { demoDecision, isLoopbackHost } from './demo-policy.js'

describe('isLoopbackHost', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    'localhost',
    'LOCALHOST',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    'api.localhost',
  ])('%s is loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true)
  })

  it.each([
    '0.0.0.0',
    '::',
    '192.168.1.10',
    '10.0.0.1',
    'mailroom.example.org',
    '::2',
    '128.0.0.1',
    '::ffff:10.0.0.1',
    '',
  ])('%s is not loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(false)
  })

  it('calls no IPv4 address outside 127.0.0.0/8 loopback', () => {
    fc.assert(
      fc.property(fc.ipV4(), (ip) => {
        expect(isLoopbackHost(ip)).toBe(ip.startsWith('127.'))
      }),
    )
  })
})

describe('demoDecision (the demo users have published passwords)', () => {
  it('loads the demo into an empty database on a loopback address, silently', () => {
    expect(demoDecision({ demo: undefined, host: '127.0.0.1', empty: true })).toEqual({ load: true })
  })

  it('does not load it by default on a public address, and says why', () => {
    const decision = demoDecision({ demo: undefined, host: '0.0.0.0', empty: true })
    expect(decision.load).toBe(false)
    expect(decision.warning).toMatch(/not loaded: 0\.0\.0\.0 is not a loopback address \(set MAILROOM_DEMO=1/)
  })

  it('loads it on a public address only with MAILROOM_DEMO=1, with a warning at every start (data loaded or not)', () => {
    for (const empty of [true, false]) {
      const decision = demoDecision({ demo: true, host: '192.168.1.10', empty })
      expect(decision.load).toBe(true)
      expect(decision.warning).toMatch(/MAILROOM_DEMO=1 on 192\.168\.1\.10: .*published passwords/)
    }
  })

  it('never loads it with MAILROOM_DEMO=0 or into a database that has users', () => {
    expect(demoDecision({ demo: false, host: '127.0.0.1', empty: true })).toEqual({ load: false })
    expect(demoDecision({ demo: undefined, host: '127.0.0.1', empty: false })).toEqual({ load: false })
    expect(demoDecision({ demo: undefined, host: '0.0.0.0', empty: false })).toEqual({ load: false })
  })
})
