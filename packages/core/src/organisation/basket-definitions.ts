import { z } from 'zod'
import { MAARCH_ACTION_COMPONENTS } from '../actions/action-components.js'
import { code, INDEXING_KEYWORDS, serial, storable } from './document-fields.js'

/**
 * The baskets and actions of the organisation document (Maarch 20.10's `baskets`, `groupbasket`, `actions`,
 * `actions_groupbaskets`, `actions_categories` and `groupbasket_redirect`). A basket carries the groups it is
 * given to, each group the actions offered in that basket, each action its redirect choices: one item says
 * everything a basket's users get, and a change anywhere in it is a change of that basket.
 */

/** A JSON value 20.10 stores as is (a list's display, a click's data, an action's parameters). */
const jsonShape = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())])

/**
 * Every action component of Maarch 20.10 (`ActionMethodController::COMPONENTS_ACTIONS`, and `noConfirmAction`,
 * which the interface runs without a dialog). A document may name any of them; which ones Mailroom runs is
 * the actions' business (docs/organisation.md lists them), the others are refused when run.
 */
export const ACTION_COMPONENTS = MAARCH_ACTION_COMPONENTS
/** One of Maarch 20.10's action component names. */
export type ActionComponent = (typeof ACTION_COMPONENTS)[number]

/** The status an action that changes none sets (20.10's `_NOSTATUS_`). */
export const NO_STATUS = '_NOSTATUS_'

/** Categories of records an action may be restricted to (20.10's categories). */
export const ACTION_CATEGORIES = ['incoming', 'outgoing', 'internal', 'ged_doc', 'registeredMail'] as const

/** What a click on a row of a basket's list does in 20.10's client (groupbasket.list_event); others are kept as they are. */
export const LIST_EVENTS = ['documentDetails', 'processDocument', 'signatureBookAction'] as const

/** Keywords naming the services a redirect offers, relative to the user (groupbasket_redirect.keyword): the indexing keywords. */
export const REDIRECT_KEYWORDS = INDEXING_KEYWORDS

/** An action (actions, actions_categories). */
export const ActionDefinitionSchema = z.strictObject({
  /** actions.id, as links and history (`ACTION#<id>`) name the action. */
  id: serial,
  label: storable(255).min(1),
  /** A keyword some 20.10 screens use (`redirect`, `indexing`); empty for most. */
  keyword: storable(32).default(''),
  /** The status the action sets: a status code, or `_NOSTATUS_` (or null) to leave the status as it is. */
  status: storable(10).nullable().default(null),
  /** The component run (20.10's names, {@link ACTION_COMPONENTS}). */
  component: z.enum(ACTION_COMPONENTS),
  /** Writes a history line (`ACTION#<id>`) for each record acted on. */
  history: z.boolean().default(false),
  /** A system action (20.10's `is_system`: not removable from its administration). */
  system: z.boolean().default(false),
  /** 20.10's former page name (`confirm_status`, `close_mail`…), kept for the clients that read it. */
  actionPage: storable(255).nullable().default(null),
  /** The component's parameters (`{"requiredFields": []}`, `{"mode": "manual"}`…). */
  parameters: z.record(z.string(), z.unknown()).default({}),
  /** Categories of records the action applies to; none: every category. */
  categories: z
    .array(z.enum(ACTION_CATEGORIES))
    .default([])
    .refine((list) => new Set(list).size === list.length, 'each category once'),
})

/** A redirect choice of an action in a group's basket (groupbasket_redirect): a service, or services by keyword. */
export const RedirectChoiceSchema = z.strictObject({
  /** An entity code offered; null when a keyword names the services. */
  entity: code(32).nullable().default(null),
  keyword: z.enum(REDIRECT_KEYWORDS).nullable().default(null),
  /** `ENTITY`: the letter's service; `USERS`: its assignee among the services' members. */
  mode: z.enum(['ENTITY', 'USERS']),
})

/** An action offered in a group's basket (actions_groupbaskets) with its redirect choices. */
export const BasketActionLinkSchema = z.strictObject({
  /** The action's id. */
  action: serial,
  /** Offered on the list's rows (used_in_basketlist). */
  list: z.boolean().default(true),
  /** Offered on the letter's page (used_in_action_page). */
  page: z.boolean().default(true),
  /** The action run by default from the list (default_action_list); one per group's basket. */
  default: z.boolean().default(false),
  /** An extra condition over the records (the basket's clause language); empty: none. */
  where: storable(65536).default(''),
  redirects: z.array(RedirectChoiceSchema).default([]),
})

/** A basket given to a group (groupbasket): how its list shows and what a click does, and its actions. */
export const BasketGroupSchema = z.strictObject({
  /** The group's code. */
  group: code(32),
  /** What each row shows (list_display: `{templateColumns, subInfos}` in 20.10). */
  listDisplay: jsonShape.default([]),
  /** What a click on a row does (list_event: one of {@link LIST_EVENTS} for 20.10's client). */
  listEvent: storable(255).min(1).default('documentDetails'),
  /** The click's options (list_event_data: `{canUpdateData, defaultTab}`…). */
  listEventData: jsonShape.nullable().default(null),
  actions: z.array(BasketActionLinkSchema).default([]),
})

/** Sort orders a basket's list may name: columns, each optionally asc or desc. */
export const BASKET_RES_ORDER =
  /^\s*[A-Za-z_][A-Za-z0-9_]*(\s+(asc|desc))?(\s*,\s*[A-Za-z_][A-Za-z0-9_]*(\s+(asc|desc))?)*\s*$/i

/** A basket (baskets) with the groups it is given to. */
export const BasketDefinitionSchema = z.strictObject({
  /** basket_id: the code routes and preferences name the basket by. */
  id: code(32),
  name: storable(255).min(1),
  description: storable(255).default(''),
  /** The records the basket holds: a clause over the records with the owner's macros (`@user_id`…). */
  clause: storable(65536).min(1),
  /** A colour (`#2ea3f2`); null: the client's. */
  color: storable(16).nullable().default(null),
  /** Position among the baskets (basket_order); null: after those with one. */
  order: z.number().int().min(-2147483648).max(2147483647).nullable().default(null),
  /** The list's order (basket_res_order): columns, each optionally asc or desc. */
  resOrder: storable(255)
    .regex(BASKET_RES_ORDER, 'columns, each optionally followed by asc or desc, separated by commas')
    .default('res_id desc'),
  enabled: z.boolean().default(true),
  /** Shown in the home page's list (is_visible). */
  visible: z.boolean().default(true),
  groups: z.array(BasketGroupSchema).default([]),
})

/** An action as read. */
export type ActionDefinition = z.output<typeof ActionDefinitionSchema>
/** A basket as read. */
export type BasketDefinition = z.output<typeof BasketDefinitionSchema>
/** A basket's group as read. */
export type BasketGroupDefinition = z.output<typeof BasketGroupSchema>
/** An action offered in a group's basket as read. */
export type BasketActionLink = z.output<typeof BasketActionLinkSchema>
/** A redirect choice as read. */
export type RedirectChoice = z.output<typeof RedirectChoiceSchema>

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const redirectKey = (r: RedirectChoice) => `${r.entity ?? ''}\u0001${r.keyword ?? ''}\u0001${r.mode}`

/**
 * A basket in the order its parts mean nothing in (groups by code, actions by id, redirect choices by value):
 * what plan compares and export writes.
 */
export function canonicalBasket(basket: BasketDefinition): BasketDefinition {
  return {
    ...basket,
    groups: [...basket.groups]
      .sort((a, b) => byText(a.group, b.group))
      .map((group) => ({
        ...group,
        actions: [...group.actions]
          .sort((a, b) => a.action - b.action)
          .map((link) => ({
            ...link,
            redirects: [...link.redirects].sort((a, b) => byText(redirectKey(a), redirectKey(b))),
          })),
      })),
  }
}

/** An action with its categories in order (a set). */
export function canonicalAction(action: ActionDefinition): ActionDefinition {
  return { ...action, categories: [...action.categories].sort(byText) }
}
