import { type Actor, isRoot } from '../actors/actor.js'
import type { EntityListResponse, EntityTreeNode } from '../api/reference-schemas.js'
import type { EntityRow } from './entity.js'
import type { EntityRepository } from './ports.js'

/** Codes of the actor's entities and every entity below them (20.10's `getAllEntitiesByUserId`). */
export function entitiesAtOrBelow(actor: Pick<Actor, 'entities'>, all: readonly EntityRow[]): Set<string> {
  const children = new Map<string, string[]>()
  for (const row of all) {
    if (row.parent_entity_id === null) continue
    children.set(row.parent_entity_id, [...(children.get(row.parent_entity_id) ?? []), row.entity_id])
  }
  const found = new Set<string>()
  const pending = actor.entities.map((e) => e.entityId)
  while (pending.length > 0) {
    const code = pending.pop()!
    if (found.has(code)) continue
    found.add(code)
    pending.push(...(children.get(code) ?? []))
  }
  return found
}

/** Enabled entities whose chain of parents is whole and enabled (20.10 drops the orphans). */
function reachable(enabled: readonly EntityRow[]): EntityRow[] {
  const byCode = new Map(enabled.map((row) => [row.entity_id, row]))
  const kept = new Map<string, boolean>()
  const keep = (row: EntityRow, seen: Set<string>): boolean => {
    const known = kept.get(row.entity_id)
    if (known !== undefined) return known
    if (seen.has(row.entity_id)) return false
    seen.add(row.entity_id)
    const parent = row.parent_entity_id === null ? null : byCode.get(row.parent_entity_id)
    const result = row.parent_entity_id === null || (parent !== undefined && parent !== null && keep(parent, seen))
    kept.set(row.entity_id, result)
    return result
  }
  return enabled.filter((row) => keep(row, new Set()))
}

/**
 * `GET /rest/entities`: every enabled entity as a jsTree node, top-level ones first, then by parent code
 * (20.10's order). `allowed` marks the caller's entities and those below them (root users: all); the
 * others are shown disabled.
 */
export async function listEntities(repository: EntityRepository, actor: Actor): Promise<EntityListResponse> {
  const all = await repository.listAll()
  const enabled = reachable(all.filter((row) => row.enabled === 'Y'))
  const allowed = isRoot(actor) ? null : entitiesAtOrBelow(actor, all)
  const serialOf = new Map(all.map((row) => [row.entity_id, row.id]))
  const ordered = [...enabled].sort(
    (a, b) =>
      (a.parent_entity_id ?? '').localeCompare(b.parent_entity_id ?? '') ||
      a.entity_label.localeCompare(b.entity_label),
  )
  return {
    entities: ordered.map((row): EntityTreeNode => {
      const parentSerial = row.parent_entity_id === null ? null : (serialOf.get(row.parent_entity_id) ?? null)
      const isAllowed = allowed === null || allowed.has(row.entity_id)
      return {
        id: row.entity_id,
        entity_id: row.entity_id,
        entity_label: row.entity_label,
        parent_entity_id: row.parent_entity_id ?? '',
        parent_id: parentSerial,
        serialId: row.id,
        parentSerialId: parentSerial ?? '#',
        parent: row.parent_entity_id ?? '#',
        icon: row.parent_entity_id === null ? 'fa fa-building' : 'fa fa-sitemap',
        allowed: isAllowed,
        state: isAllowed ? { opened: true } : { disabled: true, opened: true },
        text: row.entity_label,
      }
    }),
  }
}
