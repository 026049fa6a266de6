import type { ProcessingPageDependencies } from '@mailroom/core'
import { basketsPorts } from '../baskets/baskets-ports.js'
import { KyselyEntityRepository } from '../entities/kysely-entity-repository.js'
import { KyselyRecordStatusStore } from '../status/record-status-store.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyProcessingPageStore } from './kysely-processing-page-store.js'

/** The ports of core's letter's page reads (processingData, the history page, …) over kysely. */
export function processingPagePorts(context: StorageContext): ProcessingPageDependencies {
  const { baskets, perimeter } = basketsPorts(context)
  return {
    processingPage: kyselyProcessingPageStore(context.db),
    baskets,
    perimeter,
    entities: new KyselyEntityRepository(context.db),
    statuses: new KyselyRecordStatusStore(context),
  }
}
