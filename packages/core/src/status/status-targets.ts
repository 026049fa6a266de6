import { fail } from '../errors/domain-error.js'
import type { StatusTargets } from './status-update-request.js'

/** What storage found for the identifiers of a status update, in one query per list. */
export interface TargetLookup {
  /** The res_id of each identifier that matches a record (a resId matches itself when the record exists). */
  readonly found: ReadonlyMap<number | string, number>
  /** The found records the actor may access. */
  readonly allowed: ReadonlySet<number>
}

/**
 * All or nothing: walks the identifiers in list order and refuses the whole update at the first one that
 * matches no record (400 naming it) or whose record is outside the perimeter (403). Returns the records to
 * change, each once, in list order.
 */
export function checkStatusTargets(targets: StatusTargets, lookup: TargetLookup): number[] {
  const resIds: number[] = []
  const seen = new Set<number>()
  for (const identifier of targets.identifiers) {
    const resId = lookup.found.get(identifier)
    if (resId === undefined) fail('STATUS_DOCUMENT_NOT_FOUND', { identifier })
    if (!lookup.allowed.has(resId)) fail('OUT_OF_PERIMETER')
    if (!seen.has(resId)) {
      seen.add(resId)
      resIds.push(resId)
    }
  }
  return resIds
}
