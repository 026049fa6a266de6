import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildSafeDirectory, type SafeEntity } from './safe-directory.js'

const demo: SafeEntity[] = [
  { entityId: 'VILLE', parentEntityId: null, businessId: '21750001600019' },
  { entityId: 'CAB', parentEntityId: 'VILLE', businessId: null },
  { entityId: 'DGS', parentEntityId: 'VILLE', businessId: '' },
  { entityId: 'DRH', parentEntityId: 'DGS', businessId: null },
  { entityId: 'DSI', parentEntityId: 'DGS', businessId: null },
  { entityId: 'PJS', parentEntityId: 'DGS', businessId: null },
  { entityId: 'PE', parentEntityId: 'PJS', businessId: '99999' },
  { entityId: 'COU', parentEntityId: 'VILLE', businessId: null },
]

describe('buildSafeDirectory', () => {
  it('maps the demo tree to its one safe', () => {
    const safes = buildSafeDirectory(demo)
    for (const entity of demo) expect(safes.safeOfEntity(entity.entityId)).toBe('21750001600019')
    expect(safes.topLevelOf('PE')).toBe('VILLE')
    expect(safes.safeForRecord('PE')).toBe('21750001600019')
    expect(safes.safeForRecord(null)).toBe('21750001600019')
    expect(safes.safeForRecord('')).toBe('21750001600019')
    expect(safes.safeForRecord('GONE')).toBe('21750001600019')
    expect(safes.safeOfEntity('GONE')).toBeNull()
    expect(safes.safes()).toEqual(['21750001600019'])
    expect(safes.hasSafe('21750001600019')).toBe(true)
    expect(safes.hasSafe('VILLE')).toBe(false)
    expect(safes.keeperOfSafe('21750001600019')).toBe('VILLE')
    expect(safes.isPositionedInSafe(['PE'], '21750001600019')).toBe(true)
    expect(safes.isPositionedInSafe([], '21750001600019')).toBe(false)
    expect(safes.isPositionedInSafe(['GONE'], '21750001600019')).toBe(false)
  })

  it('uses the entity_id of a top-level entity without business_id, and the first top-level as default', () => {
    const safes = buildSafeDirectory([
      ...demo,
      { entityId: 'AGGLO', parentEntityId: '', businessId: '  ' },
      { entityId: 'SVC', parentEntityId: 'AGGLO', businessId: '123' },
      { entityId: 'ORPHAN', parentEntityId: 'MISSING', businessId: null },
      { entityId: 'LOOP1', parentEntityId: 'LOOP2', businessId: null },
      { entityId: 'LOOP2', parentEntityId: 'LOOP1', businessId: null },
    ])
    expect(safes.safeOfEntity('SVC')).toBe('AGGLO')
    expect(safes.safes()).toEqual(['21750001600019', 'AGGLO', 'ORPHAN'])
    // Top-level entities by entity_id: AGGLO < ORPHAN < VILLE.
    expect(safes.defaultSafe()).toBe('AGGLO')
    expect(safes.safeForRecord(null)).toBe('AGGLO')
    expect(safes.safeForRecord('DRH')).toBe('21750001600019')
    expect(safes.safeOfEntity('LOOP1')).toBeNull()
    expect(safes.safeForRecord('LOOP2')).toBe('AGGLO')
    expect(safes.isPositionedInSafe(['SVC'], '21750001600019')).toBe(false)
    expect(safes.isPositionedInSafe(['SVC', 'COU'], '21750001600019')).toBe(true)
    expect(buildSafeDirectory([]).safeForRecord(null)).toBeNull()
  })

  it('gives every entity of a random forest the safe of its root', () => {
    const forest = fc
      .array(fc.tuple(fc.nat(), fc.boolean(), fc.option(fc.constantFrom('', '111', '222'))), {
        minLength: 1,
        maxLength: 30,
      })
      .map((rows) =>
        rows.map(
          ([parent, root, businessId], i): SafeEntity => ({
            entityId: `E${i}`,
            parentEntityId: root || i === 0 ? null : `E${parent % i}`,
            businessId,
          }),
        ),
      )
    fc.assert(
      fc.property(forest, (entities) => {
        const safes = buildSafeDirectory(entities)
        const byId = new Map(entities.map((e) => [e.entityId, e]))
        for (const entity of entities) {
          let root = entity
          while (root.parentEntityId !== null) root = byId.get(root.parentEntityId)!
          const expected = root.businessId ? root.businessId : root.entityId
          expect(safes.safeOfEntity(entity.entityId)).toBe(expected)
          expect(safes.isPositionedInSafe([entity.entityId], expected)).toBe(true)
          expect(safes.hasSafe(expected)).toBe(true)
        }
      }),
      { numRuns: 200 },
    )
  })
})
