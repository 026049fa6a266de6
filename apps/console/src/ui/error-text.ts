import { MailroomApiError, MailroomNetworkError } from '@mailroom/sdk'
import type { Translate } from '../i18n/i18n.js'

/** What to show for a failed call: the server's own message (errors or message), never a stack. */
export function errorText(error: unknown, t: Translate): string {
  if (error instanceof MailroomApiError) return error.message
  if (error instanceof MailroomNetworkError) return t('networkError')
  return error instanceof Error ? error.message : String(error)
}
