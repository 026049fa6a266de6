import type { NamedBasket } from '../errors/catalogue/baskets.js'
import { type DomainError, domainError, isDomainError } from '../errors/domain-error.js'
import type { ClauseAst } from '../search/ast.js'
import { expandMacros, type PerimeterContext } from '../search/expand-macros.js'
import { parseClause } from '../search/parser.js'

/** A basket as its selection needs it: its names (for a refusal) and its clause (`baskets.basket_clause`). */
export interface BasketClauseSource extends NamedBasket {
  readonly clause: string
}

/** The prefix every clause syntax message starts with; a basket's refusal says what is wrong without it. */
const CLAUSE_PREFIX = /^Bad Request: clause is not valid: /

/**
 * The records a basket holds, as a clause tree over `res_view_letterbox` with the macros (`@user_id`,
 * `@my_entities`, `@subentities[…]`…) expanded for the basket's owner: Maarch 20.10 runs
 * `PreparedClauseController::getPreparedClause(clause, owner's login)` and nothing else (no perimeter is ANDed:
 * a basket widens the perimeter instead). A clause the language cannot take is refused with
 * BASKET_CLAUSE_REFUSED naming the basket and the part, never dropped (an empty condition would select every
 * record). An empty clause is refused too: 20.10's list would show every record, its home page fail.
 */
export function basketClauseTree(basket: BasketClauseSource, owner: PerimeterContext): ClauseAst {
  if (basket.clause.trim() === '') throw basketClauseRefusal(basket, 'the clause is empty')
  try {
    return expandMacros(parseClause(basket.clause, { allowMacros: true, author: 'administrator' }), owner)
  } catch (error) {
    if (!isDomainError(error)) throw error
    throw basketClauseRefusal(basket, error.message.replace(CLAUSE_PREFIX, ''))
  }
}

/** BASKET_CLAUSE_REFUSED for `basket`, saying why from the clause language's own error. */
export function basketClauseRefusal(basket: NamedBasket, reason: string): DomainError {
  return domainError('BASKET_CLAUSE_REFUSED', {
    basketId: basket.basketId,
    basketName: basket.basketName,
    reason,
  })
}
