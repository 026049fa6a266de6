import type { Actor } from '@mailroom/core'
import type { Logger } from 'pino'
import type { ErrorBodyRenderer } from './middleware/error-handler.js'

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
}
