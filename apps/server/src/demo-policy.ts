import { isIP } from 'node:net'

/** True for an address only this machine can reach: 127.0.0.0/8, ::1 (also IPv4-mapped) and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare
  if (isIP(v4) === 4) return v4.startsWith('127.')
  return isIP(bare) === 6 && /^(0{0,4}:){2,7}0{0,3}1$|^::1$/.test(bare)
}

/** Whether `serve` loads the demo dataset, and what it must warn about at this start. */
export interface DemoDecision {
  readonly load: boolean
  readonly warning?: string
}

/**
 * The demo users' passwords are published: they are loaded by default only on a loopback address and an
 * empty embedded database. On any other address only an explicit MAILROOM_DEMO=1 loads them, and every
 * start says so, loudly, for as long as the setting stays.
 */
export function demoDecision(input: { demo: boolean | undefined; host: string; empty: boolean }): DemoDecision {
  const loopback = isLoopbackHost(input.host)
  if (input.demo === true) {
    return loopback
      ? { load: true }
      : {
          load: true,
          warning: `MAILROOM_DEMO=1 on ${input.host}: the demo users and their published passwords are reachable from other machines`,
        }
  }
  if (input.demo === false || !input.empty) return { load: false }
  if (loopback) return { load: true }
  return {
    load: false,
    warning: `demo dataset not loaded: ${input.host} is not a loopback address (set MAILROOM_DEMO=1 to load it anyway)`,
  }
}
