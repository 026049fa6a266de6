import { Alert } from '../ui/alert.js'
import { useConsole } from '../ui/context.js'
import { basketPlaceOf } from './basket-address.js'
import { BasketLetterPage } from './basket-letter-page.js'
import { BasketListPage } from './basket-list-page.js'

/** #/basket/{userId}/{groupId}/{basketId}: the basket's list; with /{resId}: one of its letters. */
export function BasketPage(props: { readonly params: readonly string[] }) {
  const { t } = useConsole()
  const place = basketPlaceOf(props.params)
  if (place === null) return <Alert kind="error" text={t('basketNotFound')} />
  const key = props.params.join('/')
  return place.resId === null ? (
    <BasketListPage basket={place.basket} key={key} />
  ) : (
    <BasketLetterPage basket={place.basket} resId={place.resId} key={key} />
  )
}
