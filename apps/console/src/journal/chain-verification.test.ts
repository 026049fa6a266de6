import { describe, expect, it } from 'vitest'
import { translator } from '../i18n/i18n.js'
import { type ChainVerification, chainVerificationText } from './chain-verification.js'

const intact: ChainVerification = {
  safe: 'S',
  verified: true,
  eventsChecked: 12,
  head: { sequence: 12, hash: 'ab' },
  pendingEvents: 0,
  firstBreak: null,
}
const broken = (firstBreak: NonNullable<ChainVerification['firstBreak']>): ChainVerification => ({
  ...intact,
  verified: false,
  eventsChecked: 6,
  firstBreak,
})

describe('the chain verification in words', () => {
  it('says the chain verified, with its size, in English and French', () => {
    expect(chainVerificationText(intact, translator('en'))).toBe('Chain verified (12 events)')
    expect(chainVerificationText(intact, translator('fr'))).toBe('Chaîne vérifiée (12 événements)')
  })

  it('names the first broken event and why, or the end of the chain when no event is to blame', () => {
    const edited = broken({
      reason: 'edited',
      sequence: 7,
      eventId: 'mailroom_e7',
      detail: 'Event 7 in stored order does not match its hash',
    })
    expect(chainVerificationText(edited, translator('en'))).toBe(
      'Chain broken at event 7 (mailroom_e7): the event no longer matches its hash (it was changed)',
    )
    expect(chainVerificationText(edited, translator('fr'))).toBe(
      "Chaîne rompue à l'événement 7 (mailroom_e7) : l'événement ne correspond plus à son empreinte (il a été modifié)",
    )
    const truncated = broken({
      reason: 'truncated',
      sequence: null,
      eventId: null,
      detail: 'The chain has 6 events; the checkpoint names sequence 8',
    })
    expect(chainVerificationText(truncated, translator('en'))).toBe(
      'Chain broken after its 6 events: events were removed from the end of the chain',
    )
    // A reason without words of its own shows the server's sentence.
    const file = broken({
      reason: 'altered-file',
      sequence: 3,
      eventId: 'mailroom_e3',
      detail: 'Record 4 was deposited with SHA-256 …',
    })
    expect(chainVerificationText(file, translator('en'))).toBe(
      'Chain broken at event 3 (mailroom_e3): Record 4 was deposited with SHA-256 …',
    )
  })
})
