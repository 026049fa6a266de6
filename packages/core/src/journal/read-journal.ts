import { type Actor, displayName } from '../actors/actor.js'
import type { Clock } from '../auth/ports.js'
import { fail } from '../errors/domain-error.js'
import { assertJournalAccess } from './journal-access.js'
import type { JournalEvent } from './journal-event.js'
import { type JournalQuery, parseJournalQuery } from './journal-query.js'
import type { JournalServices } from './journal-services.js'
import { type LifeCycleEvent, toLifeCycleEvent } from './life-cycle-event.js'
import type { SafeDirectory } from './safe-directory.js'
import { type SafeChainVerifier, verifySafeChain } from './safe-verification.js'

/** The archive events a journal read answers with: those of one safe, up to its read event, matching the query. */
export interface JournalScope {
  readonly safe: string
  readonly query: JournalQuery
  /** The highest sequence included: the events appended before the read's own event. */
  readonly snapshot: number
}

/** One event of a page, with its archive's history (every archive event of the scope) and its position. */
export interface JournalPageEntry<P> {
  readonly event: JournalEvent
  /** The archive's events; undefined when the store found none beside the event itself. */
  readonly history: readonly JournalEvent[] | undefined
  /** Where the next page starts when this event ends one. */
  readonly position: P
}

/** Storage side of the journal reads. `P` is a position in journal order, opaque to core. */
export interface JournalReadStore<P> {
  /** The safes of the current entity tree. */
  loadSafeDirectory(): Promise<SafeDirectory>
  /** The position of the safe's archive event with this id, null when it has none. */
  positionOf(safe: string, eventId: string): Promise<P | null>
  /**
   * Journals the read as an `organization/journal` event of the safe, in a transaction of its own committed
   * before the answer, and returns that event.
   */
  journalRead(request: { safe: string; organizationRegNumber: string; actor: Actor }): Promise<JournalEvent>
  /** At most `size` events of the scope in journal order, after `after` (from the start when null). */
  page(scope: JournalScope, after: P | null, size: number): Promise<readonly JournalPageEntry<P>[]>
}

/** What the journal use cases need from the outside. */
export interface JournalDependencies<P> {
  readonly journal: JournalReadStore<P>
  /** The chain verification, sealing first (storage's verifier). */
  readonly verifier: Pick<SafeChainVerifier, 'verifySafeChain'>
  readonly clock: Clock
  /** Events fetched per page while `/events` streams: bounds memory whatever the journal's size. */
  readonly pageSize: number
}

/**
 * The journal use cases over their ports. Reading `/events`: the safe and the actor's right to it
 * (assertJournalAccess), then the query, then the `after` cursor; the read is journalled before the answer,
 * which is the safe's archive events appended before that read (a stable snapshot, since events are
 * append-only and chained by sequence), fetched page by page as they are consumed.
 */
export function createJournalUseCases<P>(deps: JournalDependencies<P>): JournalServices {
  const { journal } = deps
  const pageSize = Math.max(1, Math.trunc(deps.pageSize))

  async function* pagedEvents(
    scope: JournalScope,
    cursor: P | null,
    accountName: string,
  ): AsyncGenerator<LifeCycleEvent, void, undefined> {
    let last = cursor
    let remaining = scope.query.limit ?? Number.POSITIVE_INFINITY
    while (remaining > 0) {
      const size = Math.min(pageSize, remaining)
      const entries = await journal.page(scope, last, size)
      if (entries.length === 0) return
      for (const entry of entries) yield toLifeCycleEvent(entry.event, entry.history ?? [entry.event], accountName)
      remaining -= entries.length
      if (entries.length < size) return
      last = entries[entries.length - 1]!.position
    }
  }

  return {
    async readEvents(actor, owner, rawQuery) {
      const timestamp = deps.clock.now()
      const accountName = displayName(actor)
      assertJournalAccess(actor, await journal.loadSafeDirectory(), owner)
      const query = parseJournalQuery(rawQuery)
      const cursor =
        query.after === undefined
          ? null
          : ((await journal.positionOf(owner, query.after)) ?? fail('JOURNAL_INVALID_CURSOR'))
      const readEvent = await journal.journalRead({
        safe: owner,
        organizationRegNumber: query.originatorOrgRegNumber ?? owner,
        actor,
      })
      const scope: JournalScope = { safe: owner, query, snapshot: readEvent.sequence - 1 }
      return { head: { owner, timestamp, accountName }, events: pagedEvents(scope, cursor, accountName) }
    },

    verifyChain(actor, owner, rawQuery = {}) {
      return verifySafeChain(
        { loadSafeDirectory: () => journal.loadSafeDirectory(), verifySafeChain: deps.verifier.verifySafeChain },
        actor,
        owner,
        rawQuery,
      )
    },
  }
}
