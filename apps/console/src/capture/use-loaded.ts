import type { MailroomClient } from '@mailroom/sdk'
import { useEffect, useState } from 'preact/hooks'
import { useConsole } from '../ui/context.js'
import { errorText } from '../ui/error-text.js'

/** What a read gave: nothing yet, its value, or the server's message. */
export interface Loaded<T> {
  readonly value: T | null
  readonly error: string | null
}

/**
 * Reads once per session (and again when `key` changes): `value` while it answers, `error` with the
 * server's message when it refuses (the page then falls back to what worked before the list existed).
 */
export function useLoaded<T>(read: (client: MailroomClient) => Promise<T>, key: unknown = null): Loaded<T> {
  const { keeper, t } = useConsole()
  const [state, setState] = useState<Loaded<T>>({ value: null, error: null })
  // `read` is a new closure each render: `key` says when to read again.
  useEffect(() => {
    let current = true
    setState({ value: null, error: null })
    keeper
      .call(read)
      .then((value) => current && setState({ value, error: null }))
      .catch((caught: unknown) => current && setState({ value: null, error: errorText(caught, t) }))
    return () => {
      current = false
    }
  }, [keeper, t, key])
  return state
}
