import type { StatusServices } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'

/** Wires the status use cases over kysely and the document storage. */
export function createStatusServices(_context: StorageContext): StatusServices {
  return {}
}
