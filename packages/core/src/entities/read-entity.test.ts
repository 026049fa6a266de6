import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { EntityRow } from './entity.js'
import type { EntityRepository } from './ports.js'
import { fullNameOf, readEntity } from './read-entity.js'

const row = (id: number, entity_id: string, label: string, parent: string | null): EntityRow => ({
  id,
  entity_id,
  entity_label: label,
  short_label: entity_id,
  entity_type: 'Service',
  enabled: 'Y',
  adrs_1: null,
  adrs_2: null,
  adrs_3: null,
  zipcode: null,
  city: null,
  country: null,
  email: null,
  business_id: null,
  parent_entity_id: parent,
  ldap_id: null,
  archival_agency: null,
  archival_agreement: null,
  entity_full_name: null,
})
const rows = [row(1, 'VILLE', 'Ville', null), row(3, 'DGS', 'DGS', 'VILLE'), row(6, 'PJS', 'Pôle', 'DGS')]
const repo: EntityRepository = {
  findByEntityId: async (id) => rows.find((r) => r.entity_id === id) ?? null,
  findById: async (id) => rows.find((r) => r.id === id) ?? null,
  listAll: async () => rows,
}
const actor = { id: 3 } as Actor

describe('readEntity', () => {
  it('builds the full name from the top of the tree', async () => {
    const entity = await readEntity(repo, actor, 'PJS')
    expect(entity.entity_full_name).toBe('Ville / DGS / Pôle')
    expect(entity.parent_entity_id).toBe('DGS')
  })
  it('falls back to the integer id', async () => {
    expect((await readEntity(repo, actor, '6')).entity_id).toBe('PJS')
  })
  it('refuses unknown and over-long ids with the catalogue messages', async () => {
    await expect(readEntity(repo, actor, 'NOPE')).rejects.toMatchObject({
      message: 'Entity not found',
      kind: 'bad-request',
    })
    await expect(readEntity(repo, actor, 'X'.repeat(33))).rejects.toMatchObject({ code: 'ENTITY_ID_INVALID' })
  })
  it('survives a cycle in the tree', () => {
    const a = row(1, 'A', 'A', 'B')
    const b = row(2, 'B', 'B', 'A')
    expect(fullNameOf(a, [a, b])).toBe('B / A')
  })
})
