import type { ComponentChildren } from 'preact'
import type { Loaded } from '../capture/use-loaded.js'
import { Alert } from './alert.js'
import { useConsole } from './context.js'

/** A list read from the server: the server's refusal, "Loading…", the empty text, or the items drawn. */
export function LoadedList<T>(props: {
  readonly loaded: Loaded<readonly T[]>
  readonly empty: string
  readonly children: (items: readonly T[]) => ComponentChildren
}) {
  const { t } = useConsole()
  const { value, error } = props.loaded
  if (error !== null) return <Alert kind="error" text={error} />
  if (value === null) return <p>{t('loading')}</p>
  if (value.length === 0) return <p>{props.empty}</p>
  return <>{props.children(value)}</>
}
