export { type BasketSelectionContext, basketSelection, basketSelectionOfUser } from './basket-selection.js'
export { createBasketsServices } from './create-baskets-services.js'
export { kyselyBasketStore } from './kysely-basket-store.js'
