import type { ContentServices } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'

/** Wires the content use cases over kysely and the document storage. */
export function createContentServices(_context: StorageContext): ContentServices {
  return {}
}
