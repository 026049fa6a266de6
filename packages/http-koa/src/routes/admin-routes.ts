import type Router from '@koa/router'
import {
  type MailroomServices,
  NewUserBodySchema,
  type OrganisationApplyResult,
  type OrganisationServices,
  parseAdminBody,
  UserPasswordBodySchema,
  UserStatusBodySchema,
} from '@mailroom/core'
import { administratorOf } from '@mailroom/core/internal'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/** The plan as the wire shows it: what changes, not every definition it carries. */
function planBody(result: OrganisationApplyResult) {
  return { applied: result.applied, lines: result.lines, summary: result.summary }
}

const flagOf = (value: unknown) => value === 'true' || value === '1'

/**
 * Administration for frontends, outside the Maarch routes: `/admin/organisation` (export, plan, apply,
 * history) and `/admin/users` (list, add, password, status). Root users only; every change is recorded with
 * the user who made it.
 */
export function registerAdminRoutes(router: Router<AppState>, services: MailroomServices): void {
  const organisation: OrganisationServices | undefined = services.organisation
  if (organisation === undefined) return
  const admin = (ctx: { state: AppState }) => administratorOf(actorOf(ctx))

  router.get('/admin/organisation', async (ctx) => {
    admin(ctx)
    ctx.body = await organisation.export()
  })
  router.post('/admin/organisation/plan', async (ctx) => {
    admin(ctx)
    ctx.body = planBody(await organisation.plan(ctx.state.body, { prune: flagOf(ctx.query.prune) }))
  })
  router.put('/admin/organisation', async (ctx) => {
    const author = admin(ctx)
    ctx.body = planBody(await organisation.apply(ctx.state.body, { prune: flagOf(ctx.query.prune), author }))
  })
  router.get('/admin/organisation/history', async (ctx) => {
    admin(ctx)
    const limit = Number(ctx.query.limit ?? 50)
    ctx.body = await organisation.history({ limit: Number.isInteger(limit) ? limit : 50 })
  })
  router.get('/admin/users', async (ctx) => {
    admin(ctx)
    ctx.body = await organisation.listUsers()
  })
  router.post('/admin/users', async (ctx) => {
    const author = admin(ctx)
    ctx.body = await organisation.addUser(parseAdminBody(NewUserBodySchema, ctx.state.body), author)
    ctx.status = 201
  })
  router.put('/admin/users/:login/password', async (ctx) => {
    const author = admin(ctx)
    const { password } = parseAdminBody(UserPasswordBodySchema, ctx.state.body)
    await organisation.setPassword(ctx.params.login ?? '', password, author)
    ctx.status = 204
  })
  router.put('/admin/users/:login/status', async (ctx) => {
    const author = admin(ctx)
    const { enabled } = parseAdminBody(UserStatusBodySchema, ctx.state.body)
    ctx.body = await organisation.setEnabled(ctx.params.login ?? '', enabled, author)
  })
}
