import type Router from '@koa/router'
import type { MailroomServices } from '@mailroom/core'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/** GET /rest/entities/{id}. */
export function registerEntityRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.get('/rest/entities/:id', async (ctx) => {
    ctx.body = { entity: await services.entities.read(actorOf(ctx), ctx.params.id ?? '') }
  })
}
