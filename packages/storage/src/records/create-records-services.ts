import type { RecordsServices } from '@mailroom/core'
import { createRecordsUseCases } from '@mailroom/core/internal'
import type { StorageContext } from '../storage-context.js'
import { KyselyRecordsRepository, type RecordCreateFaults } from './kysely-records-repository.js'

/** Options of the records wiring; `faults` is for atomicity tests only. */
export interface RecordsServicesOptions {
  readonly faults?: RecordCreateFaults
}

/** Wires the records use cases over kysely and the document storage. */
export function createRecordsServices(context: StorageContext, options: RecordsServicesOptions = {}): RecordsServices {
  return createRecordsUseCases({
    records: new KyselyRecordsRepository(context, options.faults),
    sniffer: context.sniffer,
    clock: context.clock,
  })
}
