import { describe, expect, it } from 'vitest'
import { archiveInconsistencies, type JournalEventView } from './archive-consistency.js'

const info = (eventId: string, eventType: string, hash: string, timestamp = '2026-01-01T10:00:00+00:00') => ({
  eventId,
  eventType,
  hash,
  timestamp,
})

function event(eventInfo: JournalEventView['eventInfo'], operationResult = true): JournalEventView {
  return { eventId: eventInfo[0]!.eventId, objectId: 'a1', operationResult, eventInfo }
}

describe('archive consistency of a journal read', () => {
  it('holds when consultations carry the hash of the last deposit, a new version included', () => {
    const events = [
      event([
        info('e1', 'recordsManagement/deposit', 'aa'),
        info('e2', 'recordsManagement/consultation', 'aa', '2026-01-01T11:00:00+00:00'),
        info('e3', 'recordsManagement/depositNewResource', 'bb', '2026-01-02T10:00:00+00:00'),
        info('e4', 'recordsManagement/integrityCheck', 'bb', '2026-01-02T10:00:00+00:00'),
      ]),
    ]
    expect(archiveInconsistencies(events)).toEqual([])
  })

  it('names a consultation with another hash, a time going back and a failed operation', () => {
    const events = [
      event(
        [
          info('e1', 'recordsManagement/deposit', 'aa', '2026-01-02T10:00:00+00:00'),
          info('e2', 'recordsManagement/consultation', 'ff', '2026-01-01T10:00:00+00:00'),
        ],
        false,
      ),
    ]
    expect(archiveInconsistencies(events)).toEqual([
      { eventId: 'e1', problem: 'failed-operation' },
      { eventId: 'e2', problem: 'time-goes-back' },
      { eventId: 'e2', problem: 'hash-differs' },
    ])
  })
})
