import type { StatusDependencies } from '@mailroom/core'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyRecordStatusStore } from './record-status-store.js'

/**
 * The ports of core's status use cases (`PUT /rest/res/resource/status`, `GET /rest/resources/{resId}/history`)
 * over kysely: the store locks, asks the perimeter and writes the rows; core checks in the reference's order.
 */
export function statusPorts(context: StorageContext): StatusDependencies {
  return { statuses: new KyselyRecordStatusStore(context), perimeter: recordPerimeterOf(context) }
}
