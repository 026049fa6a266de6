import type { Actor, DomainError, ErrorCode } from '@mailroom/core'
import type { Context } from 'koa'
import type { Logger } from 'pino'

/** Shapes the body of an error; /digitalSafe uses its own envelope. */
export type ErrorBodyRenderer = (ctx: Context, error: DomainError, status: number) => unknown

/** What middlewares put on ctx.state. */
export interface AppState {
  requestId?: string
  log?: Logger
  actor?: Actor
  /**
   * The scheme of the request's Authorization header, so a 401 challenges with the same scheme; `token` for
   * the token routes, whose credentials travel in the body or the query (never a browser login box).
   */
  authScheme?: 'basic' | 'bearer' | 'token'
  /** Parsed JSON body (undefined when the request had none). */
  body?: unknown
  renderError?: ErrorBodyRenderer
  /**
   * The catalogue code the request was answered with, set by the error handler: what observes answers by code
   * reads it here (the tests check every code answered against the route's declared errors).
   */
  errorCode?: ErrorCode
}
