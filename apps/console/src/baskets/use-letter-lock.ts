import type { BasketAddress } from '@mailroom/sdk'
import { useEffect, useState } from 'preact/hooks'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'

/** 20.10's client renews its lock every 50 seconds: the server's lock lasts a minute. */
export const LOCK_RENEWAL_MS = 50_000

/** Who holds an open letter: being asked, the reader, or colleagues (their names). */
export type LetterHold =
  | { readonly kind: 'checking' }
  | { readonly kind: 'mine' }
  | { readonly kind: 'theirs'; readonly lockers: readonly string[] }
  | { readonly kind: 'failed'; readonly error: string }

/**
 * Holds a letter while its page is open, as 20.10's client does: asks who holds it (PUT …/locked); when nobody
 * else does, locks it (PUT …/lock) and renews the lock every 50 s; on leaving, unlocks it (PUT …/unlock).
 * A letter a colleague holds is left alone: the page reads it, and offers no action.
 */
export function useLetterLock(basket: BasketAddress, resId: number): LetterHold {
  const { keeper, t } = useConsole()
  const [hold, setHold] = useState<LetterHold>({ kind: 'checking' })
  useEffect(() => {
    let current = true
    let held = false
    let renewal: ReturnType<typeof setInterval> | undefined
    const body = { resources: [resId] }
    void (async () => {
      try {
        const locked = await keeper.call((client) => client.lockedLetters(basket, body))
        if (!current) return
        if (locked.countLockedResources > 0) {
          setHold({ kind: 'theirs', lockers: locked.lockers })
          return
        }
        await keeper.call((client) => client.lockLetters(basket, body))
        held = true
        if (!current) {
          void keeper.call((client) => client.unlockLetters(basket, body)).catch(() => {})
          return
        }
        setHold({ kind: 'mine' })
        renewal = setInterval(() => {
          void keeper.call((client) => client.lockLetters(basket, body)).catch(() => {})
        }, LOCK_RENEWAL_MS)
      } catch (caught) {
        if (current) setHold({ kind: 'failed', error: errorText(caught, t) })
      }
    })()
    return () => {
      current = false
      if (renewal !== undefined) clearInterval(renewal)
      // The lock would lapse within a minute anyway; unlocking frees the letter for colleagues at once.
      if (held) void keeper.call((client) => client.unlockLetters(basket, body)).catch(() => {})
    }
  }, [keeper, t, basket.userId, basket.groupId, basket.basketId, resId])
  return hold
}
