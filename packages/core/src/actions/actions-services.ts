import type { Actor } from '../actors/actor.js'
import {
  type LockedLetters,
  type LocksDependencies,
  lockedLetters,
  lockLetters,
  unlockLetters,
} from '../locks/lock-letters.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import type { ListRouteIds } from './list-control.js'
import {
  type CloseWithFieldsCheck,
  checkCloseWithFields,
  type OfferedActions,
  offeredActions,
} from './offered-actions.js'
import type { ActionMeta } from './ports.js'
import { type RedirectChoices, redirectChoices } from './redirect-choices.js'
import { type ActionRouteIds, type ActionRunAnswer, type ActionsDependencies, runAction } from './run-action.js'

/** Running actions on a basket's letters and locking them (`/rest/resourcesList/users/.../baskets/...`). */
export interface ActionsServices {
  /** GET .../actions[?resId=]. */
  offered(actor: Actor, ids: ListRouteIds, resId: string | undefined): Promise<OfferedActions>
  /** PUT .../actions/{actionId}: null when every letter changed (204). */
  run(actor: Actor, ids: ActionRouteIds, body: unknown, meta?: ActionMeta): Promise<ActionRunAnswer>
  /** POST .../actions/{actionId}/checkCloseWithFieldsAction. */
  checkCloseWithFields(actor: Actor, ids: ActionRouteIds, body: unknown): Promise<CloseWithFieldsCheck>
  /** GET .../actions/{actionId}/getRedirect. */
  redirectChoices(actor: Actor, ids: ActionRouteIds): Promise<RedirectChoices>
  /** PUT .../locked. */
  locked(actor: Actor, ids: ListRouteIds, body: unknown): Promise<LockedLetters>
  /** PUT .../lock. */
  lock(actor: Actor, ids: ListRouteIds, body: unknown): Promise<void>
  /** PUT .../unlock. */
  unlock(actor: Actor, ids: ListRouteIds, body: unknown): Promise<void>
}

/** The actions' and locks' use cases over their ports (storage wires the ports). */
export function createActionsUseCases(
  deps: ActionsDependencies & LocksDependencies & { readonly perimeter: RecordPerimeter },
): ActionsServices {
  return {
    offered: (actor, ids, resId) => offeredActions(deps, actor, ids, resId),
    run: (actor, ids, body, meta) => runAction(deps, actor, ids, body, meta),
    checkCloseWithFields: (actor, ids, body) => checkCloseWithFields(deps, actor, ids, body),
    redirectChoices: (actor, ids) => redirectChoices(deps, actor, ids),
    locked: (actor, ids, body) => lockedLetters(deps, actor, ids, body),
    lock: (actor, ids, body) => lockLetters(deps, actor, ids, body),
    unlock: (actor, ids, body) => unlockLetters(deps, actor, ids, body),
  }
}
