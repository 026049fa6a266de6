import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import type { EntityRow } from '../entities/entity.js'
import { createReferenceUseCases, type ReferenceRepositories } from './reference-services.js'

const entity = (id: number, code: string, parent: string | null, enabled = 'Y') =>
  ({ id, entity_id: code, entity_label: code, parent_entity_id: parent, enabled }) as EntityRow
const ENTITIES = [
  entity(1, 'VILLE', null),
  entity(2, 'DGS', 'VILLE'),
  entity(3, 'PJS', 'DGS'),
  entity(4, 'OFF', 'VILLE', 'N'),
  entity(5, 'UNDER_OFF', 'OFF'),
]
const model = (id: number, owner: number | null, isPrivate: boolean) => ({
  id,
  label: `M${id}`,
  category: 'incoming',
  default: false,
  owner,
  private: isPrivate,
  master: null,
  enabled: true,
  mandatory_file: false,
})
const none = { list: async () => [] }
const repositories = {
  entities: { listAll: async () => ENTITIES, findById: async () => null, findByEntityId: async () => null },
  doctypes: {
    enabledTree: async () => ({ firstLevels: [], secondLevels: [], doctypes: [] }),
    findDoctype: async () => null,
  },
  statuses: none,
  priorities: none,
  customFields: none,
  tags: none,
  indexingModels: {
    listVisible: async () => [],
    find: async (id: number) => (id === 7 ? { model: model(7, 99, true), fields: [] } : null),
  },
  folders: {
    // By label, as the repository answers.
    visibleTo: async () => [
      { id: 2, label: 'Child', public: false, user_id: 3, parent_id: 1, level: 1, countResources: 0, canEdit: true },
      { id: 3, label: 'Orphan', public: false, user_id: 9, parent_id: 42, level: 2, countResources: 0, canEdit: false },
      { id: 1, label: 'Top', public: true, user_id: 3, parent_id: null, level: 0, countResources: 2, canEdit: true },
    ],
  },
  users: { list: async (scope: readonly string[] | null) => [{ scope } as never], profile: async () => null },
  parameters: { list: async () => [], find: async () => null },
} satisfies ReferenceRepositories
const reference = createReferenceUseCases(repositories, { passwordMinLength: 12 })

const actor = (mode: Actor['mode'], entities: string[], privileges: string[] = []): Actor => ({
  id: 3,
  login: 'someone',
  firstname: null,
  lastname: null,
  email: null,
  mode,
  entities: entities.map((code, index) => ({ id: index + 1, entityId: code, primary: index === 0 })),
  groups: [
    {
      id: 1,
      groupId: 'G',
      canIndex: false,
      securityClause: null,
      indexingEntities: [],
      indexingKeywords: [],
      privileges,
    },
  ],
})

describe('reference use cases', () => {
  it("lists enabled entities whose parents are enabled, allowing the caller's entities and those below", async () => {
    const { entities } = await reference.entities(actor('standard', ['DGS']))
    expect(entities.map((e) => [e.id, e.allowed])).toEqual([
      ['VILLE', false],
      ['PJS', true],
      ['DGS', true],
    ])
    expect(entities[0]).toMatchObject({
      parent: '#',
      parentSerialId: '#',
      parent_entity_id: '',
      state: { disabled: true },
    })
    expect(entities[2]).toMatchObject({ parent: 'VILLE', parentSerialId: 1, parent_id: 1, icon: 'fa fa-sitemap' })
    const root = await reference.entities(actor('root_invisible', []))
    expect(root.entities.every((e) => e.allowed)).toBe(true)
  })

  it("reads a model refusing another user's private one, an unknown id and a non-integer id, in 20.10's words", async () => {
    const caller = actor('standard', [])
    await expect(reference.indexingModel(caller, '7')).rejects.toMatchObject({ message: 'Model out of perimeter' })
    await expect(reference.indexingModel(caller, '8')).rejects.toMatchObject({ message: 'Model not found' })
    // Past PostgreSQL's integer no model can exist, and the database would refuse the parameter.
    await expect(reference.indexingModel(caller, '99999999999')).rejects.toMatchObject({
      message: 'Route id is not an integer',
    })
    await expect(reference.indexingModel(caller, '7a')).rejects.toMatchObject({
      message: 'Route id is not an integer',
      kind: 'bad-request',
    })
  })

  it('answers an unknown document type with an empty list, a non-integer id with a 400', async () => {
    expect((await reference.doctype(actor('standard', []), '5')).doctype).toEqual([])
    await expect(reference.doctype(actor('standard', []), 'abc')).rejects.toMatchObject({
      code: 'ROUTE_ID_NOT_INTEGER',
    })
  })

  it('lists folders as a tree, depth first; a folder whose parent is hidden comes at level 0', async () => {
    const { folders } = await reference.folders(actor('standard', ['PJS']))
    expect(folders.map((f) => [f.id, f.level])).toEqual([
      [3, 0],
      [1, 0],
      [2, 1],
    ])
  })

  it("lists users for admin_users only, within the caller's entities and below (root: all)", async () => {
    await expect(reference.users(actor('standard', ['DGS']))).rejects.toMatchObject({ message: 'Service forbidden' })
    const scoped = await reference.users(actor('standard', ['DGS'], ['admin_users']))
    expect(new Set((scoped.users[0] as unknown as { scope: string[] }).scope)).toEqual(new Set(['DGS', 'PJS']))
    const all = await reference.users(actor('root_visible', []))
    expect((all.users[0] as unknown as { scope: null }).scope).toBeNull()
    expect(all.quota).toEqual([])
  })
})
