import type { RecordsServices } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'

/** Wires the records use cases over kysely and the document storage. */
export function createRecordsServices(_context: StorageContext): RecordsServices {
  return {}
}
