import type { JournalServices } from '@mailroom/core'
import { createJournalUseCases } from '@mailroom/core/internal'
import type { StorageContext } from '../storage-context.js'
import { createChainVerifier } from './chain-verifier.js'
import { KyselyJournalReadStore } from './journal-read-store.js'

/** Events fetched per query while streaming `/events`. */
export const JOURNAL_PAGE_SIZE = 500

/** Tuning of the journal use cases (tests use small pages). */
export interface JournalServicesOptions {
  readonly pageSize?: number
}

/**
 * Wires core's journal use cases (`/events`, the chain verification) over kysely: core checks the safe, the
 * actor's right and the query, and pages the events; storage journals the read and selects the pages.
 */
export function createJournalServices(context: StorageContext, options: JournalServicesOptions = {}): JournalServices {
  const chainVerifier = createChainVerifier(context)
  return createJournalUseCases({
    journal: new KyselyJournalReadStore(context),
    verifier: { verifySafeChain: (safe, verification) => chainVerifier.verify(safe, verification) },
    clock: context.clock,
    pageSize: options.pageSize ?? JOURNAL_PAGE_SIZE,
  })
}
