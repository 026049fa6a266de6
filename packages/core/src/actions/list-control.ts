import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import { routeIdOf } from './action-request.js'
import type { ActionsStore, BasketScope } from './ports.js'

/** The ids of a `/rest/resourcesList/users/{userId}/groups/{groupId}/baskets/{basketId}` route, as typed. */
export interface ListRouteIds {
  readonly userId: string | undefined
  readonly groupId: string | undefined
  readonly basketId: string | undefined
}

/**
 * 20.10's `listControl`, in its order: the group and basket exist; the owner acts in a basket she has not lent,
 * or a colleague in one lent to him; the owner belongs to the group; the group is given the basket. An id that
 * could name no row reads as one that names none.
 */
export async function controlList(
  store: Pick<ActionsStore, 'listFacts'>,
  actor: Actor,
  ids: ListRouteIds,
): Promise<BasketScope> {
  const ownerId = routeIdOf(ids.userId)
  const groupId = routeIdOf(ids.groupId)
  const basketId = routeIdOf(ids.basketId)
  if (groupId === null || basketId === null) fail('BASKET_OR_GROUP_NOT_FOUND')
  const facts = await store.listFacts(ownerId ?? 0, groupId, basketId)
  const { group, basket } = facts
  if (group === null || basket === null) fail('BASKET_OR_GROUP_NOT_FOUND')
  if (ownerId === actor.id) {
    if (facts.lentTo !== null) fail('BASKET_REDIRECTED')
  } else if (ownerId === null || facts.lentTo !== actor.id) fail('BASKET_OUT_OF_PERIMETER')
  if (!facts.ownerInGroup) fail('BASKET_GROUP_NOT_LINKED_TO_USER')
  if (!facts.groupHasBasket) fail('BASKET_GROUP_NOT_LINKED_TO_BASKET')
  return { ownerId, group, basket }
}
