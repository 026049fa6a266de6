import type Router from '@koa/router'
import type { MailroomServices } from '@mailroom/core'
import type { AppState } from '../app-state.js'

/** Routes of the status capability. */
export function registerStatusRoutes(_router: Router<AppState>, _services: MailroomServices): void {}
