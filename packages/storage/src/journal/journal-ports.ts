import type { JournalDependencies } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'
import { createChainVerifier } from './chain-verifier.js'
import { KyselyJournalReadStore, type OrderKey } from './journal-read-store.js'

/** Events fetched per query while streaming `/events`. */
export const JOURNAL_PAGE_SIZE = 500

/** Tuning of the journal use cases (tests use small pages). */
export interface JournalPortsOptions {
  readonly pageSize?: number
}

/**
 * The ports of core's journal use cases (`/events`, the chain verification) over kysely: storage journals the
 * read and selects the pages; core checks the safe, the actor's right and the query, and pages the events.
 */
export function journalPorts(
  context: StorageContext,
  options: JournalPortsOptions = {},
): JournalDependencies<OrderKey> {
  const chainVerifier = createChainVerifier(context)
  return {
    journal: new KyselyJournalReadStore(context),
    verifier: { verifySafeChain: (safe, verification) => chainVerifier.verify(safe, verification) },
    clock: context.clock,
    pageSize: options.pageSize ?? JOURNAL_PAGE_SIZE,
  }
}
