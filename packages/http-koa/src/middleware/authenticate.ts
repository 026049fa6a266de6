import { type AuthService, fail } from '@mailroom/core'
import type { Context, Next } from 'koa'
import type { AppState } from '../app-state.js'

/** Reads HTTP Basic credentials; null when the header is absent or not Basic. */
export function basicCredentials(header: string | undefined): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header ?? '')
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) }
}

/** Authenticates /rest calls with HTTP Basic or a Bearer token; sets ctx.state.actor. */
export function authenticateRest(auth: AuthService) {
  return async (ctx: Context & { state: AppState }, next: Next) => {
    const header = ctx.get('authorization')
    const basic = basicCredentials(header)
    if (basic) {
      ctx.state.authScheme = 'basic'
      ctx.state.actor = await auth.authenticatePassword(basic.login, basic.password, ctx.ip)
    } else {
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)
      if (!bearer) fail('AUTHENTICATION_FAILED')
      ctx.state.authScheme = 'bearer'
      ctx.state.actor = await auth.authenticateToken(bearer[1]!)
    }
    return next()
  }
}

/** The authenticated actor of a request that went through authenticateRest. */
export function actorOf(ctx: { state: AppState }) {
  const actor = ctx.state.actor
  if (!actor) fail('AUTHENTICATION_FAILED')
  return actor
}
