import { defineErrors } from '../error-definition.js'

/** What a basket is called in a refusal: its name and its code, so an administrator finds it at once. */
export interface NamedBasket {
  readonly basketId: string
  readonly basketName: string
}

/**
 * Errors of the baskets (`/rest/home`, `/rest/resourcesList/...`). The list's refusals are Maarch 20.10's
 * (`ResourceListController::listControl`), with its messages and statuses.
 */
export const BASKET_ERRORS = defineErrors({
  // Not in 20.10, where such a clause fails the query (a 500) or counts 0 on the home page: Mailroom never runs
  // a clause it cannot parse, and never drops it silently either (the basket would show every record).
  BASKET_CLAUSE_REFUSED: {
    kind: 'bad-request',
    message: (args: NamedBasket & { readonly reason: string }) =>
      `Basket ${JSON.stringify(args.basketName)} (${args.basketId}) has a clause that cannot be used: ${args.reason}`,
  },
  BASKET_OR_GROUP_NOT_FOUND: { kind: 'forbidden', message: 'Group or basket does not exist' },
  BASKET_REDIRECTED: { kind: 'forbidden', message: 'Basket out of perimeter (redirected)' },
  BASKET_OUT_OF_PERIMETER: { kind: 'forbidden', message: 'Basket out of perimeter' },
  BASKET_GROUP_NOT_LINKED_TO_USER: { kind: 'forbidden', message: 'Group is not linked to this user' },
  BASKET_GROUP_NOT_LINKED_TO_BASKET: { kind: 'forbidden', message: 'Group is not linked to this basket' },
})
