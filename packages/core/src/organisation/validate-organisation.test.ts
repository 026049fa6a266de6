import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { errorMessage } from '../errors/domain-error.js'
import { type OrganisationDocumentInput, organisationJsonSchema } from './organisation-schema.js'
import { describePlan, isEmptyPlan, planOrganisation, summarisePlan } from './plan-organisation.js'
import { formatIssue, validateOrganisation } from './validate-organisation.js'

const base: OrganisationDocumentInput = {
  version: 1,
  entities: [
    { id: 'CITY', label: 'City', shortLabel: 'City', type: 'Direction', businessId: '123' },
    { id: 'HR', label: 'Human resources', shortLabel: 'HR', type: 'Service', parent: 'CITY' },
    { id: 'MAIL', label: 'Mail room', shortLabel: 'Mail', type: 'Service', parent: 'CITY' },
  ],
  groups: [
    {
      id: 'ADMIN',
      label: 'Administrators',
      perimeter: '1=1',
      canIndex: true,
      indexing: { keywords: ['ALL_ENTITIES'] },
    },
    {
      id: 'AGENT',
      label: 'Agents',
      perimeter: 'destination in (@my_entities, @subentities[@my_primary_entity])',
      canIndex: true,
      indexing: { entities: ['HR'], keywords: ['MY_ENTITIES'] },
    },
  ],
  users: [
    { login: 'admin', mode: 'root', groups: ['ADMIN'], entities: [{ id: 'CITY', primary: true }] },
    { login: 'alice', firstname: 'Alice', groups: ['AGENT'], entities: [{ id: 'HR', primary: true }, { id: 'MAIL' }] },
  ],
  statuses: [
    { id: 'NEW', label: 'New' },
    { id: 'END', label: 'Closed', closing: true },
  ],
  doctypeFirstLevels: [{ id: 1, label: 'Letters' }],
  doctypeSecondLevels: [{ id: 1, label: 'Requests', firstLevel: 1 }],
  doctypes: [{ id: 101, label: 'Request', secondLevel: 1 }],
  indexingModels: [
    {
      id: 1,
      label: 'Incoming',
      category: 'incoming',
      owner: 'admin',
      fields: [{ identifier: 'doctype', mandatory: true, unit: 'mail' }],
    },
  ],
  priorities: [{ id: 'normal', label: 'Normal', delays: 30, order: 1 }],
  customFields: [{ id: 1, label: 'Channel', type: 'select', values: ['Mail', 'Fax'] }],
  tags: [{ id: 1, label: 'URGENT' }],
  folders: [{ id: 1, label: 'Public', public: true, owner: 'admin', sharing: [{ entity: 'ALL_ENTITIES' }] }],
  contacts: [{ id: 1, lastname: 'Dupont' }],
}

function issues(input: unknown, known = {}): string[] {
  const result = validateOrganisation(input, known)
  return result.ok ? [] : result.issues.map(formatIssue)
}

function edit(change: (doc: any) => void): unknown {
  const doc = structuredClone(base) as any
  change(doc)
  return doc
}

describe('validateOrganisation', () => {
  it('accepts a complete document and applies the defaults', () => {
    const result = validateOrganisation(base)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.document.users?.[0]).toMatchObject({ login: 'admin', mode: 'root_visible', enabled: true })
    expect(result.document.entities?.[0]).toMatchObject({ parent: null, enabled: true, address: { city: null } })
    expect(result.document.groups?.[0]?.digitalSafe).toBe(false)
  })

  it('names an unknown group with its path', () => {
    expect(issues(edit((d) => d.users.push({ login: 'bob', groups: ['AGENT', 'AGNT'] })))).toEqual([
      'users[2].groups[1]: no group "AGNT"',
    ])
  })

  it("reports a clause that does not parse with the parser's words and position", () => {
    expect(issues(edit((d) => (d.groups[1].perimeter = 'destinaton = 1')))).toEqual([
      'groups[1].perimeter: unknown column "destinaton" at position 1',
    ])
    expect(issues(edit((d) => (d.groups[0].perimeter = 'destination in (@nope)')))).toEqual([
      'groups[0].perimeter: unknown macro "@nope" at position 17',
    ])
  })

  it('finds a cycle in the entity tree once', () => {
    expect(issues(edit((d) => (d.entities[0].parent = 'HR')))).toEqual([
      'entities[0].parent: cycle in the entity tree: "CITY" -> "HR" -> "CITY"',
    ])
    expect(issues(edit((d) => (d.entities[1].parent = 'HR')))).toEqual([
      'entities[1].parent: entity "HR" is its own parent',
    ])
  })

  it('refuses two primary entities, duplicate logins (any case) and unknown entities', () => {
    expect(
      issues(
        edit((d) => {
          d.users[1].entities[1].primary = true
          d.users.push({ login: 'ALICE', entities: [{ id: 'NOPE' }] })
        }),
      ),
    ).toEqual([
      'users[2].login: duplicate login "alice" (also users[1])',
      'users[1].entities[1].primary: two primary entities ("HR" and "MAIL")',
      'users[2].entities[0].id: no entity "NOPE"',
    ])
  })

  it('returns every error of a document, not the first', () => {
    const found = issues(
      edit((d) => {
        d.users[0].groups = ['X']
        d.doctypes[0].secondLevel = 9
        d.indexingModels[0].owner = 'ghost'
        d.folders[0].sharing = [{ entity: 'GHOST' }]
        d.groups[0].indexing.entities = ['ALL_ENTITIES']
        d.statuses.push({ id: 'NEW', label: 'again' })
      }),
    )
    expect(found).toEqual([
      'groups[0].indexing.entities[0]: "ALL_ENTITIES" is a keyword: list it under indexing.keywords',
      'users[0].groups[0]: no group "X"',
      'statuses[2].id: duplicate status "NEW" (also statuses[0])',
      'doctypes[0].secondLevel: no second level 9',
      'indexingModels[0].owner: no user "ghost"',
      'folders[0].sharing[0].entity: no entity "GHOST"',
    ])
  })

  it('reports shape errors with their paths, unknown fields included', () => {
    const found = issues(
      edit((d) => {
        d.users[0].mode = 'admin'
        d.entities[0].colour = 'red'
        d.version = 2
      }),
    )
    expect(found).toHaveLength(3)
    expect(found[0]).toMatch(/^version: /)
    expect(found).toContain('entities[0]: unknown field "colour"')
    expect(found.some((line) => line.startsWith('users[0].mode: '))).toBe(true)
    expect(issues('not a document')[0]).toMatch(/^\(document\): /)
  })

  it('resolves names against what is stored outside the document', () => {
    const partial = {
      version: 1,
      users: [{ login: 'carol', groups: ['AGENT'], entities: [{ id: 'HR', primary: true }] }],
    }
    expect(issues(partial)).toEqual(['users[0].groups[0]: no group "AGENT"', 'users[0].entities[0].id: no entity "HR"'])
    expect(issues(partial, { groups: ['AGENT'], entities: ['HR'] })).toEqual([])
  })

  it('never throws, whatever the input', () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const result = validateOrganisation(value)
        expect(typeof result.ok).toBe('boolean')
      }),
    )
  })

  it('renders the issue list in the catalogue message', () => {
    const result = validateOrganisation(edit((d) => (d.users[0].groups = ['X'])))
    if (result.ok) throw new Error('expected issues')
    expect(errorMessage('ORGANISATION_INVALID', { issues: result.issues })).toBe(
      'Organisation document is not valid (1 error):\nusers[0].groups[0]: no group "X"',
    )
  })

  it('generates a JSON Schema that lists every section', () => {
    const schema = organisationJsonSchema() as { properties: Record<string, unknown>; required: string[] }
    expect(Object.keys(schema.properties)).toEqual(
      expect.arrayContaining(['version', 'entities', 'groups', 'users', 'contacts']),
    )
    expect(schema.required).toEqual(['version'])
  })
})

describe('planOrganisation', () => {
  const parsed = validateOrganisation(base)
  if (!parsed.ok) throw new Error('base document is invalid')
  const stored = {
    ...parsed.document,
    users: parsed.document.users?.map((u, i) => ({ ...u, id: i + 1, passwordHash: 'hash' })),
  }
  const state = { organisation: stored, inUse: { statuses: ['NEW'] } }

  it('plans nothing for the stored organisation, kept fields left out', () => {
    const plan = planOrganisation(parsed.document, state)
    expect(isEmptyPlan(plan)).toBe(true)
    expect(describePlan(plan)).toEqual(['no changes'])
  })

  it("reads a user's groups and entities as sets: their order is no change", () => {
    const reordered = validateOrganisation(
      edit((d) => {
        d.groups.push({ id: 'Z', label: 'Z' })
        d.users[1].groups = ['Z', 'AGENT']
        d.users[1].entities = [{ id: 'MAIL' }, { id: 'HR', primary: true }]
      }),
    )
    const stored = validateOrganisation(
      edit((d) => {
        d.groups.push({ id: 'Z', label: 'Z' })
        d.users[1].groups = ['AGENT', 'Z']
      }),
    )
    if (!reordered.ok || !stored.ok) throw new Error('invalid')
    expect(isEmptyPlan(planOrganisation(reordered.document, { organisation: stored.document, inUse: {} }))).toBe(true)
  })

  it('plans additions and changes per section, and removals only with prune', () => {
    const next = validateOrganisation(
      edit((d) => {
        d.users[1].lastname = 'Martin'
        d.users.push({ login: 'bob' })
        d.statuses = [{ id: 'NEW', label: 'New' }]
      }),
    )
    if (!next.ok) throw new Error('invalid')
    expect(summarisePlan(planOrganisation(next.document, state))).toEqual({
      users: { added: ['bob'], changed: ['alice'], removed: [] },
    })
    const pruned = planOrganisation(next.document, state, { prune: true })
    expect(summarisePlan(pruned).statuses).toEqual({ added: [], changed: [], removed: ['END'] })
    expect(pruned.sections.users.changed[0]).toMatchObject({ id: 2, passwordHash: 'hash', lastname: 'Martin' })
    expect(describePlan(pruned)).toEqual([
      'users: +1 ~1 -0 (added: bob; changed: alice)',
      'statuses: +0 ~0 -1 (removed: END)',
    ])
  })

  it('refuses to prune what records use and to move a stored id', () => {
    const next = validateOrganisation(
      edit((d) => {
        d.statuses = [{ id: 'END', label: 'Closed', closing: true }]
        d.users[1].id = 1
      }),
    )
    if (!next.ok) throw new Error('invalid')
    expect(planOrganisation(next.document, state, { prune: true }).refused).toEqual([
      { path: 'users[1].id', message: 'id 1 belongs to "admin"' },
      { path: 'statuses', message: 'cannot remove "NEW": records use it' },
    ])
  })

  it('refuses to prune a user who still owns a folder or an indexing model', () => {
    const next = validateOrganisation(
      edit((d) => {
        d.users = [d.users[1]]
        delete d.folders
        delete d.indexingModels
      }),
      { users: ['admin'] },
    )
    if (!next.ok) throw new Error('invalid')
    expect(planOrganisation(next.document, state, { prune: true }).refused).toEqual([
      { path: 'users', message: 'cannot remove "admin": folder 1 belongs to them' },
      { path: 'users', message: 'cannot remove "admin": indexing model 1 belongs to them' },
    ])
  })

  it('leaves sections the document does not have alone, even with prune', () => {
    const plan = planOrganisation({ version: 1, tags: [{ id: 2, label: 'NEW' }] }, state, { prune: true })
    expect(summarisePlan(plan)).toEqual({ tags: { added: ['2'], changed: [], removed: ['1'] } })
  })
})
