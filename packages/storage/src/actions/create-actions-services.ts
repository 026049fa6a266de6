import type { ActionsServices } from '@mailroom/core'
import { createActionsUseCases } from '@mailroom/core/internal'
import { kyselyBasketStore } from '../baskets/kysely-basket-store.js'
import { kyselyNotesStore } from '../notes/notes-store.js'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyActionsStore } from './kysely-actions-store.js'
import { kyselyLocksStore } from './kysely-locks-store.js'

/**
 * Wires core's actions and locks use cases (`/rest/resourcesList/users/.../baskets/.../actions`, `locked`,
 * `lock`, `unlock`) over kysely: core checks in 20.10's order, the store reads the basket's letters through its
 * clause (`basketSelection`) and runs each letter in a transaction of its own.
 */
export function createActionsServices(context: StorageContext): ActionsServices {
  return createActionsUseCases({
    baskets: kyselyBasketStore(context),
    actions: new KyselyActionsStore(context),
    locks: kyselyLocksStore(context),
    notes: kyselyNotesStore(context),
    perimeter: recordPerimeterOf(context),
  })
}
