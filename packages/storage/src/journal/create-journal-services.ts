import type { JournalServices } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'

/** Wires the journal use cases over kysely and the document storage. */
export function createJournalServices(_context: StorageContext): JournalServices {
  return {}
}
