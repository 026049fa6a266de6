import type { Actor } from '../actors/actor.js'
import { primaryEntityOf } from '../actors/actor.js'
import { expandMacros, type PerimeterContext } from '../search/expand-macros.js'
import { parseClause } from '../search/parser.js'
import { routeIdOf } from './action-request.js'
import { controlList } from './list-control.js'
import type { RedirectRule, RedirectUser } from './ports.js'
import type { ActionRouteIds, ActionsDependencies } from './run-action.js'

/** The keywords of `groupbasket_redirect` and the macros 20.10 reads them as (`PreProcessActionController`). */
const REDIRECT_KEYWORDS: Readonly<Record<string, string>> = {
  ALL_ENTITIES: '@all_entities',
  ENTITIES_JUST_BELOW: '@immediate_children[@my_primary_entity]',
  ENTITIES_BELOW: '@subentities[@my_entities]',
  ALL_ENTITIES_BELOW: '@subentities[@my_primary_entity]',
  ENTITIES_JUST_UP: '@parent_entity[@my_primary_entity]',
  MY_ENTITIES: '@my_entities',
  MY_PRIMARY_ENTITY: '@my_primary_entity',
  SAME_LEVEL_ENTITIES: '@sisters_entities[@my_primary_entity]',
}

/** One node of the entity tree of `GET .../getRedirect` (20.10's jstree shape). */
export interface RedirectEntityNode {
  readonly id: string
  readonly entity_id: string
  readonly entity_label: string
  /** `""` for a root, as 20.10's sample stores it (Mailroom keeps null for "no parent"). */
  readonly parent_entity_id: string
  readonly serialId: number
  readonly parent: string
  readonly icon: string
  readonly state: { readonly opened: boolean; readonly selected?: true; readonly disabled?: true }
  readonly allowed: boolean
  readonly text: string
}

/** Body of `GET .../actions/{actionId}/getRedirect`. */
export interface RedirectChoices {
  readonly entities: readonly RedirectEntityNode[]
  readonly users: readonly RedirectUser[]
  readonly keepDestForRedirection: boolean
}

/** The entity_ids the rules of one mode allow: those named, and those their keywords name for the owner. */
export function allowedEntities(rules: readonly RedirectRule[], owner: PerimeterContext | null): string[] {
  const allowed = rules.flatMap((rule) => (rule.entityId ? [rule.entityId] : []))
  const macros = rules.flatMap((rule) =>
    !rule.entityId && rule.keyword && REDIRECT_KEYWORDS[rule.keyword] ? [REDIRECT_KEYWORDS[rule.keyword]!] : [],
  )
  if (macros.length > 0 && owner !== null) {
    // Only the fixed macros above reach the parser: the table's keywords select them, never become clause text.
    const tree = expandMacros(parseClause(`destination in (${macros.join(', ')})`, { allowMacros: true }), owner)
    if (tree.kind === 'in') for (const item of tree.items) if (item.kind === 'string') allowed.push(item.value)
  }
  return [...new Set(allowed)]
}

/**
 * `GET .../actions/{actionId}/getRedirect`: the entities and people a letter of this basket may be redirected to
 * (`groupbasket_redirect`, keywords read for the basket's owner), every enabled entity as a tree with the allowed
 * ones marked and the caller's primary entity opened, and whether the assignee is kept by default.
 */
export async function redirectChoices(
  deps: ActionsDependencies,
  actor: Actor,
  ids: ActionRouteIds,
): Promise<RedirectChoices> {
  const scope = await controlList(deps, actor, ids)
  const store = deps.actions
  const actionId = routeIdOf(ids.actionId)
  const rules = actionId === null ? [] : await store.redirectRules(scope, actionId)
  const owner = rules.some((rule) => rule.keyword) ? await store.macroContextOf(scope.ownerId) : null
  const forEntities = new Set(
    allowedEntities(
      rules.filter((rule) => rule.mode === 'ENTITY'),
      owner,
    ),
  )
  const forUsers = allowedEntities(
    rules.filter((rule) => rule.mode === 'USERS'),
    owner,
  )
  const primary = primaryEntityOf(actor)?.entityId
  const entities = (await store.enabledEntities()).map((entity): RedirectEntityNode => {
    const allowed = forEntities.has(entity.entityId)
    const opened = allowed && entity.entityId === primary
    return {
      id: entity.entityId,
      entity_id: entity.entityId,
      entity_label: entity.label,
      parent_entity_id: entity.parentEntityId ?? '',
      serialId: entity.serialId,
      parent: entity.parentEntityId ? entity.parentEntityId : '#',
      icon: entity.parentEntityId ? 'fa fa-sitemap' : 'fa fa-building',
      state: allowed ? (opened ? { opened, selected: true } : { opened }) : { opened: false, disabled: true },
      allowed,
      text: entity.label,
    }
  })
  const users = forUsers.length > 0 ? await store.usersOf(forUsers) : []
  const keep = await store.parameterInt('keepDestForRedirection')
  return { entities, users, keepDestForRedirection: keep !== null && keep !== 0 }
}
