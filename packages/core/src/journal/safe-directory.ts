import { compareCodePoints as byCodePoint } from './journal-query.js'

/** An entity as the safe mapping needs it (entities table: entity_id, parent_entity_id, business_id). */
export interface SafeEntity {
  readonly entityId: string
  /** null or '' for a top-level entity. */
  readonly parentEntityId: string | null
  readonly businessId: string | null
}

/** Safe look-ups over one snapshot of the entity tree (runtime-contract.md "Digital safe"). */
export interface SafeDirectory {
  /** entity_id of the top-level ancestor of an entity (itself if top-level); null if unknown or in a cycle. */
  topLevelOf(entityId: string): string | null
  /** The safe of an entity: its top-level ancestor's business_id, or that ancestor's entity_id when empty. */
  safeOfEntity(entityId: string): string | null
  /**
   * The safe a record's file is deposited in: the safe of its destination; with no destination (or one not
   * in the tree) the default safe, i.e. that of the first top-level entity by entity_id in code point order.
   * null only when there is no entity at all.
   */
  safeForRecord(destination: string | null): string | null
  /** The default safe (see safeForRecord), null without entities. */
  defaultSafe(): string | null
  /** The top-level entity_id that keeps a safe (its archiverOrgRegNumber); the first by entity_id if several. */
  keeperOfSafe(safe: string): string | null
  /** True when some top-level entity owns this safe: otherwise `/events` answers 404. */
  hasSafe(safe: string): boolean
  /** Every safe, sorted, without duplicates. */
  safes(): string[]
  /** True when one of the user's entities has a top-level ancestor that owns `safe` (else 403). */
  isPositionedInSafe(userEntityIds: Iterable<string>, safe: string): boolean
}

/**
 * Builds the safe look-ups of an entity list. An entity whose parent is missing from the list is treated as
 * top-level (the tree is taken as given); entities caught in a parent cycle belong to no safe.
 * A business_id made only of whitespace counts as empty.
 */
export function buildSafeDirectory(entities: Iterable<SafeEntity>): SafeDirectory {
  const byId = new Map<string, SafeEntity>()
  for (const entity of entities) byId.set(entity.entityId, entity)
  const topCache = new Map<string, string | null>()

  const topLevelOf = (entityId: string): string | null => {
    const cached = topCache.get(entityId)
    if (cached !== undefined) return cached
    const seen = new Set<string>()
    let current = byId.get(entityId)
    let result: string | null = null
    while (current !== undefined) {
      if (seen.has(current.entityId)) {
        result = null
        break
      }
      seen.add(current.entityId)
      const parentId = current.parentEntityId
      const parent = parentId === null || parentId === '' ? undefined : byId.get(parentId)
      if (parent === undefined) {
        result = current.entityId
        break
      }
      current = parent
    }
    topCache.set(entityId, result)
    return result
  }

  const safeOfTop = (topId: string): string => {
    const businessId = byId.get(topId)?.businessId
    return businessId != null && businessId.trim() !== '' ? businessId : topId
  }

  const tops = [...byId.keys()].filter((id) => topLevelOf(id) === id).sort(byCodePoint)
  const safeKeepers = new Map<string, string>()
  for (const top of tops) {
    const safe = safeOfTop(top)
    if (!safeKeepers.has(safe)) safeKeepers.set(safe, top)
  }
  const firstTop = tops[0]
  const defaultSafe = firstTop === undefined ? null : safeOfTop(firstTop)

  const safeOfEntity = (entityId: string): string | null => {
    const top = topLevelOf(entityId)
    return top === null ? null : safeOfTop(top)
  }

  return {
    topLevelOf,
    safeOfEntity,
    safeForRecord: (destination) =>
      destination === null || destination === '' ? defaultSafe : (safeOfEntity(destination) ?? defaultSafe),
    defaultSafe: () => defaultSafe,
    keeperOfSafe: (safe) => safeKeepers.get(safe) ?? null,
    hasSafe: (safe) => safeKeepers.has(safe),
    safes: () => [...safeKeepers.keys()].sort(byCodePoint),
    isPositionedInSafe: (userEntityIds, safe) => {
      for (const entityId of userEntityIds) if (safeOfEntity(entityId) === safe) return true
      return false
    },
  }
}
