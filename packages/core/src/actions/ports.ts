import type { Actor } from '../actors/actor.js'
import type { HistoryRow } from '../history/history-row.js'
import type { PerimeterContext } from '../search/expand-macros.js'
import type { SupportedActionComponent } from './action-components.js'
import type { ActionNote } from './action-request.js'
import type { RedirectData } from './redirect-data.js'

/** A basket as running an action needs it: its serial id, code, name and clause. */
export interface ActionBasket {
  readonly id: number
  readonly basketId: string
  readonly name: string
  readonly clause: string
}

/** A group's serial id and code. */
export interface ActionGroup {
  readonly id: number
  readonly groupId: string
}

/** The list a route acts in, once `listControl` accepted it. */
export interface BasketScope {
  readonly ownerId: number
  readonly group: ActionGroup
  readonly basket: ActionBasket
}

/** An action as `actions` stores it. */
export interface StoredAction {
  readonly id: number
  readonly label: string
  /** id_status: the status it sets, `_NOSTATUS_` or null for none. */
  readonly statusId: string | null
  /** Writes the `ACTION#<id>` history line. */
  readonly history: boolean
  readonly component: string | null
  readonly parameters: Readonly<Record<string, unknown>>
}

/** An action offered in a list (actions_groupbaskets joined to actions). */
export interface OfferedAction {
  readonly id: number
  readonly label: string
  readonly component: string | null
  readonly isDefault: boolean
  /** The extra condition a letter must meet for the action to be offered on its page; null: none. */
  readonly whereClause: string | null
}

/** A letter of the basket with who holds its lock. */
export interface LetterLock {
  readonly resId: number
  /** The user holding a live lock (its time not past); null when none does. */
  readonly lockedBy: number | null
}

/** The component's work on a letter, checked and ready to run. */
export type ComponentWork =
  | { readonly component: Exclude<SupportedActionComponent, 'redirectAction' | 'resMarkAsReadAction'> }
  | { readonly component: 'redirectAction'; readonly redirect: RedirectData }
  | {
      readonly component: 'resMarkAsReadAction'
      /** The basket read from: its code, or its serial id (its code found by storage; `fallback` when none has it). */
      readonly markedBasket: { readonly code: string } | { readonly serial: number; readonly fallback: string }
    }

/** Everything each letter of an action gets. */
export interface LetterActionPlan {
  readonly work: ComponentWork
  /** The status to set, or null for `_NOSTATUS_`. */
  readonly status: string | null
  readonly note: ActionNote | null
  /** The history rows a note writes, as `POST /rest/notes` words them. */
  readonly noteHistory: (resId: number, noteId: number) => readonly HistoryRow[]
  /** The action's history line (without its record), or null when the action writes none. */
  readonly history: Omit<HistoryRow, 'recordId'> | null
}

/** How one letter went: changed, or left as it was with the reason the caller is told (null: skipped unsaid). */
export type LetterOutcome = { readonly done: true } | { readonly done: false; readonly error: string | null }

/** Storage side of running actions on a basket's letters. */
export interface ActionsStore {
  /** The action, when the group's basket offers it (actions_groupbaskets); else null. */
  linkedAction(scope: BasketScope, actionId: number): Promise<StoredAction | null>
  /** The action of this id, linked or not; null when there is none. */
  action(actionId: number): Promise<StoredAction | null>
  /**
   * Of `resIds`, the letters the basket holds for its owner, with their locks. `reader`: the caller, who is the
   * owner of their own baskets (the owner is then not read again).
   */
  lettersInBasket(scope: BasketScope, resIds: readonly number[], reader: Actor): Promise<LetterLock[]>
  /** Of `resIds`, the letters that exist, with their locks, in the basket or not. */
  locksOf(resIds: readonly number[]): Promise<LetterLock[]>
  /**
   * The letters in one transaction: locks their rows, checks again that the basket holds each and that no one else
   * holds its lock, then, for the letters that pass and that the component takes, the component's work, the status,
   * the lock cleared, the note and the history, each kind of write one statement for all of them. A letter refused
   * is left as it was; a failure anywhere leaves every letter as it was. The outcomes in `resIds` order.
   */
  actOnLetters(
    actor: Actor,
    scope: BasketScope,
    resIds: readonly number[],
    plan: LetterActionPlan,
    meta: ActionMeta,
  ): Promise<LetterOutcome[]>
  /** The actions the group's basket offers in its list (`list`) or on a letter's page (`page`). */
  offeredActions(scope: BasketScope, usedIn: 'list' | 'page'): Promise<OfferedAction[]>
  /** Whether the letter meets an action's extra condition (macros expanded for the actor). */
  letterMeets(actor: Actor, whereClause: string, resId: number): Promise<boolean>
  /** The categories each action is restricted to (actions_categories); an action absent from the map has none. */
  categoriesOf(actionIds: readonly number[]): Promise<Map<number, string[]>>
  /**
   * For `checkCloseWithFieldsAction`: the labels of the required custom fields (`indexingCustomField_<id>`) that
   * the letter's indexing model shows and the letter leaves empty, with its chrono.
   */
  emptyRequiredFields(
    resId: number,
    requiredFields: readonly string[],
  ): Promise<{ chrono: string | null; fields: string[] }>
  /** The redirect choices of an action in the group's basket (`groupbasket_redirect`). */
  redirectRules(scope: BasketScope, actionId: number): Promise<RedirectRule[]>
  /** The macro context of the basket's owner (her entities, the tree); null for a user that is gone. */
  macroContextOf(userId: number): Promise<PerimeterContext | null>
  /** Every enabled entity, by parent (20.10's order). */
  enabledEntities(): Promise<RedirectTreeEntity[]>
  /** The users of these entities not deleted, absent or suspended, by last then first name. */
  usersOf(entityIds: readonly string[]): Promise<RedirectUser[]>
  /** `parameters.param_value_int` of this id, or null. */
  parameterInt(id: string): Promise<number | null>
}

/** One row of `groupbasket_redirect`: an entity, or a keyword naming entities relative to the basket's owner. */
export interface RedirectRule {
  readonly mode: string
  readonly entityId: string | null
  readonly keyword: string | null
}

/** A user a letter may be redirected to, as 20.10's getRedirect lists them. */
export interface RedirectUser {
  readonly id: number
  readonly user_id: string
  readonly firstname: string | null
  readonly lastname: string | null
  readonly labelToDisplay: string
  readonly descriptionToDisplay: string | null
}

/** An enabled entity as the redirect tree shows it. */
export interface RedirectTreeEntity {
  readonly serialId: number
  readonly entityId: string
  readonly label: string
  readonly parentEntityId: string | null
}

/** About the request, for the history rows. */
export interface ActionMeta {
  readonly remoteIp?: string
}
