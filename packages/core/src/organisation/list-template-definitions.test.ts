import { describe, expect, it } from 'vitest'
import { compactOrganisation } from './compact-organisation.js'
import type { OrganisationDocument } from './organisation-schema.js'
import { planOrganisation } from './plan-organisation.js'
import { validateOrganisation } from './validate-organisation.js'

/** PE and PJS, two clerks, PE's diffusion list and a clerk's own circuit. */
function document(templates: unknown[] = [peTemplate()]) {
  return {
    version: 1,
    entities: [
      { id: 'PJS', label: 'Pôle Jeunesse et Sport', shortLabel: 'PJS', type: 'Service' },
      { id: 'PE', label: 'Petite Enfance', shortLabel: 'PE', type: 'Bureau', parent: 'PJS' },
    ],
    users: [
      { login: 'ssaporta', entities: [{ id: 'PE', primary: true }] },
      { login: 'bbain', entities: [{ id: 'PJS', primary: true }] },
    ],
    listTemplates: templates,
  }
}

function peTemplate(fields: Record<string, unknown> = {}) {
  return {
    id: 7,
    title: 'Petite enfance',
    type: 'diffusionList',
    entity: 'PE',
    members: [
      { type: 'user', id: 'ssaporta', mode: 'dest' },
      { type: 'entity', id: 'PJS', mode: 'cc' },
    ],
    ...fields,
  }
}

const issues = (input: unknown, known = {}) => {
  const result = validateOrganisation(input, known)
  return result.ok ? [] : result.issues.map((i) => `${i.path}: ${i.message}`)
}

const validated = (input: unknown): OrganisationDocument => {
  const result = validateOrganisation(input)
  if (!result.ok) throw new Error(JSON.stringify(result.issues))
  return result.document
}

describe('diffusion list templates in the organisation document', () => {
  it('accepts a department’s template, defaults filled in, and compacts back to what was written', () => {
    const doc = validated(document())
    expect(doc.listTemplates).toEqual([{ ...peTemplate(), description: null, owner: null }])
    expect(compactOrganisation(doc).listTemplates).toEqual([peTemplate()])
  })

  it('accepts a user’s own circuit without department, and names given in another case for logins', () => {
    const own = {
      id: 8,
      title: 'Mon visa',
      type: 'visaCircuit',
      owner: 'BBAIN',
      members: [{ type: 'user', id: 'SSaporta', mode: 'visa' }],
    }
    expect(issues(document([own]))).toEqual([])
  })

  it('finds every name it cannot resolve, a second assignee, a duplicate id', () => {
    const bad = peTemplate({
      entity: 'NOPE',
      owner: 'ghost',
      members: [
        { type: 'user', id: 'ssaporta', mode: 'dest' },
        { type: 'user', id: 'bbain', mode: 'dest' },
        { type: 'user', id: 'nobody', mode: 'cc' },
        { type: 'entity', id: 'DRH', mode: 'cc' },
      ],
    })
    expect(issues(document([bad, peTemplate()]))).toEqual([
      'listTemplates[0].entity: no entity "NOPE"',
      'listTemplates[0].owner: no user "ghost"',
      'listTemplates[0].members[1].mode: a second assignee (dest)',
      'listTemplates[0].members[2].id: no user "nobody"',
      'listTemplates[0].members[3].id: no entity "DRH"',
      'listTemplates[1].id: duplicate template 7 (also listTemplates[0])',
    ])
  })

  it('takes names stored outside the document', () => {
    const template = peTemplate({ members: [{ type: 'entity', id: 'DRH', mode: 'cc' }] })
    expect(issues(document([template]), { entities: ['DRH'] })).toEqual([])
  })

  it('refuses what the document cannot hold: kinds, types, roles, NULs', () => {
    expect(issues(document([peTemplate({ type: 'signatureBook' })]))[0]).toMatch(/^listTemplates\[0\]\.type: /)
    const odd = (member: Record<string, unknown>) => issues(document([peTemplate({ members: [member] })]))
    expect(odd({ type: 'group', id: 'AGENT', mode: 'cc' })[0]).toMatch(/^listTemplates\[0\]\.members\[0\]\.type: /)
    expect(odd({ type: 'user', id: 'ssaporta', mode: 'Copie' })).toEqual([
      'listTemplates[0].members[0].mode: lower-case letters and "_", at most 64',
    ])
    expect(odd({ type: 'user', id: 'ss\u0000aporta', mode: 'cc' })).toEqual([
      'listTemplates[0].members[0].id: must not contain a NUL character',
    ])
    expect(issues(document([peTemplate({ title: '' })]))[0]).toMatch(/^listTemplates\[0\]\.title: /)
  })
})

describe('a prune that would leave a template naming what it removes', () => {
  const stored = validated(document())
  const state = { organisation: stored, inUse: {} }

  it('is refused for the department, its assignee and an entity in copy, as long as the template stays', () => {
    const smaller = {
      version: 1,
      entities: [{ id: 'PJS', label: 'Pôle Jeunesse et Sport', shortLabel: 'PJS', type: 'Service' }],
      users: [{ login: 'bbain', entities: [{ id: 'PJS', primary: true }] }],
    }
    const plan = planOrganisation(validated(smaller), state, { prune: true })
    expect(plan.refused.map((issue) => `${issue.path}: ${issue.message}`)).toEqual([
      'entities: cannot remove "PE": template 7 is its template',
      'users: cannot remove "ssaporta": template 7 names it (dest)',
    ])
    // Removing the template with them is fine.
    const withoutTemplates = planOrganisation(validated({ ...smaller, listTemplates: [] }), state, { prune: true })
    expect(withoutTemplates.refused).toEqual([])
    expect(withoutTemplates.sections.listTemplates.removed.map((t) => t.id)).toEqual([7])
  })

  it('plans a change of members as a change, and the same template as none', () => {
    expect(planOrganisation(validated(document()), state).sections.listTemplates).toEqual({
      added: [],
      changed: [],
      removed: [],
    })
    const reordered = peTemplate({ members: [...peTemplate().members].reverse() })
    expect(planOrganisation(validated(document([reordered])), state).sections.listTemplates.changed).toHaveLength(1)
  })
})
