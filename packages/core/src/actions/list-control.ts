import type { Actor } from '../actors/actor.js'
import { controlList as controlBasketList } from '../baskets/basket-use-cases.js'
import type { BasketListPath, BasketStore } from '../baskets/ports.js'
import type { BasketScope } from './ports.js'

/** The ids of a `/rest/resourcesList/users/{userId}/groups/{groupId}/baskets/{basketId}` route, as typed. */
export type ListRouteIds = BasketListPath

/**
 * 20.10's `listControl` (the baskets' own, `baskets/basket-use-cases.ts`), and the list it accepted as the
 * actions and locks use it: the owner, the group, the basket with its clause.
 */
export async function controlList(
  deps: { readonly baskets: BasketStore },
  actor: Actor,
  ids: ListRouteIds,
): Promise<BasketScope> {
  const { basket, group, ownerUserId } = await controlBasketList(deps, actor, ids)
  return {
    ownerId: ownerUserId,
    group: { id: group.id, groupId: group.groupId },
    basket: { id: basket.id, basketId: basket.basketId, name: basket.basketName, clause: basket.clause },
  }
}
