import type { Actor } from '../actors/actor.js'
import { fail } from '../errors/domain-error.js'
import { databaseIdOf } from '../request-values/database-id.js'
import { type Entity, EntityIdSchema, type EntityRow } from './entity.js'
import type { EntityRepository } from './ports.js'

/**
 * Reads an entity by its entity_id. Real clients send the integer identifier (reference 20.10), so an
 * all-digit id that matches no entity_id is looked up by integer id too. Any authenticated user may read.
 */
export async function readEntity(entities: EntityRepository, _actor: Actor, id: string): Promise<Entity> {
  if (!EntityIdSchema.safeParse(id).success) fail('ENTITY_ID_INVALID')
  let row = await entities.findByEntityId(id)
  const serialId = /^[0-9]+$/.test(id) ? databaseIdOf(id) : null
  if (!row && serialId !== null) row = await entities.findById(serialId)
  if (!row) fail('ENTITY_NOT_FOUND')
  const fullName = row.entity_full_name || fullNameOf(row, await entities.listAll())
  return toEntity(row, fullName)
}

/** Labels from the top of the tree down to the entity, joined with " / ". Cycles are cut. */
export function fullNameOf(row: EntityRow, all: readonly EntityRow[]): string {
  const byId = new Map(all.map((e) => [e.entity_id, e]))
  const labels: string[] = []
  const seen = new Set<string>()
  let current: EntityRow | undefined = row
  while (current && !seen.has(current.entity_id)) {
    seen.add(current.entity_id)
    labels.unshift(current.entity_label)
    current = current.parent_entity_id ? byId.get(current.parent_entity_id) : undefined
  }
  return labels.join(' / ')
}

function toEntity(row: EntityRow, fullName: string): Entity {
  return {
    entity_id: row.entity_id,
    entity_label: row.entity_label,
    short_label: row.short_label,
    entity_type: row.entity_type,
    enabled: row.enabled,
    adrs_1: row.adrs_1,
    adrs_2: row.adrs_2,
    adrs_3: row.adrs_3,
    zipcode: row.zipcode,
    city: row.city,
    country: row.country,
    email: row.email,
    business_id: row.business_id,
    parent_entity_id: row.parent_entity_id,
    ldap_id: row.ldap_id,
    archival_agency: row.archival_agency,
    archival_agreement: row.archival_agreement,
    entity_full_name: fullName,
  }
}
