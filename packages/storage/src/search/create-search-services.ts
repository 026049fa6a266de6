import type { SearchServices } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'

/** Wires the search use cases over kysely and the document storage. */
export function createSearchServices(_context: StorageContext): SearchServices {
  return {}
}
