import type Router from '@koa/router'
import { chainVerificationBody, type MailroomServices } from '@mailroom/core'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/**
 * `GET /rest/digitalSafe/{owner}/verification`, a Mailroom extension: whether the safe's hash chain verifies.
 * Under /rest (HTTP Basic or bearer token, `{"errors": …}` bodies) so that a page on any origin can ask,
 * where the journal read needs its SERVICE-AUTH cookie; who may ask is who may read that safe's journal.
 */
export function registerChainVerificationRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.get('/rest/digitalSafe/:owner/verification', async (ctx) => {
    ctx.body = chainVerificationBody(
      await services.journal.verifyChain(actorOf(ctx), ctx.params.owner ?? '', ctx.query),
    )
  })
}
