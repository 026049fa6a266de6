import { createContext } from 'preact'
import { useContext } from 'preact/hooks'
import type { Abilities } from '../capture/reference-options.js'
import type { Language, Translate } from '../i18n/i18n.js'
import type { Session, SessionKeeper } from '../session/session.js'

/** What every page needs: texts, the session, the keeper that renews it, and what the person may do. */
export interface ConsoleContext {
  readonly t: Translate
  readonly language: Language
  readonly session: Session
  readonly keeper: SessionKeeper
  /** From GET /rest/currentUser/profile; everything until it is read (the server still refuses). */
  readonly abilities: Abilities
}

export const Console = createContext<ConsoleContext | null>(null)

export function useConsole(): ConsoleContext {
  const value = useContext(Console)
  if (!value) throw new Error('useConsole outside the console')
  return value
}
