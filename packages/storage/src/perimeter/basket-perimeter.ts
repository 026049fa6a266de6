import { type BasketClauseSource, basketClauseTree } from '@mailroom/core'
import type { PerimeterContext, PerimeterEntity } from '@mailroom/core/internal'
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { compileBasketClause } from '../search/compile-clause.js'

type Executor = Kysely<Database>

/**
 * The SQL condition over `res_view_letterbox` of a basket's clause for its owner (its macros; for a lent basket, the
 * colleague's who lent it): the records the basket holds. Core reads the clause (`basketClauseTree`: an
 * administrator's, sub-selects over every allow-listed table), as for the basket's list; a clause the language
 * cannot take throws BASKET_CLAUSE_REFUSED naming the basket and the part.
 */
export function basketClauseCondition(basket: BasketClauseSource, owner: PerimeterContext): Expression<SqlBool> {
  return sql<SqlBool>`(${compileBasketClause(basketClauseTree(basket, owner))})`
}

/** One basket that widens a user's perimeter, with the user whose macros its clause is expanded with. */
export interface PerimeterBasket {
  readonly basketId: string
  readonly clause: string
  /** The basket's owner: the user, or for a lent basket the colleague who lent it. */
  readonly ownerId: number
}

/**
 * The baskets that widen a user's perimeter, as 20.10's getUserDataClause reads them (mode `baskets`): the baskets
 * given to one of the user's groups that the user has a preference row for (20.10's `allowed`), whatever their
 * `enabled` or `is_visible`; and the baskets lent to the user (`redirected_baskets.actual_user_id`) by an owner,
 * whose group still exists.
 */
export async function perimeterBaskets(
  db: Executor,
  userId: number,
  groupSerialIds: readonly number[],
): Promise<PerimeterBasket[]> {
  const { rows } = await sql<{ basket_id: string; basket_clause: string; owner_id: number }>`
    select b.basket_id, b.basket_clause, ${sql.val(userId)}::int as owner_id
      from baskets b
      where exists (select 1 from groupbasket gb
        join usergroups ug on ug.group_id = gb.group_id
        join users_baskets_preferences p on p.group_serial_id = ug.id and p.basket_id = gb.basket_id
        where gb.basket_id = b.basket_id and ug.id = any(${sql.val([...groupSerialIds])}::int[])
          and p.user_serial_id = ${sql.val(userId)})
    union
    select b.basket_id, b.basket_clause, rb.owner_user_id as owner_id
      from redirected_baskets rb
      join baskets b on b.basket_id = rb.basket_id
      join usergroups ug on ug.id = rb.group_id
      where rb.actual_user_id = ${sql.val(userId)}
    order by basket_id, owner_id`.execute(db)
  return rows.map((r) => ({ basketId: r.basket_id, clause: r.basket_clause, ownerId: Number(r.owner_id) }))
}

/**
 * The macro contexts of the given users (the owners of baskets lent to someone), over the entity tree; a user
 * that no longer exists is absent.
 */
export async function perimeterContextsOf(
  db: Executor,
  userIds: readonly number[],
  allEntities: readonly PerimeterEntity[],
): Promise<Map<number, PerimeterContext>> {
  const contexts = new Map<number, PerimeterContext>()
  if (userIds.length === 0) return contexts
  const users = await db
    .selectFrom('users')
    .select(['id', 'user_id', 'mail'])
    .where('id', '=', sql<number>`any(${sql.val([...userIds])}::int[])`)
    .execute()
  const memberships = await db
    .selectFrom('users_entities')
    .select(['user_id', 'entity_id', 'primary_entity'])
    .where('user_id', '=', sql<number>`any(${sql.val([...userIds])}::int[])`)
    .orderBy('user_id')
    .orderBy('entity_id')
    .execute()
  const byCode = new Map(allEntities.map((e) => [e.entityId, e]))
  for (const user of users) {
    const entities = memberships.flatMap((m) => {
      const entity = m.user_id === user.id ? byCode.get(m.entity_id) : undefined
      return entity ? [{ id: entity.id, entityId: entity.entityId, primary: m.primary_entity === 'Y' }] : []
    })
    // As primaryEntityOf: the flagged one, else the first.
    const primary = entities.find((e) => e.primary) ?? entities[0] ?? null
    contexts.set(user.id, {
      userId: user.id,
      login: user.user_id,
      email: user.mail,
      entities: entities.map(({ id, entityId }) => ({ id, entityId })),
      primaryEntity: primary ? { id: primary.id, entityId: primary.entityId } : null,
      allEntities,
    })
  }
  return contexts
}
