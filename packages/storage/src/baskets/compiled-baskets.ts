import type { BasketClauseSource } from '@mailroom/core'
import type { PerimeterContext, PerimeterEntity } from '@mailroom/core/internal'

/** How many compiled clauses one entity tree keeps; past it the oldest go first. */
export const MAX_COMPILED_BASKETS = 2_000

/**
 * Basket clauses compiled for their owners, kept between requests: a home page parsed, expanded and compiled its
 * dozen clauses on every request (~14 ms of CPU at a million records), though they change only when an
 * administrator edits one. Nothing here can be stale: an entry is found only under everything its compilation
 * read — the clause's text as the caller just read it from the database, the owner's macro values (`@user_id`,
 * `@my_entities`…, from the actor authentication gave the request) and the entity tree the bracketed macros walk
 * (entries live in a map per tree, which the tree's refresh replaces when an entity changed). A refusal
 * (BASKET_CLAUSE_REFUSED) is kept as well, and thrown again.
 */
export class CompiledBaskets<T> {
  #byTree = new WeakMap<readonly PerimeterEntity[], Map<string, { readonly value: T } | { readonly error: unknown }>>()

  /** The compiled form of `basket`'s clause for `owner`, from `compile` the first time. */
  of(basket: BasketClauseSource, owner: PerimeterContext, compile: () => T): T {
    let entries = this.#byTree.get(owner.allEntities)
    if (entries === undefined) {
      entries = new Map()
      this.#byTree.set(owner.allEntities, entries)
    }
    const entry = remembered(entries, keyOf(basket, owner), MAX_COMPILED_BASKETS, () => {
      try {
        return { value: compile() }
      } catch (error) {
        return { error }
      }
    })
    if ('error' in entry) throw entry.error
    return entry.value
  }
}

/** `map`'s value for `key`, from `create` the first time; past `max` entries the oldest goes first. */
export function remembered<K, V>(map: Map<K, V>, key: K, max: number, create: () => V): V {
  const known = map.get(key)
  if (known !== undefined) return known
  const value = create()
  if (map.size >= max) map.delete(map.keys().next().value as K)
  map.set(key, value)
  return value
}

/** Every input of a compilation but the entity tree: the basket's names (a refusal names it), clause and owner. */
function keyOf(basket: BasketClauseSource, owner: PerimeterContext): string {
  const { allEntities: _tree, ...macros } = owner
  return JSON.stringify([basket.basketId, basket.basketName, basket.clause, macros])
}
