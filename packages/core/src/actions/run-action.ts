import type { Actor } from '../actors/actor.js'
import type { BasketStore } from '../baskets/ports.js'
import { fail } from '../errors/domain-error.js'
import { noteHistory } from '../notes/note-use-cases.js'
import type { NotesStore } from '../notes/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { componentStanding } from './action-components.js'
import { type ActionRequest, parseActionRequest, routeIdOf } from './action-request.js'
import { controlList, type ListRouteIds } from './list-control.js'
import type {
  ActionMeta,
  ActionsStore,
  BasketScope,
  ComponentWork,
  LetterActionPlan,
  LetterLock,
  StoredAction,
} from './ports.js'
import { parseRedirectData } from './redirect-data.js'

/** What the actions' use cases need from the outside. */
export interface ActionsDependencies {
  /** The baskets' store: the list's checks (`listControl`). */
  readonly baskets: BasketStore
  readonly actions: ActionsStore
  /** The notes' store: an action's note names entities that must exist, as `POST /rest/notes` checks. */
  readonly notes: Pick<NotesStore, 'countEntities'>
}

/** The ids of an action's route. */
export interface ActionRouteIds extends ListRouteIds {
  readonly actionId: string | undefined
}

/**
 * 20.10's answer when some letters were not changed: the reasons (`errors`); or, when every letter is locked by
 * someone else, `success: 'No resource to process'`. Null: every letter changed (204).
 */
export type ActionRunAnswer =
  | { readonly errors: readonly string[] }
  | { readonly success: 'No resource to process' }
  | null

/** "No status": the action leaves the letter's status as it is. */
const NO_STATUS = '_NOSTATUS_'

/** True when someone other than the actor holds a live lock on the letter. */
export function lockedByAnother(letter: LetterLock, actor: Pick<Actor, 'id'>): boolean {
  return letter.lockedBy !== null && letter.lockedBy !== actor.id
}

/** The status an action sets: its parameters' `successStatus`, else its own; null for none. */
export function statusSetBy(action: StoredAction): string | null {
  const success = action.parameters.successStatus
  const status = typeof success === 'string' && success !== '' ? success : action.statusId
  return status === null || status === '' || status === NO_STATUS ? null : status
}

/** The history line 20.10 writes for an action: `ACTION#<id>`, "<basket name> : <action label>". */
export function actionHistory(action: StoredAction, basketName: string): LetterActionPlan['history'] {
  if (!action.history) return null
  return {
    tableName: 'res_letterbox',
    eventType: `ACTION#${action.id}`,
    eventId: String(action.id),
    module: 'resource',
    info: basketName === '' ? action.label : `${basketName} : ${action.label}`,
  }
}

/** The component's work, checked before any letter is touched; refuses a component Mailroom does not run. */
function componentWork(action: StoredAction, request: ActionRequest, scope: BasketScope): ComponentWork {
  const standing = componentStanding(action.component)
  if (standing === 'missing') fail('ACTION_COMPONENT_MISSING')
  if (standing === 'unknown') fail('ACTION_METHOD_UNKNOWN')
  if (standing === 'unsupported') fail('ACTION_COMPONENT_NOT_SUPPORTED')
  if (standing === 'redirectAction') return { component: standing, redirect: parseRedirectData(request.data) }
  if (standing === 'resMarkAsReadAction') {
    // The client names the basket the copy is read from, by serial id (20.10's client) or code; without it, the
    // basket the action runs in (20.10 fails there).
    const named = request.data.basketId
    const serial = databaseIdOf(named)
    if (serial !== null) return { component: standing, markedBasket: { serial, fallback: scope.basket.basketId } }
    const code = typeof named === 'string' && named !== '' && named.length <= 32 ? named : scope.basket.basketId
    return { component: standing, markedBasket: { code } }
  }
  return { component: standing }
}

/**
 * `PUT .../actions/{actionId}`, in 20.10's order: the body's letters, the list, the action's link and component,
 * then every letter must be in the basket (else 403, nothing written); letters locked by someone else are left
 * out; the others get the component's work, the status, the lock cleared, the note and the history line, in one
 * transaction where each kind of write is one statement for every letter (all or nothing for each letter: one the
 * component refuses is left as it was, a failure leaves them all). The action's `requiredFields` are not checked
 * here, as 20.10 runs it (`ResourceListController::setAction` reads them from an undefined `$parameters`, so its
 * check never applies): its client asks `checkCloseWithFieldsAction` first and sends only the letters it allows.
 */
export async function runAction(
  deps: ActionsDependencies,
  actor: Actor,
  ids: ActionRouteIds,
  body: unknown,
  meta: ActionMeta = {},
): Promise<ActionRunAnswer> {
  const request = parseActionRequest(body)
  const scope = await controlList(deps, actor, ids)
  const actionId = routeIdOf(ids.actionId)
  const action =
    (actionId === null ? null : await deps.actions.linkedAction(scope, actionId)) ?? fail('ACTION_NOT_LINKED')
  const work = componentWork(action, request, scope)
  if (request.note && request.note.entities.length > 0) {
    const known = await deps.notes.countEntities(request.note.entities)
    if (known !== request.note.entities.length) fail('NOTE_ENTITIES_UNKNOWN')
  }
  const letters = await deps.actions.lettersInBasket(scope, request.resources, actor)
  if (letters.length !== request.resources.length) fail('ACTION_RESOURCES_OUT_OF_BASKET')
  const free = new Set(letters.filter((letter) => !lockedByAnother(letter, actor)).map((letter) => letter.resId))
  const toAct = request.resources.filter((resId) => free.has(resId))
  if (toAct.length === 0) return { success: 'No resource to process' }
  const plan: LetterActionPlan = {
    work,
    status: statusSetBy(action),
    note: request.note,
    noteHistory,
    history: actionHistory(action, scope.basket.name),
  }
  const outcomes = await deps.actions.actOnLetters(actor, scope, toAct, plan, meta)
  const errors = outcomes.flatMap((outcome) => (!outcome.done && outcome.error !== null ? [outcome.error] : []))
  return errors.length > 0 ? { errors } : null
}
