/** The parts of a life-cycle event this check reads (the journal read's shape). */
export interface JournalEventView {
  readonly eventId: string
  readonly objectId: string
  readonly operationResult: boolean
  readonly eventInfo: readonly {
    readonly eventId: string
    readonly eventType: string
    readonly timestamp: string
    readonly hash: string
  }[]
}

/** One thing the journal shows that does not hold. */
export interface Inconsistency {
  readonly eventId: string
  readonly problem: 'failed-operation' | 'hash-differs' | 'time-goes-back'
}

const DEPOSITS = new Set(['recordsManagement/deposit', 'recordsManagement/depositNewResource'])

/**
 * What the journal read lets a reader check without the server's chain: every operation succeeded, and in
 * each archive's events (oldest first) every consultation or integrity check carries the hash of the last
 * deposit before it, at a time not earlier than the event before it. The hash chain itself (each event
 * linked to the previous one) is not in the read: `mailroom journal verify` checks it on the server.
 */
export function archiveInconsistencies(events: readonly JournalEventView[]): Inconsistency[] {
  const found: Inconsistency[] = []
  for (const event of events) {
    if (!event.operationResult) found.push({ eventId: event.eventId, problem: 'failed-operation' })
    let deposited: string | null = null
    let previousTime = Number.NEGATIVE_INFINITY
    for (const info of event.eventInfo) {
      const time = Date.parse(info.timestamp)
      if (time < previousTime) found.push({ eventId: info.eventId, problem: 'time-goes-back' })
      previousTime = Math.max(previousTime, time)
      if (DEPOSITS.has(info.eventType)) deposited = info.hash
      else if (deposited !== null && info.hash !== deposited)
        found.push({ eventId: info.eventId, problem: 'hash-differs' })
    }
  }
  return found
}
