import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clauseArbitrary } from '../../../testing/src/arbitraries/clause-arbitrary.js'
import { containsMacro } from './ast.js'
import { expandMacros, type PerimeterContext } from './expand-macros.js'
import { parseClause } from './parser.js'
import { printClause } from './printer.js'

/** A small tree: VILLE > (DGS > (DSI, PJS), COU), plus a disabled CAB under VILLE and a separate ORPHAN. */
const CONTEXT: PerimeterContext = {
  userId: 19,
  login: "bbain'o",
  email: 'bbain@example.test',
  entities: [
    { id: 3, entityId: 'DSI' },
    { id: 5, entityId: 'COU' },
  ],
  primaryEntity: { id: 2, entityId: 'DGS' },
  allEntities: [
    { id: 1, entityId: 'VILLE', parentEntityId: null, entityType: 'Direction', enabled: true },
    { id: 2, entityId: 'DGS', parentEntityId: 'VILLE', entityType: 'Direction', enabled: true },
    { id: 3, entityId: 'DSI', parentEntityId: 'DGS', entityType: 'Service', enabled: true },
    { id: 4, entityId: 'PJS', parentEntityId: 'DGS', entityType: 'Service', enabled: true },
    { id: 5, entityId: 'COU', parentEntityId: 'VILLE', entityType: 'Bureau', enabled: true },
    { id: 6, entityId: 'CAB', parentEntityId: 'VILLE', entityType: 'Bureau', enabled: false },
    { id: 7, entityId: 'ORPHAN', parentEntityId: null, entityType: 'Service', enabled: true },
  ],
}

function expanded(clause: string, context: PerimeterContext = CONTEXT): string {
  return printClause(expandMacros(parseClause(clause, { allowMacros: true }), context))
}

describe('expandMacros', () => {
  it('expands the AGENT perimeter of the runtime contract', () => {
    expect(expanded('destination in (@my_entities, @subentities[@my_primary_entity])')).toBe(
      "destination in ('DSI', 'COU', 'DSI', 'PJS')",
    )
  })

  it('expands scalar macros to typed literals (strings stay strings, never SQL)', () => {
    expect(expanded('typist = @user_id and initiator = @user and subject = @email')).toBe(
      "typist = 19 and initiator = 'bbain''o' and subject = 'bbain@example.test'",
    )
    expect(expanded('destination = @my_primary_entity or typist = @my_primary_entity_id')).toBe(
      "destination = 'DGS' or typist = 2",
    )
  })

  it('walks the entity tree', () => {
    expect(expanded("destination in (@subentities['VILLE'])")).toBe(
      "destination in ('DGS', 'COU', 'CAB', 'DSI', 'PJS')",
    )
    expect(expanded('typist in (@subentities_id[1])')).toBe('typist in (2, 5, 6, 3, 4)')
    expect(expanded('typist in (@subentities_id[@my_primary_entity_id])')).toBe('typist in (3, 4)')
    expect(expanded("destination in (@immediate_children['VILLE'])")).toBe("destination in ('DGS', 'COU', 'CAB')")
    expect(expanded('destination in (@parent_entity[@my_primary_entity])')).toBe("destination in ('VILLE')")
    expect(expanded('destination in (@sisters_entities[@my_primary_entity])')).toBe(
      "destination in ('DGS', 'COU', 'CAB')",
    )
    expect(expanded("destination in (@entity_type['Service'])")).toBe("destination in ('DSI', 'PJS', 'ORPHAN')")
    expect(expanded('destination in (@all_entities)')).toBe(
      "destination in ('VILLE', 'DGS', 'DSI', 'PJS', 'COU', 'ORPHAN')",
    )
    expect(expanded('typist in (@my_entities_id)')).toBe('typist in (3, 5)')
    expect(expanded("destination in (@subentities[@parent_entity['DSI']], 'X')")).toBe(
      "destination in ('DSI', 'PJS', 'X')",
    )
  })

  it('survives a cycle in the entity tree', () => {
    const cyclic: PerimeterContext = {
      ...CONTEXT,
      allEntities: [
        { id: 1, entityId: 'A', parentEntityId: 'B', entityType: 'x', enabled: true },
        { id: 2, entityId: 'B', parentEntityId: 'A', entityType: 'x', enabled: true },
      ],
    }
    expect(expanded("destination in (@subentities['A'])", cyclic)).toBe("destination in ('B')")
  })

  it('leaves empty lists (compiled as FALSE / TRUE) and nulls for missing scalars', () => {
    const lonely: PerimeterContext = { ...CONTEXT, email: null, entities: [], primaryEntity: null }
    expect(
      expandMacros(
        parseClause('destination in (@my_entities, @subentities[@my_primary_entity])', { allowMacros: true }),
        lonely,
      ),
    ).toEqual({
      kind: 'in',
      negated: false,
      operand: { kind: 'column', name: 'destination' },
      items: [],
    })
    expect(
      expanded('destination = @my_primary_entity or subject = @email or typist = @my_primary_entity_id', lonely),
    ).toBe('destination = null or subject = null or typist = null')
  })

  it('removes every macro, whatever the clause', () => {
    fc.assert(
      fc.property(clauseArbitrary({ macros: true }), (ast) => {
        expect(containsMacro(expandMacros(ast, CONTEXT))).toBe(false)
      }),
      { numRuns: 300, seed: 5 },
    )
  })
})
