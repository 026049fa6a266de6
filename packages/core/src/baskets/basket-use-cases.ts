import type { Actor } from '../actors/actor.js'
import type {
  AssignedBasket,
  BasketFilters,
  BasketList,
  BasketListRow,
  DisplayItem,
  Home,
  HomeBasket,
  IsAllowed,
  LastResources,
} from '../api/basket-schemas.js'
import { withInertHtml } from '../criteria-search/list-row-html.js'
import { fail } from '../errors/domain-error.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { safeHtml } from '../session-shell/safe-html.js'
import { parseBasketListQuery } from './basket-list-query.js'
import type {
  BasketListPath,
  BasketListStoredRow,
  BasketStore,
  BasketsServices,
  BasketToCount,
  GroupBasketDisplay,
  StoredBasket,
  StoredGroup,
} from './ports.js'
import { assignedBasketOf, DEFAULT_BASKET_COLOR } from './profile-baskets.js'

/** What the baskets use cases need from the outside. */
export interface BasketsDependencies {
  readonly baskets: BasketStore
  readonly perimeter: RecordPerimeter
  /** The installation's home page message (`parameters.homepage_message`), trimmed; '' when none. */
  readonly homeMessage: () => Promise<string>
  /** Tells the operator a basket's clause cannot be used (the home page counts it 0 meanwhile). */
  readonly warn?: (message: string) => void
}

/**
 * The baskets' counts in one call to the store (one statement for a home's dozen); a clause that cannot be used
 * counts 0, as 20.10's home page counts a failing clause, and is said to the operator.
 */
async function countsOrZero(
  deps: BasketsDependencies,
  baskets: readonly BasketToCount[],
  reader: Actor,
): Promise<number[]> {
  const counts = await deps.baskets.counts(baskets, reader)
  return counts.map((count) => {
    if (typeof count === 'number') return count
    if (count.code !== 'BASKET_CLAUSE_REFUSED') throw count
    deps.warn?.(count.message)
    return 0
  })
}

/** `GET /rest/home` as `HomeController::get`: the caller's groups with their baskets and counts, then lent baskets. */
export async function readHome(deps: BasketsDependencies, actor: Actor): Promise<Home> {
  const [groups, lentBy, lentTo, homeMessage] = await Promise.all([
    deps.baskets.groupsOf(actor.id),
    deps.baskets.lentBy(actor.id),
    deps.baskets.lentTo(actor.id),
    deps.homeMessage(),
  ])
  const groupRows = await Promise.all(groups.map((group) => deps.baskets.homeBaskets(actor.id, group)))
  const toCount: BasketToCount[] = [
    ...groupRows.flat().map((basket) => ({ basket, ownerUserId: actor.id })),
    ...lentTo.map((lent) => ({ basket: lent.basket, ownerUserId: lent.ownerUserId })),
  ]
  const counts = await countsOrZero(deps, toCount, actor)
  let next = 0
  const regroupedBaskets: Home['regroupedBaskets'] = []
  groups.forEach((group, index) => {
    const baskets: HomeBasket[] = groupRows[index]!.map((row) => {
      const lent = lentBy.find((l) => l.basket.basketId === row.basketId && l.group.id === group.id)
      return {
        id: row.id,
        basket_id: row.basketId,
        basket_name: row.basketName,
        basket_desc: row.description,
        color: row.preferenceColor || row.color || DEFAULT_BASKET_COLOR,
        owner_user_id: actor.id,
        redirected: lent !== undefined,
        ...(lent ? { redirectedUser: lent.actualLabel } : {}),
        resourceNumber: counts[next++]!,
      }
    })
    if (baskets.length > 0)
      regroupedBaskets.push({ groupSerialId: group.id, groupId: group.groupId, groupDesc: group.groupDesc, baskets })
  })
  const assignedBaskets: AssignedBasket[] = lentTo.map((lent) => ({
    ...assignedBasketOf(lent),
    // The home page names the basket by its serial id where the profile names the loan (20.10).
    id: lent.basket.id,
    basket_clause: lent.basket.clause,
    resourceNumber: counts[next++]!,
    uselessGroupId: lent.group.groupId,
    ownerLogin: lent.ownerLogin,
  }))
  // The client inserts it as markup without Angular's sanitiser (bypassSecurityTrustHtml): allow-listed here.
  return { regroupedBaskets, assignedBaskets, homeMessage: safeHtml(homeMessage), isLinkedToMaarchParapheur: false }
}

/** The basket, group and owner a list route addresses, once `ResourceListController::listControl` accepts them. */
export interface ControlledList {
  readonly basket: StoredBasket
  readonly group: StoredGroup
  readonly ownerUserId: number
  /** What the group's list shows (`groupbasket`), read by the last check: the list needs it, not read twice. */
  readonly display: GroupBasketDisplay
}

/**
 * `listControl` in 20.10's order and words: the group and the basket exist; the owner is the caller (and has not
 * lent the basket) or lent it to the caller; the owner is in the group; the group is given the basket. An id that
 * is not a serial id names nothing: "Group or basket does not exist" (20.10 fails on it).
 */
export async function controlList(
  deps: Pick<BasketsDependencies, 'baskets'>,
  actor: Actor,
  path: BasketListPath,
): Promise<ControlledList> {
  const groupId = databaseIdOf(path.groupId)
  const basketId = databaseIdOf(path.basketId)
  const [group, basket] = await Promise.all([
    groupId === null ? null : deps.baskets.group(groupId),
    basketId === null ? null : deps.baskets.basket(basketId),
  ])
  if (!group || !basket) fail('BASKET_OR_GROUP_NOT_FOUND')
  const ownerUserId = databaseIdOf(path.userId)
  const lentTo = ownerUserId === null ? null : await deps.baskets.lentToWhom(ownerUserId, basket.basketId, group.id)
  if (ownerUserId === actor.id) {
    if (lentTo !== null) fail('BASKET_REDIRECTED')
  } else if (ownerUserId === null || lentTo !== actor.id) fail('BASKET_OUT_OF_PERIMETER')
  const ownerGroups = await deps.baskets.groupsOf(ownerUserId)
  if (!ownerGroups.some((g) => g.id === group.id)) fail('BASKET_GROUP_NOT_LINKED_TO_USER')
  const display = await deps.baskets.groupBasket(basket.basketId, group.groupId)
  if (!display) fail('BASKET_GROUP_NOT_LINKED_TO_BASKET')
  return { basket, group, ownerUserId, display }
}

/** One item of `list_display.subInfos` as stored: its value names what it shows. */
interface ListDisplayItem {
  readonly value: string
  readonly [key: string]: unknown
}

/** `list_display` as 20.10 stores it (`{templateColumns, subInfos}`); anything else shows nothing. */
function listDisplayOf(stored: unknown): { templateColumns: number; items: ListDisplayItem[] } {
  const object = typeof stored === 'string' ? safeJson(stored) : stored
  if (typeof object !== 'object' || object === null) return { templateColumns: 0, items: [] }
  const { templateColumns, subInfos } = object as { templateColumns?: unknown; subInfos?: unknown }
  const items = Array.isArray(subInfos)
    ? subInfos.filter(
        (item): item is ListDisplayItem =>
          typeof item === 'object' && item !== null && typeof (item as { value?: unknown }).value === 'string',
      )
    : []
  return { templateColumns: typeof templateColumns === 'number' ? templateColumns : 0, items }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** The row's display items: each list_display item storage gave a value for, with that value (20.10 drops others). */
function displayOf(row: BasketListStoredRow, items: readonly ListDisplayItem[]): DisplayItem[] {
  return items.flatMap((item) => {
    const value = row.displayValues[item.value]
    if (value === undefined) return []
    const labelled = value.displayLabel === undefined ? {} : { displayLabel: value.displayLabel }
    return [{ ...item, ...labelled, displayValue: value.displayValue } as DisplayItem]
  })
}

/** `GET /rest/resourcesList/users/{userId}/groups/{groupId}/baskets/{basketId}` as `ResourceListController::get`. */
export async function readBasketList(
  deps: BasketsDependencies,
  actor: Actor,
  path: BasketListPath,
  rawQuery: Readonly<Record<string, unknown>>,
): Promise<BasketList> {
  const { basket, ownerUserId, display } = await controlList(deps, actor, path)
  const query = parseBasketListQuery(rawQuery, basket.resOrder)
  const allResources = await deps.baskets.listIds(basket, ownerUserId, query, actor)
  const page = query.offset < 0 ? [] : allResources.slice(query.offset, query.offset + query.limit)
  const answer: BasketList = {
    resources: [],
    count: allResources.length,
    basketLabel: basket.basketName,
    basket_id: basket.basketId,
    allResources,
    defaultAction: [],
    displayFolderTags: false,
    templateColumns: 0,
  }
  if (page.length === 0) return answer
  const { templateColumns, items } = listDisplayOf(display.listDisplay)
  const rows = await deps.baskets.rows(
    actor,
    page,
    items.map((item) => item.value),
  )
  return {
    ...answer,
    resources: rows.map(
      ({ displayValues, ...row }): BasketListRow =>
        withInertHtml({ ...row, display: displayOf({ ...row, displayValues }, items) }),
    ),
    defaultAction: { component: display.listEvent, data: display.listEventData ?? null },
    displayFolderTags: items.some((item) => item.value === 'getFolders'),
    templateColumns,
  }
}

/** `GET …/baskets/{basketId}/filters` as `ResourceListController::getFilters`. */
export async function readBasketFilters(
  deps: BasketsDependencies,
  actor: Actor,
  path: BasketListPath,
  rawQuery: Readonly<Record<string, unknown>>,
): Promise<BasketFilters> {
  const { basket, ownerUserId } = await controlList(deps, actor, path)
  // 20.10's filters take no order: a caller's order, however malformed, changes nothing here.
  const { order: _order, ...filters } = rawQuery
  return deps.baskets.filters(actor, basket, ownerUserId, parseBasketListQuery(filters, basket.resOrder))
}

/** `GET /rest/resources/{resId}/isAllowed`: a malformed or unknown id is not allowed (20.10 answers false too). */
export async function isAllowed(
  deps: BasketsDependencies,
  actor: Actor,
  resIdText: string | undefined,
): Promise<IsAllowed> {
  const resId = databaseIdOf(resIdText, 'bigint')
  return { isAllowed: resId !== null && (await deps.perimeter.allows(actor, resId)) }
}

/** `GET /rest/home/lastRessources`. */
export async function readLastResources(deps: BasketsDependencies, actor: Actor): Promise<LastResources> {
  return { lastResources: await deps.baskets.lastResources(actor.id) }
}

/** The baskets use cases over their ports (storage wires the ports). */
export function createBasketsUseCases(deps: BasketsDependencies): BasketsServices {
  return {
    home: (actor) => readHome(deps, actor),
    lastResources: (actor) => readLastResources(deps, actor),
    list: (actor, path, query) => readBasketList(deps, actor, path, query),
    filters: (actor, path, query) => readBasketFilters(deps, actor, path, query),
    isAllowed: (actor, resId) => isAllowed(deps, actor, resId),
  }
}
