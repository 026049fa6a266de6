import type { BasketsServices } from '@mailroom/core'
import { createBasketsUseCases } from '@mailroom/core/internal'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyBasketStore } from './kysely-basket-store.js'

/** Wires core's baskets use cases over kysely. */
export function createBasketsServices(context: StorageContext): BasketsServices {
  return createBasketsUseCases({
    baskets: kyselyBasketStore(context),
    perimeter: recordPerimeterOf(context),
    async homeMessage() {
      const row = await context.db
        .selectFrom('parameters')
        .select('param_value_string')
        .where('id', '=', 'homepage_message')
        .executeTakeFirst()
      return (row?.param_value_string ?? '').trim()
    },
    warn: (message) => context.logger.warn({}, message),
  })
}
