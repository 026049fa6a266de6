import type { LetterPageDependencies } from '@mailroom/core'
import { basketsPorts } from '../baskets/baskets-ports.js'
import { KyselyEntityRepository } from '../entities/kysely-entity-repository.js'
import { KyselyRecordStatusStore } from '../status/record-status-store.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyLetterPageStore } from './kysely-letter-page-store.js'

/** The ports of core's letter's page reads (processingData, the history page, …) over kysely. */
export function letterPagePorts(context: StorageContext): LetterPageDependencies {
  const { baskets, perimeter } = basketsPorts(context)
  return {
    letterPage: kyselyLetterPageStore(context.db),
    baskets,
    perimeter,
    entities: new KyselyEntityRepository(context.db),
    statuses: new KyselyRecordStatusStore(context),
  }
}
