import type Router from '@koa/router'
import type { MailroomServices } from '@mailroom/core'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/** POST /rest/resources: both create forms; 200 `{"resId": <int>}` exactly (real clients insist on 200). */
export function registerRecordsRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.post('/rest/resources', async (ctx) => {
    const { resId } = await services.records.create(actorOf(ctx), ctx.state.body)
    ctx.status = 200
    ctx.body = { resId }
  })
}
