import type { IncomingMessage } from 'node:http'
import parseForwarded from 'forwarded-parse'
import type { Context, Next } from 'koa'
import proxyAddr from 'proxy-addr'

/**
 * The proxies in front of the server whose forwarded addresses are believed: a hop count (`1`: the peer
 * of the socket, whatever its address), or their addresses and networks (`10.0.0.0/8`, `::1`, and
 * proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). 0 or an empty list: none.
 */
export type TrustedProxies = number | readonly string[]

/** The header trusted proxies append the client address to; only that one is read, so a client cannot pass an address in the other. */
export type ProxyHeader = 'x-forwarded-for' | 'forwarded'

type TrustCheck = (address: string, hop: number) => boolean

/**
 * The trust check of proxy-addr for a setting; throws a TypeError naming a malformed address or network
 * (the server calls it at start-up to refuse such a setting).
 */
export function trustedProxyCheck(trust: TrustedProxies): TrustCheck {
  if (typeof trust === 'number') {
    if (!Number.isInteger(trust) || trust < 0) throw new TypeError(`a hop count is a whole number, got ${trust}`)
    return (_address, hop) => hop < trust
  }
  if (trust.length === 0) return () => false
  return proxyAddr.compile([...trust])
}

/**
 * The client address of a request: walking from the socket's peer towards the left of the forwarded
 * addresses, the first one that is not a trusted proxy. Entries left of it are the client's own writing
 * and change nothing; with no trusted proxy the header is never read.
 */
export function clientAddressOf(req: IncomingMessage, trusted: TrustCheck, header: ProxyHeader): string {
  if (header === 'x-forwarded-for') return proxyAddr(req, trusted)
  const forwarded = req.headers.forwarded
  const list = forwardedFor(Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
  // proxy-addr walks X-Forwarded-For: the same walk over Forwarded's for= addresses.
  const view = { socket: req.socket, connection: req.socket, headers: { 'x-forwarded-for': list.join(', ') } }
  return proxyAddr(view as unknown as IncomingMessage, trusted)
}

/**
 * The `for=` addresses of a Forwarded header (RFC 7239), left to right, without port or IPv6 brackets. Each
 * element is parsed alone, so a malformed element written by the client on the left cannot hide the
 * well-formed ones its proxies appended on the right; a malformed or obfuscated one is kept as written
 * (never a trusted proxy, so it stops the walk there).
 */
export function forwardedFor(header: string): string[] {
  const addresses: string[] = []
  for (const element of header.split(',')) {
    const text = element.trim()
    if (text === '') continue
    let value: string | undefined
    try {
      value = parseForwarded(text)[0]?.for
    } catch {
      value = text
    }
    if (value === undefined) continue
    addresses.push(withoutPort(value))
  }
  return addresses
}

function withoutPort(node: string): string {
  const bracketed = /^\[([^\]]*)\](?::\d+)?$/.exec(node)
  if (bracketed) return bracketed[1]!
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(node)
  return v4 ? v4[1]! : node
}

/**
 * Sets `ctx.ip` once per request to the client address (see {@link clientAddressOf}), so the log line, the
 * authentication throttle and every route read the same value. Without trusted proxies it is the socket's
 * peer and no forwarding header is read.
 */
export function clientAddress(trust: TrustedProxies = 0, header: ProxyHeader = 'x-forwarded-for') {
  const trusted = trustedProxyCheck(trust)
  return async (ctx: Context, next: Next) => {
    ctx.request.ip = clientAddressOf(ctx.req, trusted, header)
    await next()
  }
}
