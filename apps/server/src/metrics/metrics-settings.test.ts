import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../config-error.js'
import { addressFilter, DEFAULT_METRICS_ALLOW, loadMetricsConfig } from './metrics-settings.js'

describe('metrics settings', () => {
  it('serves on the server port to loopback and private networks by default', () => {
    expect(loadMetricsConfig({})).toEqual({ enabled: true, port: null, host: null, allow: [...DEFAULT_METRICS_ALLOW] })
    expect(
      loadMetricsConfig({
        MAILROOM_METRICS: '0',
        MAILROOM_METRICS_PORT: '9464',
        MAILROOM_METRICS_HOST: '10.1.2.3',
        MAILROOM_METRICS_ALLOW: '10.0.0.0/8, 192.0.2.7',
      }),
    ).toEqual({
      enabled: false,
      port: 9464,
      host: '10.1.2.3',
      allow: ['10.0.0.0/8', '192.0.2.7'],
    })
  })

  it.each([
    [{ MAILROOM_METRICS: 'maybe' }, 'MAILROOM_METRICS must be 1 or 0, got "maybe"'],
    [{ MAILROOM_METRICS_PORT: '70000' }, 'MAILROOM_METRICS_PORT must be an integer from 0 to 65535, got "70000"'],
    [
      { MAILROOM_METRICS_ALLOW: '10.0.0.0/33' },
      'MAILROOM_METRICS_ALLOW must list networks such as 10.0.0.0/8 or ::1/128, got "10.0.0.0/33"',
    ],
    [
      { MAILROOM_METRICS_ALLOW: 'intranet' },
      'MAILROOM_METRICS_ALLOW must list networks such as 10.0.0.0/8 or ::1/128, got "intranet"',
    ],
  ])('refuses %j with a message naming the setting', (env, message) => {
    expect(() => loadMetricsConfig(env)).toThrow(new ConfigError(message))
  })

  it('matches addresses against the networks, IPv4-mapped IPv6 as IPv4', () => {
    const allows = addressFilter(DEFAULT_METRICS_ALLOW)
    for (const address of [
      '127.0.0.1',
      '::1',
      '10.20.30.40',
      '172.31.255.255',
      '192.168.1.1',
      '::ffff:192.168.1.1',
      'fd00::5',
    ])
      expect(allows(address), address).toBe(true)
    for (const address of ['8.8.8.8', '172.32.0.1', '::ffff:8.8.8.8', '2001:db8::1', '', 'not-an-address'])
      expect(allows(address), address).toBe(false)
    expect(addressFilter(['192.0.2.7'])('192.0.2.7')).toBe(true)
    expect(addressFilter(['192.0.2.7'])('192.0.2.8')).toBe(false)
  })

  it('allows exactly the addresses of an IPv4 network, for any prefix', () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.integer({ min: 0, max: 32 }), fc.ipV4(), (network, prefix, candidate) => {
        const toInt = (ip: string) => ip.split('.').reduce((n, part) => n * 256 + Number(part), 0)
        const mask = prefix === 0 ? 0 : 2 ** 32 - 2 ** (32 - prefix)
        const inside = (toInt(network) & mask) >>> 0 === (toInt(candidate) & mask) >>> 0
        expect(addressFilter([`${network}/${prefix}`])(candidate)).toBe(inside)
      }),
    )
  })
})
