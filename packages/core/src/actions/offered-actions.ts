import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import { INDEXING_CATEGORIES } from '../organisation/organisation-schema.js'
import type { RecordPerimeter } from '../perimeter/ports.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { parseActionResources, routeIdOf } from './action-request.js'
import { controlList, type ListRouteIds } from './list-control.js'
import { type ActionRouteIds, type ActionsDependencies, lockedByAnother } from './run-action.js'

/** One action of `GET .../actions`, as 20.10 answers it (`categories` only on a letter's page). */
export interface OfferedActionItem {
  readonly id: number
  readonly label: string
  readonly component: string | null
  readonly categories?: readonly string[]
}

/** Body of `GET .../actions`. */
export interface OfferedActions {
  readonly actions: readonly OfferedActionItem[]
}

/**
 * `GET .../actions[?resId=]`: the actions the group's basket offers in its list, or, with `resId`, on that
 * letter's page: only those whose extra condition the letter meets, each with the categories it is restricted to
 * (every category when none). The default action first, then by label.
 */
export async function offeredActions(
  deps: ActionsDependencies,
  actor: Actor,
  ids: ListRouteIds,
  resIdText: string | undefined,
): Promise<OfferedActions> {
  const scope = await controlList(deps, actor, ids)
  const store = deps.actions
  // PHP's empty(): "" and "0" ask for the list's actions.
  const onPage = resIdText !== undefined && resIdText !== '' && resIdText !== '0'
  // A resId that names no letter meets no condition: only the unconditioned actions remain, as in 20.10.
  const resId = onPage ? databaseIdOf(resIdText, 'bigint') : null
  const offered = [...(await store.offeredActions(scope, onPage ? 'page' : 'list'))].sort(
    (a, b) => Number(b.isDefault) - Number(a.isDefault) || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0),
  )
  if (!onPage) return { actions: offered.map(({ id, label, component }) => ({ id, component, label })) }
  const kept = []
  for (const action of offered) {
    if (action.whereClause?.trim()) {
      // 20.10 answers the unconditioned actions for a malformed resId, and crashes (500) on the first condition
      // it would test the text against: Mailroom refuses there.
      if (resId === null) fail('ACTION_QUERY_RES_ID_INVALID')
      if (!(await store.letterMeets(actor, action.whereClause, resId))) continue
    }
    kept.push(action)
  }
  const categories = await store.categoriesOf(kept.map((action) => action.id))
  return {
    actions: kept.map(({ id, label, component }) => ({
      id,
      component,
      label,
      categories: categories.get(id) ?? [...INDEXING_CATEGORIES],
    })),
  }
}

/** Body of `POST .../checkCloseWithFieldsAction`: the letters that may close, and those missing required fields. */
export interface CloseWithFieldsCheck {
  readonly errors: readonly { readonly chrono: string | null; readonly fields: string }[]
  readonly success: readonly number[]
}

/**
 * `POST .../actions/{actionId}/checkCloseWithFieldsAction`, in 20.10's order: the letters, the list, the
 * perimeter (403 `Document out of perimeter`), then letters locked by someone else are left out, then the
 * action; each letter whose indexing model shows a required custom field it leaves empty is named with them.
 */
export async function checkCloseWithFields(
  deps: ActionsDependencies & { readonly perimeter: RecordPerimeter },
  actor: Actor,
  ids: ActionRouteIds,
  body: unknown,
): Promise<CloseWithFieldsCheck> {
  const resources = parseActionResources(body, 'ACTION_CHECK_RESOURCES_INVALID')
  await controlList(deps, actor, ids)
  const allowed = await deps.perimeter.allowedAmong(actor, resources)
  if (resources.some((resId) => !allowed.has(resId))) fail('OUT_OF_PERIMETER')
  // 20.10's getNonLockedResources reads every letter's lock, whether the basket holds it or not.
  const locks = await deps.actions.locksOf(resources)
  const lockedByOthers = new Set(locks.filter((letter) => lockedByAnother(letter, actor)).map((l) => l.resId))
  const actionId = routeIdOf(ids.actionId)
  const action = (actionId === null ? null : await deps.actions.action(actionId)) ?? fail('ACTION_NOT_FOUND')
  const required = action.parameters.requiredFields
  const requiredFields = Array.isArray(required) ? required.filter((f): f is string => typeof f === 'string') : []
  const errors: { chrono: string | null; fields: string }[] = []
  const success: number[] = []
  for (const resId of resources) {
    if (lockedByOthers.has(resId)) continue
    if (requiredFields.length === 0) {
      success.push(resId)
      continue
    }
    const missing = await deps.actions.emptyRequiredFields(resId, requiredFields)
    if (missing.fields.length > 0) errors.push({ chrono: missing.chrono, fields: missing.fields.join(', ') })
    else success.push(resId)
  }
  return { errors, success }
}
