import type { Actor } from '../actors/actor.js'
import type { BasketFilters, BasketList, BasketListRow, Home, IsAllowed, LastResources } from '../api/basket-schemas.js'
import type { DomainError } from '../errors/domain-error.js'
import type { BasketClauseSource } from './basket-clause.js'
import type { BasketListQuery } from './basket-list-query.js'

/** A basket row (`baskets`). */
export interface StoredBasket extends BasketClauseSource {
  /** Serial id (`baskets.id`). */
  readonly id: number
  readonly description: string
  /** `baskets.basket_res_order`: the list's order when the caller gives none. */
  readonly resOrder: string
}

/** A group row (`usergroups`). */
export interface StoredGroup {
  readonly id: number
  readonly groupId: string
  readonly groupDesc: string | null
}

/** What a group's list shows (`groupbasket`). */
export interface GroupBasketDisplay {
  /** `list_display` as stored: `{templateColumns, subInfos: [{value, cssClasses, icon}…]}`. */
  readonly listDisplay: unknown
  readonly listEvent: string
  readonly listEventData: unknown
}

/** A basket to count, and whose clause to count it with (a lent basket is counted with its owner's). */
export interface BasketToCount {
  readonly basket: StoredBasket
  readonly ownerUserId: number
}

/** A home-page basket before its count: the stored row and the member's colour (`users_baskets_preferences`). */
export interface HomeBasketRow extends StoredBasket {
  readonly color: string | null
  readonly preferenceColor: string | null
}

/** A profile basket (`BasketModel::getBasketsByLogin`): every basket of the user's groups. */
export interface ProfileBasketRow extends StoredBasket {
  readonly group: StoredGroup
  readonly visible: boolean
  /** The colleague it is lent to, "firstname lastname", or null. */
  readonly lentTo: string | null
  /** Whether the member has a preference row for it (20.10's `allowed`: the profile lists only those). */
  readonly allowed: boolean
}

/** A basket lent by its owner to a colleague (`redirected_baskets`). */
export interface LentBasket {
  /** `redirected_baskets.id`. */
  readonly id: number
  readonly basket: StoredBasket
  readonly ownerUserId: number
  readonly ownerLogin: string
  readonly ownerLabel: string
  readonly actualUserId: number
  readonly actualLabel: string
  readonly group: StoredGroup
}

/** What the profile shows of a user's baskets (`GET /rest/currentUser/profile`). */
export interface ProfileBaskets {
  /** Every basket of the user's groups (the profile lists those the user has a preference for). */
  readonly baskets: readonly ProfileBasketRow[]
  readonly lentBy: readonly LentBasket[]
  readonly lentTo: readonly LentBasket[]
  /** Each of the user's groups with its home-page baskets. */
  readonly regrouped: readonly { readonly group: StoredGroup; readonly baskets: readonly HomeBasketRow[] }[]
}

/** Storage side of the baskets (reads only; running actions is another room's). */
export interface BasketStore {
  /** The user's login, or null for no such user. */
  loginOf(userId: number): Promise<string | null>
  /** The user's groups, in their serial order. */
  groupsOf(userId: number): Promise<StoredGroup[]>
  /** The visible baskets of a group that the member has a preference row for, in basket order then name. */
  homeBaskets(userId: number, group: StoredGroup): Promise<HomeBasketRow[]>
  /** Every basket of the user's groups, by group code, basket order, name. */
  profileBaskets(userId: number): Promise<ProfileBasketRow[]>
  /** Baskets the user lent (`owner_user_id`), in lending order. */
  lentBy(ownerUserId: number): Promise<LentBasket[]>
  /** Baskets lent to the user (`actual_user_id`), in basket order then name. */
  lentTo(actualUserId: number): Promise<LentBasket[]>
  /**
   * How many records each basket holds for its owner, in the order asked: a number, or the BASKET_CLAUSE_REFUSED
   * error of a clause it cannot use (the others are counted all the same). `reader`: the caller, the owner of their
   * own baskets (not read again).
   */
  counts(baskets: readonly BasketToCount[], reader: Actor): Promise<(number | DomainError)[]>
  basket(id: number): Promise<StoredBasket | null>
  group(id: number): Promise<StoredGroup | null>
  /** The colleague the owner lent this basket of this group to, or null. */
  lentToWhom(ownerUserId: number, basketId: string, groupSerialId: number): Promise<number | null>
  groupBasket(basketId: string, groupId: string): Promise<GroupBasketDisplay | null>
  /** The ids of the records the basket holds for its owner, filters applied, in the list's order (`reader`: as count). */
  listIds(basket: StoredBasket, ownerUserId: number, query: BasketListQuery, reader: Actor): Promise<number[]>
  /** The rows of these records for `reader`, in the given order, with the display items `displayValues` names. */
  rows(reader: Actor, resIds: readonly number[], displayValues: readonly string[]): Promise<BasketListStoredRow[]>
  /** The filter values of the basket's records, each with its count (20.10's getFormattedFilters). */
  filters(reader: Actor, basket: StoredBasket, ownerUserId: number, query: BasketListQuery): Promise<BasketFilters>
  /** The 5 records the user last acted on (history), newest first. */
  lastResources(userId: number): Promise<LastResources['lastResources']>
}

/** A row as storage reads it: the common fields, and the value of each display item it was asked for. */
export interface BasketListStoredRow extends Omit<BasketListRow, 'display'> {
  readonly displayValues: Readonly<Record<string, DisplayValue>>
}

/** A display item's value for a row, and for a custom field its label (20.10's `displayLabel`). */
export interface DisplayValue {
  readonly displayLabel?: string
  readonly displayValue: unknown
}

/** The baskets use cases (`GET /rest/home`, the lists, `isAllowed`). */
export interface BasketsServices {
  home(actor: Actor): Promise<Home>
  lastResources(actor: Actor): Promise<LastResources>
  list(actor: Actor, path: BasketListPath, query: Readonly<Record<string, unknown>>): Promise<BasketList>
  filters(actor: Actor, path: BasketListPath, query: Readonly<Record<string, unknown>>): Promise<BasketFilters>
  isAllowed(actor: Actor, resId: string | undefined): Promise<IsAllowed>
}

/** The path of a list route, as received. */
export interface BasketListPath {
  readonly userId: string | undefined
  readonly groupId: string | undefined
  readonly basketId: string | undefined
}
