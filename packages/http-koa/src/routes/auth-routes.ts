import type Router from '@koa/router'
import { fail, type MailroomServices } from '@mailroom/core'
import type { AppState } from '../app-state.js'

/** POST /rest/authenticate and GET /rest/authenticate/token (runtime-contract.md "Authentication"). */
export function registerAuthRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.post('/rest/authenticate', async (ctx) => {
    ctx.state.authScheme = 'token'
    const body = ctx.state.body as { login?: unknown; password?: unknown } | undefined
    const login = body?.login
    const password = body?.password
    if (typeof login !== 'string' || typeof password !== 'string' || !login || !password)
      fail('AUTHENTICATE_BAD_REQUEST')
    const tokens = await services.auth.login(login, password, ctx.ip)
    ctx.set('Token', tokens.token)
    ctx.set('Refresh-Token', tokens.refreshToken)
    ctx.status = 204
  })

  router.get('/rest/authenticate/token', async (ctx) => {
    ctx.state.authScheme = 'token'
    const refreshToken = ctx.query.refreshToken
    const token = await services.auth.refresh(typeof refreshToken === 'string' ? refreshToken : undefined)
    ctx.body = { token }
  })
}
