import type { CreateRecordDependencies } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'
import { KyselyRecordsRepository, type RecordCreateFaults } from './kysely-records-repository.js'

/** Options of the records ports; `faults` is for atomicity tests only. */
export interface RecordsPortsOptions {
  readonly faults?: RecordCreateFaults
}

/** The ports of core's records use cases over kysely and the document storage. */
export function recordsPorts(context: StorageContext, options: RecordsPortsOptions = {}): CreateRecordDependencies {
  return {
    records: new KyselyRecordsRepository(context, options.faults),
    sniffer: context.sniffer,
    clock: context.clock,
  }
}
