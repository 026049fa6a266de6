import { type ErrorCode, fail } from '@mailroom/core'

/**
 * Races `work` against a deadline: past `ms`, rejects with the catalogue error `code` (the work itself
 * goes on; Node cannot cancel it, and its late result or failure is dropped).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, code: ErrorCode): Promise<T> {
  work.catch(() => {})
  let timer: NodeJS.Timeout | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      try {
        fail(code)
      } catch (error) {
        reject(error)
      }
    }, ms)
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
  }
}
