import type { ActionsPorts } from '@mailroom/core'
import { kyselyBasketStore } from '../baskets/kysely-basket-store.js'
import { kyselyNotesStore } from '../notes/notes-store.js'
import { recordPerimeterOf } from '../perimeter/record-perimeter.js'
import type { StorageContext } from '../storage-context.js'
import { KyselyActionsStore } from './kysely-actions-store.js'
import { kyselyLocksStore } from './kysely-locks-store.js'

/**
 * The ports of core's actions and locks use cases (`/rest/resourcesList/users/.../baskets/.../actions`, `locked`,
 * `lock`, `unlock`) over kysely: core checks in 20.10's order, the store reads the basket's letters through its
 * clause (`basketSelection`) and acts on them in one transaction, each kind of write one statement for them all.
 */
export function actionsPorts(context: StorageContext): ActionsPorts {
  return {
    baskets: kyselyBasketStore(context),
    actions: new KyselyActionsStore(context),
    locks: kyselyLocksStore(context),
    notes: kyselyNotesStore(context),
    perimeter: recordPerimeterOf(context),
  }
}
