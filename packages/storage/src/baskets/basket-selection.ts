import type { Actor, BasketClauseSource } from '@mailroom/core'
import { basketClauseTree } from '@mailroom/core'
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import { compileBasketClause } from '../search/compile-clause.js'
import { KyselyUserRepository } from '../users/kysely-user-repository.js'

/** What a basket's selection is computed with: the database and the perimeter's entity tree. */
export interface BasketSelectionContext {
  readonly db: Kysely<Database>
  readonly perimeter: PerimeterGuard
}

/**
 * The SQL condition over `res_view_letterbox` of the records `basket` holds for `owner`: its clause, macros
 * expanded for the owner, compiled to parameterised SQL. As in Maarch 20.10 (`BasketModel::getResourceNumberByClause`,
 * `ResourceListController::get`), the basket's clause alone decides: it is not ANDed with the owner's group
 * perimeter (baskets widen the perimeter instead). For a lent basket, `owner` is the colleague who lent it, not
 * the reader. Throws BASKET_CLAUSE_REFUSED (naming the basket) for a clause the language cannot take.
 */
export async function basketSelection(
  context: BasketSelectionContext,
  basket: BasketClauseSource,
  owner: Actor,
): Promise<Expression<SqlBool>> {
  const tree = basketClauseTree(basket, await context.perimeter.macroContext(context.db, owner))
  return sql<SqlBool>`(${compileBasketClause(tree)})`
}

/**
 * basketSelection for the user of serial id `ownerUserId`; a user that no longer exists owns no record (a lent
 * basket whose owner was removed holds nothing rather than failing the reader's home page). `reader`: the
 * authenticated caller, who is the owner of their own baskets, so that the owner is not read again for each
 * basket (the home page counts a dozen).
 */
export async function basketSelectionOfUser(
  context: BasketSelectionContext,
  basket: BasketClauseSource,
  ownerUserId: number,
  reader?: Actor,
): Promise<Expression<SqlBool>> {
  const owner = reader?.id === ownerUserId ? reader : await new KyselyUserRepository(context.db).loadActor(ownerUserId)
  return owner ? basketSelection(context, basket, owner) : sql<SqlBool>`false`
}
