import { describe, expect, it } from 'vitest'
import { type MaarchOrganisationRows, mapOrganisation } from './index.js'

const empty: MaarchOrganisationRows = {
  entities: [
    {
      id: 7,
      entity_id: 'DSI',
      entity_label: 'Direction',
      short_label: 'DSI',
      enabled: 'Y',
      parent_entity_id: null,
      entity_type: 'Direction',
    },
  ],
  usergroups: [
    {
      id: 1,
      group_id: 'OK_GROUP',
      group_desc: 'fine',
      can_index: true,
      indexation_parameters: { entities: ['7'], keywords: ['ALL_ENTITIES', 'NOT_A_KEYWORD'] },
    },
    {
      id: 2,
      group_id: 'BAD_GROUP',
      group_desc: 'odd clause',
      can_index: false,
      indexation_parameters: '{"entities":[],"keywords":[]}',
    },
  ],
  usergroupsServices: [
    { group_id: 'OK_GROUP', service_id: 'create_contacts' },
    { group_id: 'OK_GROUP', service_id: 'add_links' },
    { group_id: 'OK_GROUP', service_id: 'not a service id' },
    { group_id: 'BAD_GROUP', service_id: 'admin_users' },
  ],
  security: [
    {
      group_id: 'OK_GROUP',
      coll_id: 'letterbox_coll',
      where_clause: 'destination in (@my_entities, @subentities[@my_primary_entity])',
      maarch_comment: 'mine',
    },
    {
      group_id: 'BAD_GROUP',
      coll_id: 'letterbox_coll',
      where_clause: '1=1 or exists (select 1 from pg_user)',
      maarch_comment: 'sql',
    },
  ],
  users: [
    {
      id: 3,
      user_id: 'jdoe',
      password: '$2y$10$C.QSslBKD3yNMfRPuZfcaubFwPKiCkqqOUyAdOr5FSGKPaePwuEjG',
      status: 'OK',
      mode: 'rest',
    },
  ],
  usersEntities: [{ user_id: 3, entity_id: 'DSI', user_role: '', primary_entity: 'Y' }],
  usergroupContent: [{ user_id: 3, group_id: 2 }],
  status: [],
  doctypesFirstLevel: [],
  doctypesSecondLevel: [],
  doctypes: [],
  indexingModels: [],
  indexingModelsFields: [],
  priorities: [],
  customFields: [],
  tags: [],
  folders: [{ id: 4, label: 'F', public: true, user_id: 99, parent_id: null }],
  entitiesFolders: [],
  contacts: [],
  parameters: [
    {
      id: 'workingDays',
      description: 'Jours ouvrés',
      param_value_string: null,
      param_value_int: 1,
      param_value_date: null,
    },
    {
      id: 'last_run',
      description: null,
      param_value_string: '',
      param_value_int: null,
      param_value_date: new Date(2024, 4, 6, 7, 8, 9),
    },
    { id: 'bad id!', description: null, param_value_string: 'x', param_value_int: null, param_value_date: null },
  ],
  // DSI's diffusion list (its members out of sequence), a circuit of a user not imported, a template of an
  // unknown department, one of an unknown type.
  listTemplates: [
    { id: 10, title: 'DSI', description: 'Direction', type: 'diffusionList', entity_id: 7, owner: null },
    { id: 11, title: 'Visa', description: null, type: 'visaCircuit', entity_id: null, owner: 99 },
    { id: 12, title: 'Gone', description: null, type: 'diffusionList', entity_id: 404, owner: null },
    { id: 13, title: '', description: 'Other', type: 'signatureBook', entity_id: 7, owner: null },
  ],
  listTemplatesItems: [
    { id: 1, list_template_id: 10, item_id: 7, item_type: 'entity', item_mode: 'cc', sequence: 1 },
    { id: 2, list_template_id: 10, item_id: 3, item_type: 'user', item_mode: 'dest', sequence: 0 },
    { id: 3, list_template_id: 10, item_id: 99, item_type: 'user', item_mode: 'cc', sequence: 2 },
    { id: 4, list_template_id: 10, item_id: 3, item_type: 'user', item_mode: 'dest', sequence: 3 },
    { id: 5, list_template_id: 10, item_id: 7, item_type: 'group', item_mode: 'cc', sequence: 4 },
    { id: 6, list_template_id: 10, item_id: 7, item_type: 'entity', item_mode: 'Copie!', sequence: 5 },
  ],
}

describe('mapOrganisation', () => {
  const { document, notes } = mapOrganisation(empty)

  it('keeps a clause Mailroom parses, macros included, and gives a group with an unparsable one no perimeter, noted', () => {
    expect(document.groups?.[0]?.perimeter).toBe('destination in (@my_entities, @subentities[@my_primary_entity])')
    expect(document.groups?.[1]?.perimeter).toBeNull()
    expect(notes.find((n) => n.id === 'BAD_GROUP')?.message).toMatch(/not understood .*the group gets no records/)
  })

  it('says, of a group whose clause is lost, what each of its users will now see', () => {
    const users = ['alone', 'both', 'root'].map((login, i) => ({
      id: 10 + i,
      user_id: login,
      password: null,
      status: 'OK',
      mode: login === 'root' ? 'root_invisible' : 'standard',
    }))
    const { notes } = mapOrganisation({
      ...empty,
      users,
      usersEntities: [],
      usergroupContent: [
        { user_id: 10, group_id: 2 },
        { user_id: 11, group_id: 2 },
        { user_id: 11, group_id: 1 },
        { user_id: 12, group_id: 2 },
      ],
    })
    expect(notes.find((n) => n.id === 'BAD_GROUP')?.message).toBe(
      'security clause "1=1 or exists (select 1 from pg_user)" not understood (' +
        notes
          .find((n) => n.id === 'BAD_GROUP')
          ?.message.split(' not understood (')[1]
          ?.split('): ')[0] +
        '): the group gets no records; of its 3 users, both now sees only the records of their other groups; alone now sees no records at all (no other group gives any); root is a root user and still sees every record. Fix the clause and apply it with mailroom org apply',
    )
  })

  it('maps indexing entities given by serial id to codes, drops unknown keywords with a note, keeps ids, modes and bcrypt hashes', () => {
    expect(document.groups?.[0]?.indexing).toEqual({ entities: ['DSI'], keywords: ['ALL_ENTITIES'] })
    expect(notes.some((n) => n.message.includes('NOT_A_KEYWORD'))).toBe(true)
    expect(document.entities?.[0]).toMatchObject({ id: 'DSI', serialId: 7 })
    expect(document.users?.[0]).toMatchObject({
      login: 'jdoe',
      id: 3,
      mode: 'rest',
      groups: ['BAD_GROUP'],
      entities: [{ id: 'DSI', primary: true, role: null }],
    })
    expect(document.users?.[0]?.passwordHash).toMatch(/^\$2y\$/)
    expect(document.folders).toEqual([])
    expect(notes.some((n) => n.section === 'folders' && n.id === '4')).toBe(true)
  })

  it("carries each group's privileges (usergroups_services) and leaves out, noted, one the document cannot hold", () => {
    expect(document.groups?.[0]?.privileges).toEqual(['create_contacts', 'add_links'])
    expect(document.groups?.[1]?.privileges).toEqual(['admin_users'])
    expect(notes).toContainEqual({
      section: 'groups',
      id: 'OK_GROUP',
      message: 'privilege "not a service id" not storable: left out',
    })
  })

  it('carries the parameters as they were, a timestamp as Maarch prints it; an id the document cannot hold is noted', () => {
    expect(document.parameters).toEqual([
      { id: 'workingDays', description: 'Jours ouvrés', stringValue: null, integerValue: 1, dateValue: null },
      { id: 'last_run', description: null, stringValue: '', integerValue: null, dateValue: '2024-05-06 07:08:09' },
    ])
    expect(notes).toContainEqual({
      section: 'parameters',
      id: 'bad id!',
      message: 'id not storable (letters, digits, "_" and "-"): left out',
    })
  })

  it('carries the diffusion list templates by id, departments by code and members by login in sequence; what it cannot is noted', () => {
    expect(document.listTemplates).toEqual([
      {
        id: 10,
        title: 'DSI',
        description: 'Direction',
        type: 'diffusionList',
        entity: 'DSI',
        owner: null,
        members: [
          { type: 'user', id: 'jdoe', mode: 'dest' },
          { type: 'entity', id: 'DSI', mode: 'cc' },
        ],
      },
    ])
    const templateNotes = notes.filter((n) => n.section === 'listTemplates').map((n) => `${n.id}: ${n.message}`)
    expect(templateNotes).toEqual([
      '10: member 3: user 99 is not imported: left out',
      '10: member 4: a second assignee: left out',
      '10: member 5: kind group unknown: left out',
      '10: member 6: role "Copie!" unknown: left out',
      '11: owner 99 is not imported: template left out',
      '12: entity 404 does not exist: template left out',
      '13: type signatureBook unknown: template left out',
    ])
  })
})
