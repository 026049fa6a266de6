import { BlockList, isIP } from 'node:net'
import { ConfigError } from '../config-error.js'
import { type Env, setting } from '../settings/read-setting.js'
import { SETTING_DECLARATIONS } from '../settings/server-settings.js'

/** Where and to whom GET /metrics is served (MAILROOM_METRICS, _PORT, _HOST, _ALLOW). */
export interface MetricsConfig {
  readonly enabled: boolean
  /** A port of its own; null: the server's port. */
  readonly port: number | null
  /** Listen address of that port; null: the server's HOST. */
  readonly host: string | null
  /** Networks (CIDR) whose connections may read the metrics. */
  readonly allow: readonly string[]
}

/** Loopback and the private ranges: a scraper on the intranet reads the metrics, the internet does not. */
export const DEFAULT_METRICS_ALLOW: readonly string[] = networks(SETTING_DECLARATIONS.MAILROOM_METRICS_ALLOW.default)

function networks(list: string): string[] {
  return list
    .split(',')
    .map((cidr) => cidr.trim())
    .filter((cidr) => cidr !== '')
}

/** Reads the metrics settings; a malformed one stops the start with a message naming it. */
export function loadMetricsConfig(env: Env): MetricsConfig {
  const enabled = setting(env, 'MAILROOM_METRICS')
  const port = setting(env, 'MAILROOM_METRICS_PORT') ?? null
  const allow = networks(setting(env, 'MAILROOM_METRICS_ALLOW'))
  addressFilter(allow) // refuses a malformed network now rather than at the first scrape
  return { enabled, port, host: setting(env, 'MAILROOM_METRICS_HOST') ?? null, allow }
}

/**
 * Whether an address lies in one of the networks (`10.0.0.0/8`, `::1/128`; a bare address is a /32 or
 * /128). IPv4 clients of a dual-stack socket arrive as `::ffff:a.b.c.d` and are checked as IPv4.
 */
export function addressFilter(cidrs: readonly string[]): (address: string) => boolean {
  const allowed = new BlockList()
  for (const cidr of cidrs) {
    const [network = '', bits, extra] = cidr.split('/')
    const family = isIP(network)
    const prefix = bits === undefined ? (family === 6 ? 128 : 32) : Number(bits)
    const max = family === 6 ? 128 : 32
    if (family === 0 || extra !== undefined || !/^\d{1,3}$/.test(bits ?? '0') || prefix > max) {
      throw new ConfigError(`MAILROOM_METRICS_ALLOW must list networks such as 10.0.0.0/8 or ::1/128, got "${cidr}"`)
    }
    allowed.addSubnet(network, prefix, family === 6 ? 'ipv6' : 'ipv4')
  }
  return (address) => {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1]
    const plain = mapped ?? address
    const family = isIP(plain)
    if (family === 0) return false
    return allowed.check(plain, family === 6 ? 'ipv6' : 'ipv4')
  }
}
