import type { Actor, BasketClauseSource } from '@mailroom/core'
import { basketClauseTree } from '@mailroom/core'
import { type CompiledQuery, type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import { compileBasketClause } from '../search/compile-clause.js'
import { KyselyUserRepository } from '../users/kysely-user-repository.js'
import { CompiledBaskets, remembered } from './compiled-baskets.js'

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
  return (await compiledBasket(context, basket, owner)).condition
}

/** A basket's clause compiled for its owner: its condition, and its count statement ready to run. */
export interface CompiledBasket {
  readonly condition: Expression<SqlBool>
  /** `select count(*)::int as n from res_view_letterbox where <condition>`, compiled once. */
  readonly count: CompiledQuery<{ n: number }>
  /** Tells this compilation from any other (compilations are immutable): countsStatement's cache key. */
  readonly serial: number
}

let compilations = 0

/** How many combined count statements one Mailroom keeps; past it the oldest go first. */
const MAX_COUNT_STATEMENTS = 2_000

/** A Mailroom's compiled baskets, and its statements counting several of them (countsStatement). */
interface BasketCaches {
  readonly compiled: CompiledBaskets<CompiledBasket>
  readonly counts: Map<string, CompiledQuery<Record<string, number>>>
}

/** One per Mailroom: its PerimeterGuard is the one the entity tree comes from. */
const caches = new WeakMap<PerimeterGuard, BasketCaches>()

function cachesOf(perimeter: PerimeterGuard): BasketCaches {
  let found = caches.get(perimeter)
  if (found === undefined) {
    found = { compiled: new CompiledBaskets(), counts: new Map() }
    caches.set(perimeter, found)
  }
  return found
}

/** `select count(*)::int as n from res_view_letterbox where <condition>`, not compiled yet. */
function countWhere(db: Kysely<Database>, condition: Expression<SqlBool>) {
  return db.selectFrom('res_view_letterbox').select(sql<number>`count(*)::int`.as('n')).where(condition)
}

/** basketSelection's condition and count statement, compiled at the first request and kept (CompiledBaskets). */
export async function compiledBasket(
  context: BasketSelectionContext,
  basket: BasketClauseSource,
  owner: Actor,
): Promise<CompiledBasket> {
  const macros = await context.perimeter.macroContext(context.db, owner)
  return cachesOf(context.perimeter).compiled.of(basket, macros, () => {
    const condition = sql<SqlBool>`(${compileBasketClause(basketClauseTree(basket, macros))})`
    return { condition, count: countWhere(context.db, condition).compile(), serial: ++compilations }
  })
}

/**
 * One statement counting every basket given, `select (select count(*)… where <basket 1>) as n0, …`: a home page
 * counts a dozen baskets, and a round trip each cost more of the event loop than anything else the route did.
 * Compiled once per set of compilations (a home asks the same set each time) and kept beside them.
 */
export function countsStatement(
  context: BasketSelectionContext,
  baskets: readonly CompiledBasket[],
): CompiledQuery<Record<string, number>> {
  const key = baskets.map((b) => b.serial).join(',')
  return remembered(
    cachesOf(context.perimeter).counts,
    key,
    MAX_COUNT_STATEMENTS,
    () =>
      context.db
        .selectNoFrom(baskets.map((basket, index) => countWhere(context.db, basket.condition).as(`n${index}`)))
        .compile() as CompiledQuery<Record<string, number>>,
  )
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
  const owner = await ownerOf(context, ownerUserId, reader)
  return owner ? basketSelection(context, basket, owner) : sql<SqlBool>`false`
}

/** compiledBasket for the user of serial id `ownerUserId`, as basketSelectionOfUser; null for no such user. */
export async function compiledBasketOfUser(
  context: BasketSelectionContext,
  basket: BasketClauseSource,
  ownerUserId: number,
  reader?: Actor,
): Promise<CompiledBasket | null> {
  const owner = await ownerOf(context, ownerUserId, reader)
  return owner ? compiledBasket(context, basket, owner) : null
}

function ownerOf(context: BasketSelectionContext, ownerUserId: number, reader?: Actor): Promise<Actor | null> {
  if (reader?.id === ownerUserId) return Promise.resolve(reader)
  return new KyselyUserRepository(context.db).loadActor(ownerUserId)
}
