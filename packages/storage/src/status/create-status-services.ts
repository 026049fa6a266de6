import type { StatusServices } from '@mailroom/core'
import { createStatusUseCases } from '@mailroom/core/internal'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyRecordStatusStore } from './record-status-store.js'

/**
 * Wires core's status use cases (`PUT /rest/res/resource/status`, `GET /rest/resources/{resId}/history`) over
 * kysely: core checks in the reference's order, the store locks, asks the perimeter and writes the rows.
 */
export function createStatusServices(context: StorageContext): StatusServices {
  return createStatusUseCases({
    statuses: new KyselyRecordStatusStore(context),
    perimeter: recordPerimeterOf(context),
  })
}
