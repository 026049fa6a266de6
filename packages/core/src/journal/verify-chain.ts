import { computeEventHash } from './event-hash.js'
import type { JournalEvent, Sha256Hex } from './journal-event.js'

/** Why a chain is broken. */
export type ChainBreakReason =
  /** The event's stored hash is not the hash of its content: a field (or the hash) was changed. */
  | 'edited'
  /** A sequence number is missing or repeated where it should be: an event was deleted or inserted. */
  | 'deleted-or-inserted'
  /** Events are out of order: a later sequence comes first, or time goes backwards. */
  | 'reordered'
  /** The event's previousHash is not the stored hash of the event before it. */
  | 'broken-link'
  /** The event belongs to another safe (or the chain mixes safes). */
  | 'wrong-safe'
  /** The chain ends before the checkpoint: events were removed from its end. */
  | 'truncated'
  /** The event at the checkpoint's sequence has another hash: the chain was rewritten up to there. */
  | 'checkpoint-mismatch'

/** Outcome of {@link verifyChain}. */
export type ChainVerification =
  | { readonly ok: true; readonly count: number; readonly headHash: string | null }
  | {
      readonly ok: false
      readonly reason: ChainBreakReason
      /** The first offending event: its index in the given list, its sequence and eventId (null past the end). */
      readonly at: { readonly index: number; readonly sequence: number | null; readonly eventId: string | null }
      /** One English sentence for operators. */
      readonly detail: string
    }

/** Options of {@link verifyChain}. */
export interface VerifyChainOptions {
  /** The safe the events must belong to (default: the first event's). */
  readonly safe?: string
  /**
   * A head hash recorded elsewhere (e.g. a head table, a log line, a printed receipt). Without one, removing
   * events from the end of a chain or rewriting a whole tail cannot be told from a shorter genuine chain.
   */
  readonly checkpoint?: { readonly sequence: number; readonly hash: string }
  /**
   * Continues a chain verified in pages: the last event of the previous page (already verified). The first
   * event given must then follow it (sequence `after.sequence + 1`, linked to `after.hash`); `at.index` stays
   * the index in the given list. A checkpoint at or before `after.sequence` was the previous pages' business
   * and is skipped here; one past the end of the given events is reported as 'truncated', so pass it with the
   * page that holds its sequence or with the last page.
   */
  readonly after?: Pick<JournalEvent, 'sequence' | 'hash' | 'timestamp'>
}

/**
 * Walks the events of one safe in stored order and reports the first break. Checks, per event in order:
 * its hash equals {@link computeEventHash} ('edited'); it belongs to the safe ('wrong-safe'); its sequence is
 * its 1-based position ('reordered' when it is higher and the expected one appears later, else
 * 'deleted-or-inserted');
 * its previousHash is the previous event's hash, null for the first ('broken-link'); its timestamp is not
 * earlier than the previous one ('reordered'). Then the optional checkpoint.
 */
export function verifyChain(
  events: readonly JournalEvent[],
  sha256Hex: Sha256Hex,
  options: VerifyChainOptions = {},
): ChainVerification {
  const safe = options.safe ?? events[0]?.safe
  const offset = options.after?.sequence ?? 0
  const positionsBySequence = new Map<unknown, number[]>()
  events.forEach((event, index) => {
    const list = positionsBySequence.get(event.sequence)
    if (list) list.push(index)
    else positionsBySequence.set(event.sequence, [index])
  })
  let previous: Pick<JournalEvent, 'sequence' | 'hash' | 'timestamp'> | undefined = options.after
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index]!
    const at = {
      index,
      sequence: typeof event.sequence === 'number' ? event.sequence : null,
      eventId: typeof event.eventId === 'string' ? event.eventId : null,
    }
    const expected = offset + index + 1
    let actualHash: string | null
    try {
      actualHash = computeEventHash(event, sha256Hex)
    } catch {
      // An edit that makes the event unserialisable (invalid date, NaN) is still an edit.
      actualHash = null
    }
    if (actualHash === null || actualHash !== event.hash) {
      return {
        ok: false,
        reason: 'edited',
        at,
        detail: `Event ${offset + index + 1} in stored order does not match its hash`,
      }
    }
    if (event.safe !== safe) {
      return {
        ok: false,
        reason: 'wrong-safe',
        at,
        detail: `Event ${event.eventId} belongs to safe ${event.safe}, not ${safe}`,
      }
    }
    if (event.sequence !== expected) {
      // A repeated or lower sequence is an insertion; a higher one whose expected sequence comes later is a
      // reordering; a higher one whose expected sequence is gone is a deletion.
      const repeated = (positionsBySequence.get(event.sequence)?.length ?? 0) > 1
      const later = (positionsBySequence.get(expected) ?? []).some((position) => position > index)
      return !repeated && typeof event.sequence === 'number' && event.sequence > expected && later
        ? {
            ok: false,
            reason: 'reordered',
            at,
            detail: `Sequence ${event.sequence} stands where ${expected} is expected; ${expected} comes later`,
          }
        : {
            ok: false,
            reason: 'deleted-or-inserted',
            at,
            detail: `Sequence ${event.sequence} stands where ${expected} is expected`,
          }
    }
    const expectedLink = previous === undefined ? null : previous.hash
    if (event.previousHash !== expectedLink) {
      return {
        ok: false,
        reason: 'broken-link',
        at,
        detail: `Event ${event.sequence} is not linked to the event before it`,
      }
    }
    if (previous !== undefined && event.timestamp.getTime() < previous.timestamp.getTime()) {
      return { ok: false, reason: 'reordered', at, detail: `Event ${event.sequence} is older than the event before it` }
    }
    previous = event
  }
  const checkpoint = options.checkpoint
  if (checkpoint !== undefined && checkpoint.sequence > offset) {
    const target = events[checkpoint.sequence - offset - 1]
    if (target === undefined) {
      return {
        ok: false,
        reason: 'truncated',
        at: { index: events.length, sequence: null, eventId: null },
        detail: `The chain has ${offset + events.length} events; the checkpoint names sequence ${checkpoint.sequence}`,
      }
    }
    if (target.hash !== checkpoint.hash) {
      return {
        ok: false,
        reason: 'checkpoint-mismatch',
        at: { index: checkpoint.sequence - offset - 1, sequence: target.sequence, eventId: target.eventId },
        detail: `Event ${target.sequence} does not have the checkpoint's hash`,
      }
    }
  }
  return { ok: true, count: events.length, headHash: previous?.hash ?? null }
}
