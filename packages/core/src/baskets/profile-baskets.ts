import type { CurrentUserProfile } from '../api/user-schemas.js'
import type { LentBasket, ProfileBaskets, StoredGroup } from './ports.js'

/** 20.10's colour of a basket without one. */
export const DEFAULT_BASKET_COLOR = '#666666'

/** A basket lent to the user, as 20.10's getAssignedBasketsByUserId lists it (its clause aside). */
export function assignedBasketOf(lent: LentBasket): CurrentUserProfile['assignedBaskets'][number] {
  return {
    id: lent.id,
    basket_id: lent.basket.basketId,
    basket_name: lent.basket.basketName,
    owner_user_id: lent.ownerUserId,
    group_id: lent.group.id,
    oldGroupId: lent.group.groupId,
    group_desc: lent.group.groupDesc,
    userToDisplay: lent.ownerLabel,
  }
}

type ProfileBasketFields = Pick<
  CurrentUserProfile,
  'baskets' | 'assignedBaskets' | 'redirectedBaskets' | 'regroupedBaskets'
>

/**
 * The baskets of `GET /rest/currentUser/profile` as 20.10's getProfile lists them: the baskets of the user's groups
 * the user has a preference for (getBasketsByLogin, `allowed`), those lent to the user and by the user, and each
 * group with its home-page baskets (every group, even one without a basket). No clause is shown.
 */
export function profileBasketsOf(
  userId: number,
  groups: readonly StoredGroup[],
  stored: ProfileBaskets | undefined,
): ProfileBasketFields {
  const regrouped = new Map(stored?.regrouped.map((entry) => [entry.group.id, entry.baskets]) ?? [])
  return {
    baskets: (stored?.baskets ?? [])
      .filter((basket) => basket.allowed)
      .map((basket) => ({
        basket_id: basket.basketId,
        id: basket.id,
        group_id: basket.group.groupId,
        basket_name: basket.basketName,
        basket_desc: basket.description,
        group_desc: basket.group.groupDesc,
        is_visible: basket.visible ? 'Y' : 'N',
        groupSerialId: basket.group.id,
        owner_user_id: userId,
        basketSearch: !basket.visible,
        userToDisplay: basket.lentTo,
        enabled: true,
        allowed: true,
      })),
    assignedBaskets: (stored?.lentTo ?? []).map(assignedBasketOf),
    redirectedBaskets: (stored?.lentBy ?? []).map((lent) => ({
      id: lent.id,
      basket_id: lent.basket.basketId,
      basket_name: lent.basket.basketName,
      actual_user_id: lent.actualUserId,
      group_id: lent.group.id,
      group_desc: lent.group.groupDesc,
      userToDisplay: lent.actualLabel,
    })),
    regroupedBaskets: groups.map((group) => ({
      groupSerialId: group.id,
      groupId: group.groupId,
      groupDesc: group.groupDesc,
      baskets: (regrouped.get(group.id) ?? []).map((basket) => ({
        basket_id: basket.basketId,
        basket_name: basket.basketName,
        basket_desc: basket.description,
        color: basket.preferenceColor || basket.color || DEFAULT_BASKET_COLOR,
      })),
    })),
  }
}
