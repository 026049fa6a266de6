import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { isDomainError } from '../errors/domain-error.js'
import { readEntityListTemplates } from './list-template-use-cases.js'
import type { ListTemplateDependencies, ListTemplateType, StoredListTemplate, StoredListTemplateItem } from './ports.js'

/*
 * How a department's stored templates are shown, over a stand-in store: what the members name (or no longer name)
 * decides whether they are listed and how, as 20.10's ListTemplateController::getByEntityId shows them.
 */

const actor: Actor = {
  id: 3,
  login: 'bbain',
  firstname: null,
  lastname: null,
  email: null,
  mode: 'standard',
  entities: [],
  groups: [],
}

const member = (id: number, fields: Partial<StoredListTemplateItem>): StoredListTemplateItem => ({
  id,
  listTemplateId: 1,
  itemId: id * 10,
  itemType: 'user',
  itemMode: 'cc',
  sequence: id,
  user: null,
  entityLabel: null,
  ...fields,
})
const user = {
  firstname: 'Sabrina',
  lastname: 'SAPORTA',
  status: 'OK',
  primaryEntityLabel: 'Petite Enfance',
  circuitPrivileges: [],
}
const items = [
  member(1, { user, itemMode: 'dest' }),
  member(2, { user: { ...user, status: 'SPD' } }),
  member(3, { user: null }),
  member(4, { itemType: 'entity', entityLabel: null }),
]

function deps(type: string, asked: (ListTemplateType | null)[] = []): ListTemplateDependencies {
  const template: StoredListTemplate = { id: 1, title: 'T', description: null, type, entityId: 7, owner: null, items }
  return {
    listTemplates: {
      templatesOfEntity: async (_entity, wanted) => {
        asked.push(wanted)
        return [template]
      },
      usersOfEntity: async () => [],
    },
    entities: { findById: async (id) => (id === 7 ? ({ id: 7 } as never) : null) },
    parameters: { find: async () => null },
  }
}

describe('a department’s templates as shown', () => {
  it('leaves out of a diffusion list a user suspended or gone; an entity gone keeps its place without a label', async () => {
    const [shown] = (await readEntityListTemplates(deps('diffusionList'), actor, '7', {})).listTemplates
    expect(shown!.items).toEqual([
      {
        id: 1,
        list_template_id: 1,
        item_id: 10,
        item_type: 'user',
        item_mode: 'dest',
        sequence: 1,
        isValid: true,
        labelToDisplay: 'Sabrina SAPORTA',
        descriptionToDisplay: 'Petite Enfance',
        hasPrivilege: true,
      },
      {
        id: 4,
        list_template_id: 1,
        item_id: 40,
        item_type: 'entity',
        item_mode: 'cc',
        sequence: 4,
        labelToDisplay: null,
        descriptionToDisplay: '',
      },
    ])
  })

  it('flags them in a circuit instead, with the privileges the circuit needs', async () => {
    const [shown] = (await readEntityListTemplates(deps('visaCircuit'), actor, '7', {})).listTemplates
    expect(
      shown!.items.map((i) => [i.item_id, i.isValid, i.hasPrivilege, i.labelToDisplay, i.descriptionToDisplay]),
    ).toEqual([
      [10, true, false, 'Sabrina SAPORTA', 'Petite Enfance'],
      [20, false, false, 'Sabrina SAPORTA', 'Petite Enfance'],
      // 20.10 prints the missing user's name as " ".
      [30, false, false, ' ', null],
      [40, undefined, undefined, null, ''],
    ])
  })

  it('asks the store for the type as PHP reads ?type=', async () => {
    const asked: (ListTemplateType | null)[] = []
    for (const type of [
      undefined,
      '',
      '0',
      [],
      'visaCircuit',
      'opinionCircuit',
      'diffusionList',
      'x',
      ['visaCircuit', 'y'],
      ['y', 'opinionCircuit'],
    ])
      await readEntityListTemplates(deps('diffusionList', asked), actor, '7', { type })
    expect(asked).toEqual([
      null,
      null,
      null,
      null,
      'visaCircuit',
      'opinionCircuit',
      'diffusionList',
      'diffusionList',
      'diffusionList',
      'opinionCircuit',
    ])
  })

  it('refuses an id that names no department before asking the store', async () => {
    for (const id of [undefined, '', '8', 'PE', '-7', '2147483648']) {
      const asked: (ListTemplateType | null)[] = []
      const refusal = await readEntityListTemplates(deps('diffusionList', asked), actor, id, {}).catch(
        (e: unknown) => e,
      )
      expect(isDomainError(refusal) && refusal.code).toBe('LIST_TEMPLATE_ENTITY_NOT_FOUND')
      expect(asked).toEqual([])
    }
  })
})
