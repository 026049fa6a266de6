import type Router from '@koa/router'
import type { MailroomServices } from '@mailroom/core'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/** PUT /rest/res/resource/status (both variants) and GET /rest/resources/{resId}/history. */
export function registerStatusRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.put('/rest/res/resource/status', async (ctx) => {
    ctx.body = await services.status.update(actorOf(ctx), ctx.state.body, { remoteIp: ctx.ip })
  })
  router.get('/rest/resources/:resId/history', async (ctx) => {
    ctx.body = await services.status.history(actorOf(ctx), ctx.params.resId ?? '')
  })
}
