import type { Context, Next } from 'koa'
import { withDeadline } from './deadline.js'

/**
 * Answers 503 when a request takes longer than `ms`, so a stuck dependency never hangs a client.
 * The work itself is not cancelled (Node cannot); its late result is dropped.
 */
export function requestTimeout(ms: number) {
  return async (_ctx: Context, next: Next) => {
    await withDeadline(next(), ms, 'REQUEST_TIMEOUT')
  }
}
