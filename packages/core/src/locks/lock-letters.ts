import { LOCK_SECONDS } from '../actions/action-limits.js'
import { parseActionResources } from '../actions/action-request.js'
import { controlList, type ListRouteIds } from '../actions/list-control.js'
import type { ActionsStore, BasketScope, LetterLock } from '../actions/ports.js'
import { lockedByAnother } from '../actions/run-action.js'
import type { Actor } from '../actors/actor.js'
import type { BasketStore } from '../baskets/ports.js'
import { fail } from '../errors/domain-error.js'
import type { LocksStore } from './ports.js'

/** What the locks' use cases need: the list's checks and letters (the actions' store) and the locks. */
export interface LocksDependencies {
  readonly baskets: BasketStore
  readonly actions: Pick<ActionsStore, 'lettersInBasket'>
  readonly locks: LocksStore
}

/** Body of `PUT .../locked`: how many of the letters someone else holds, who, and the letters left to process. */
export interface LockedLetters {
  readonly countLockedResources: number
  readonly lockers: readonly string[]
  readonly resourcesToProcess: readonly number[]
}

/** The letters of the body, every one in the basket (else 403 `Resources out of perimeter`), with their locks. */
async function lettersOfBody(
  deps: LocksDependencies,
  actor: Actor,
  ids: ListRouteIds,
  body: unknown,
): Promise<{ scope: BasketScope; letters: LetterLock[] }> {
  const resources = parseActionResources(body)
  const scope = await controlList(deps, actor, ids)
  const letters = await deps.actions.lettersInBasket(scope, resources, actor)
  if (letters.length !== resources.length) fail('ACTION_RESOURCES_OUT_OF_BASKET')
  return { scope, letters }
}

/** `PUT .../locked`: who holds which of the letters (20.10's `areLocked`). */
export async function lockedLetters(
  deps: LocksDependencies,
  actor: Actor,
  ids: ListRouteIds,
  body: unknown,
): Promise<LockedLetters> {
  const { letters } = await lettersOfBody(deps, actor, ids, body)
  const held = letters.filter((letter) => lockedByAnother(letter, actor))
  const lockers = await deps.locks.userLabels([...new Set(held.map((letter) => letter.lockedBy as number))])
  return {
    countLockedResources: held.length,
    lockers,
    resourcesToProcess: letters.filter((letter) => !lockedByAnother(letter, actor)).map((letter) => letter.resId),
  }
}

/** The letters of the body no one but the actor holds (each in the basket, else 403). */
async function freeLetters(deps: LocksDependencies, actor: Actor, ids: ListRouteIds, body: unknown): Promise<number[]> {
  const { letters } = await lettersOfBody(deps, actor, ids, body)
  return letters.filter((letter) => !lockedByAnother(letter, actor)).map((letter) => letter.resId)
}

/** `PUT .../lock`: locks for a minute the letters no one else holds (the client renews it while the letter is open). */
export async function lockLetters(
  deps: LocksDependencies,
  actor: Actor,
  ids: ListRouteIds,
  body: unknown,
): Promise<void> {
  const free = await freeLetters(deps, actor, ids, body)
  if (free.length > 0) await deps.locks.lock(actor, free, LOCK_SECONDS)
}

/** `PUT .../unlock`: clears the actor's locks (and expired ones) on the letters; another's live lock stays. */
export async function unlockLetters(
  deps: LocksDependencies,
  actor: Actor,
  ids: ListRouteIds,
  body: unknown,
): Promise<void> {
  const free = await freeLetters(deps, actor, ids, body)
  if (free.length > 0) await deps.locks.unlock(actor, free)
}
