import { fail } from '@mailroom/core'
import type { Context, Next } from 'koa'

/**
 * Answers 503 when a request takes longer than `ms`, so a stuck dependency never hangs a client.
 * The work itself is not cancelled (Node cannot); its late result is dropped.
 */
export function requestTimeout(ms: number) {
  return async (ctx: Context, next: Next) => {
    let timer: NodeJS.Timeout | undefined
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        try {
          fail('REQUEST_TIMEOUT')
        } catch (error) {
          reject(error)
        }
      }, ms)
    })
    try {
      await Promise.race([next(), expired])
    } finally {
      clearTimeout(timer)
    }
  }
}
