import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'

import { MAX_LINKED_RESOURCES } from './link-limits.js'

/** The `resId` of a link route: anything but a record id is "out of perimeter", as 20.10 answers. */
export function parseLinkResId(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('RESOURCE_OUT_OF_PERIMETER')
}

/** The `{id}` of `DELETE …/linkedResources/{id}`. */
export function parseUnlinkedId(text: string | undefined): number {
  return databaseIdOf(text, 'bigint') ?? fail('UNLINKED_RESOURCE_OUT_OF_PERIMETER')
}

/**
 * The `linkedResources` of `POST /rest/resources/{resId}/linkedResources`, as far as the body alone tells: a
 * non-empty array (else 403, as 20.10), of record ids (an item that is not one is "out of perimeter", as 20.10).
 * Returns the distinct ids in the caller's order. The perimeter, then "contains resource", are checked next.
 */
export function parseLinkedResources(body: unknown): number[] {
  const list = (body as { linkedResources?: unknown } | null)?.linkedResources
  if (!Array.isArray(list) || list.length === 0) fail('LINKED_RESOURCES_NOT_ARRAY')
  if (list.length > MAX_LINKED_RESOURCES) fail('LINKED_RESOURCES_TOO_MANY')
  const ids = new Set<number>()
  for (const item of list) ids.add(databaseIdOf(item, 'bigint') ?? fail('LINKED_RESOURCES_OUT_OF_PERIMETER'))
  return [...ids]
}

/**
 * The link checks after the body's: every linked record in the perimeter (unknown ones are not), then the record
 * not linked to itself (20.10's order).
 */
export function checkLinkTargets(resId: number, linked: readonly number[], allowed: ReadonlySet<number>): void {
  if (!linked.every((id) => allowed.has(id))) fail('LINKED_RESOURCES_OUT_OF_PERIMETER')
  if (linked.includes(resId)) fail('LINKED_RESOURCES_CONTAIN_RESOURCE')
}

/** What adding or removing a link writes into the history of each of the two records (20.10's rows). */
export const LINK_HISTORY = {
  tableName: 'res_letterbox',
  eventType: 'UP',
  eventId: 'resourceModification',
  module: 'resource',
  added: 'Liaison ajoutée',
  removed: 'Liaison supprimée',
} as const
