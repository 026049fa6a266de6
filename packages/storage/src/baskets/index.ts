export { type BasketSelectionContext, basketSelection, basketSelectionOfUser } from './basket-selection.js'
