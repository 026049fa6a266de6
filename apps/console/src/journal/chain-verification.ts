import type { MailroomClient } from '@mailroom/sdk'
import type { MessageKey, Translate } from '../i18n/i18n.js'

/** What the server answers about a safe's hash chain. */
export type ChainVerification = Awaited<ReturnType<MailroomClient['verifyJournalChain']>>

type BreakReason = NonNullable<ChainVerification['firstBreak']>['reason']

/** The reasons a person can act on, in their language; the others show the server's English sentence. */
const REASONS: Partial<Record<BreakReason, MessageKey>> = {
  edited: 'breakEdited',
  'deleted-or-inserted': 'breakDeletedOrInserted',
  reordered: 'breakReordered',
  'broken-link': 'breakLink',
  'wrong-safe': 'breakWrongSafe',
  truncated: 'breakTruncated',
  'checkpoint-mismatch': 'breakCheckpoint',
  unsealed: 'breakUnsealed',
}

/** One sentence: "Chain verified (N events)", or where and why it breaks. */
export function chainVerificationText(verification: ChainVerification, t: Translate): string {
  const found = verification.firstBreak
  if (found === null) return t('chainVerified', { count: verification.eventsChecked })
  const key = REASONS[found.reason]
  const reason = key === undefined ? found.detail : t(key)
  if (found.sequence === null) return t('chainBrokenAfter', { count: verification.eventsChecked, reason })
  return t('chainBrokenAt', { sequence: found.sequence, eventId: found.eventId ?? '', reason })
}
