export { type BasketSelectionContext, basketSelection, basketSelectionOfUser } from './basket-selection.js'
export { kyselyBasketStore } from './kysely-basket-store.js'
