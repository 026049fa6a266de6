import type { BasketsDependencies } from '@mailroom/core'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { kyselyBasketStore } from './kysely-basket-store.js'

/**
 * The ports of core's baskets use cases (`GET /rest/home`, a basket's list and filters, `isAllowed`, the profile's
 * baskets) over kysely: the rows and a basket's clause as SQL; core holds 20.10's `listControl` and the shapes.
 */
export function basketsPorts(context: StorageContext): BasketsDependencies {
  return {
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
  }
}
