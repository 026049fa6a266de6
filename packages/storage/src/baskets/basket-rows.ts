import type {
  HomeBasketRow,
  LentBasket,
  ProfileBasketRow,
  ProfileBaskets,
  StoredBasket,
  StoredGroup,
} from '@mailroom/core'
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.js'

type Executor = Kysely<Database>

/** The `baskets` columns every read takes (alias `b`). */
export const BASKET_COLUMNS = [
  'b.id',
  'b.basket_id',
  'b.basket_name',
  'b.basket_desc',
  'b.basket_clause',
  'b.basket_res_order',
  'b.color',
] as const

interface BasketColumns {
  id: number
  basket_id: string
  basket_name: string
  basket_desc: string
  basket_clause: string
  basket_res_order: string
}

/** A `baskets` row as core sees it. */
export function storedBasket(row: BasketColumns): StoredBasket {
  return {
    id: row.id,
    basketId: row.basket_id,
    basketName: row.basket_name,
    description: row.basket_desc,
    clause: row.basket_clause,
    resOrder: row.basket_res_order,
  }
}

/** 20.10's getLabelledUserById: "firstname lastname", a space even when one is missing. */
const personLabel = (firstname: string | null, lastname: string | null) => `${firstname ?? ''} ${lastname ?? ''}`

/** The user's groups, in their serial order. */
export async function groupsOf(db: Executor, userId: number): Promise<StoredGroup[]> {
  const rows = await db
    .selectFrom('usergroup_content as uc')
    .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
    .select(['g.id', 'g.group_id', 'g.group_desc'])
    .where('uc.user_id', '=', userId)
    .orderBy('g.id')
    .execute()
  return rows.map((g) => ({ id: g.id, groupId: g.group_id, groupDesc: g.group_desc }))
}

/** 20.10's getAvailableBasketsByGroupUser: the group's visible baskets the member has a preference row for. */
export async function homeBaskets(db: Executor, userId: number, group: StoredGroup): Promise<HomeBasketRow[]> {
  const rows = await db
    .selectFrom('groupbasket as gb')
    .innerJoin('baskets as b', 'b.basket_id', 'gb.basket_id')
    .innerJoin('users_baskets_preferences as p', (join) =>
      join
        .onRef('p.basket_id', '=', 'b.basket_id')
        .on('p.group_serial_id', '=', group.id)
        .on('p.user_serial_id', '=', userId),
    )
    .select([...BASKET_COLUMNS, 'p.color as preference_color'])
    .where('gb.group_id', '=', group.groupId)
    .where('b.is_visible', '=', 'Y')
    .orderBy('b.basket_order')
    .orderBy('b.basket_name')
    .execute()
  return rows.map((row) => ({ ...storedBasket(row), color: row.color, preferenceColor: row.preference_color }))
}

/** 20.10's getBasketsByLogin: every basket of the user's groups, by group code, basket order and name. */
export async function profileBaskets(db: Executor, userId: number): Promise<ProfileBasketRow[]> {
  const rows = await db
    .selectFrom('usergroup_content as uc')
    .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
    .innerJoin('groupbasket as gb', 'gb.group_id', 'g.group_id')
    .innerJoin('baskets as b', 'b.basket_id', 'gb.basket_id')
    .leftJoin('redirected_baskets as rb', (join) =>
      join
        .onRef('rb.basket_id', '=', 'b.basket_id')
        .onRef('rb.group_id', '=', 'g.id')
        .on('rb.owner_user_id', '=', userId),
    )
    .leftJoin('users as actual', 'actual.id', 'rb.actual_user_id')
    .select([
      ...BASKET_COLUMNS,
      'b.is_visible',
      'g.id as group_serial_id',
      'g.group_id',
      'g.group_desc',
      'actual.firstname',
      'actual.lastname',
      'rb.id as lent_id',
      (eb) =>
        eb
          .exists(
            eb
              .selectFrom('users_baskets_preferences as p')
              .select('p.id')
              .whereRef('p.basket_id', '=', 'b.basket_id')
              .whereRef('p.group_serial_id', '=', 'g.id')
              .where('p.user_serial_id', '=', userId),
          )
          .as('allowed'),
    ])
    .where('uc.user_id', '=', userId)
    .orderBy('g.group_id')
    .orderBy('b.basket_order')
    .orderBy('b.basket_name')
    .execute()
  return rows.map((row) => ({
    ...storedBasket(row),
    group: { id: row.group_serial_id, groupId: row.group_id, groupDesc: row.group_desc },
    visible: row.is_visible === 'Y',
    lentTo: row.lent_id === null ? null : personLabel(row.firstname, row.lastname),
    allowed: Boolean(row.allowed),
  }))
}

/**
 * Lent baskets (`redirected_baskets`): those the user lent (`owner`, in lending order) or those lent to the user
 * (`actual`, by basket order and name), as 20.10's getRedirectedBasketsByUserId and getAssignedBasketsByUserId.
 */
export async function lentBaskets(db: Executor, side: 'owner' | 'actual', userId: number): Promise<LentBasket[]> {
  const rows = await db
    .selectFrom('redirected_baskets as rb')
    .innerJoin('baskets as b', 'b.basket_id', 'rb.basket_id')
    .innerJoin('usergroups as g', 'g.id', 'rb.group_id')
    .leftJoin('users as owner', 'owner.id', 'rb.owner_user_id')
    .leftJoin('users as actual', 'actual.id', 'rb.actual_user_id')
    .select([
      ...BASKET_COLUMNS,
      'rb.id as lent_id',
      'rb.owner_user_id',
      'rb.actual_user_id',
      'g.id as group_serial_id',
      'g.group_id',
      'g.group_desc',
      'owner.user_id as owner_login',
      'owner.firstname as owner_firstname',
      'owner.lastname as owner_lastname',
      'actual.firstname as actual_firstname',
      'actual.lastname as actual_lastname',
    ])
    .where(side === 'owner' ? 'rb.owner_user_id' : 'rb.actual_user_id', '=', userId)
    .$call((q) => (side === 'owner' ? q.orderBy('rb.id') : q.orderBy('b.basket_order').orderBy('b.basket_name')))
    .execute()
  return rows.map((row) => ({
    id: row.lent_id,
    basket: storedBasket(row),
    ownerUserId: row.owner_user_id,
    ownerLogin: row.owner_login ?? '',
    ownerLabel: personLabel(row.owner_firstname, row.owner_lastname),
    actualUserId: row.actual_user_id,
    actualLabel: personLabel(row.actual_firstname, row.actual_lastname),
    group: { id: row.group_serial_id, groupId: row.group_id, groupDesc: row.group_desc },
  }))
}

/** What the profile shows of the user's baskets (`GET /rest/currentUser/profile`). */
export async function profileBasketsOf(db: Executor, userId: number): Promise<ProfileBaskets> {
  const [groups, baskets, lentBy, lentTo] = await Promise.all([
    groupsOf(db, userId),
    profileBaskets(db, userId),
    lentBaskets(db, 'owner', userId),
    lentBaskets(db, 'actual', userId),
  ])
  const regrouped = await Promise.all(
    groups.map(async (group) => ({ group, baskets: await homeBaskets(db, userId, group) })),
  )
  return { baskets, lentBy, lentTo, regrouped }
}
