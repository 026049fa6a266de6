import type { BasketAddress } from '@mailroom/sdk'

/** A basket of the console's hash (#/basket/{userId}/{groupId}/{basketId}[/{resId}]) and, maybe, one of its letters. */
export interface BasketPlace {
  readonly basket: BasketAddress
  readonly resId: number | null
}

const SERIAL = /^[1-9]\d{0,15}$/

/** The basket (and letter) the hash's parameters name; null when one is not a serial id. */
export function basketPlaceOf(params: readonly string[]): BasketPlace | null {
  if (params.length < 3 || params.length > 4 || !params.every((p) => SERIAL.test(p))) return null
  const [userId, groupId, basketId, resId] = params.map(Number) as [number, number, number, number | undefined]
  if (![userId, groupId, basketId, resId ?? 1].every(Number.isSafeInteger)) return null
  return { basket: { userId, groupId, basketId }, resId: resId ?? null }
}

/** The hash of a basket's list, or of one of its letters. */
export function basketHash(basket: BasketAddress, resId?: number): string {
  const list = `#/basket/${basket.userId}/${basket.groupId}/${basket.basketId}`
  return resId === undefined ? list : `${list}/${resId}`
}
