import { maarchExchange } from '@mailroom/testing'
import { describe, expect, it } from 'vitest'
import type {
  AttachmentType,
  CurrentUserProfile,
  DoctypeNode,
  EntityNode,
  IndexingModelRow,
  PriorityRow,
  StatusRow,
} from './capture-api.js'
import {
  abilitiesOf,
  attachmentTypeChoices,
  contactLabel,
  contactQuery,
  doctypeGroups,
  entityChoices,
  hasPrivilege,
  modelChoices,
  priorityChoices,
  statusChoices,
} from './reference-options.js'

/** The body Maarch 20.10 answered to one recorded request: the lists are built from these shapes. */
function answer<T>(file: string, name: string): T {
  return maarchExchange(file, name).response.body as T
}

describe('lists from the answers of Maarch 20.10', () => {
  it('offers statuses by label with their code, searchable ones only on the search page', () => {
    const { statuses } = answer<{ statuses: StatusRow[] }>('statuses.json', 'list')
    const choices = statusChoices(statuses)
    expect(choices).toHaveLength(statuses.length)
    expect(choices).toContainEqual({ value: 'NEW', label: 'Nouveau courrier pour le service (NEW)' })
    expect(choices.map((c) => c.label)).toEqual([...choices.map((c) => c.label)].sort((a, b) => a.localeCompare(b)))
    const hidden = statuses.filter((s) => s.can_be_searched === 'N').map((s) => s.id)
    expect(statusChoices(statuses, true).map((c) => c.value)).toEqual(
      choices.map((c) => c.value).filter((code) => !hidden.includes(code)),
    )
  })

  it('groups document types under their first and second levels, valued by type_id', () => {
    const { structure } = answer<{ structure: DoctypeNode[] }>('doctypes.json', 'tree')
    const groups = doctypeGroups(structure)
    const first = groups.find((g) => g.choices.some((c) => c.value === '101'))
    expect(first?.label).toBe('COURRIERS / 01. Correspondances')
    expect(first?.choices).toContainEqual({ value: '101', label: 'Abonnements – documentation – archives (101)' })
    const types = structure.filter((node) => node.type_id !== undefined && node.enabled !== 'N')
    expect(groups.flatMap((g) => g.choices)).toHaveLength(types.length)
    expect(groups.every((g) => g.choices.length > 0)).toBe(true)
  })

  it('lists entities as a tree, children indented under their parent; allowed ones only when asked', () => {
    const { entities } = answer<{ entities: EntityNode[] }>('entities.json', 'list as bbain')
    const all = entityChoices(entities, { allowedOnly: false, value: 'serialId' })
    expect(all).toHaveLength(entities.length)
    const labels = all.map((c) => c.label)
    const ville = labels.indexOf('Ville de Maarch-les-bains (VILLE)')
    expect(ville).toBeGreaterThanOrEqual(0)
    // A child comes after its parent, one level deeper.
    const dga = labels.findIndex((l) => l.trim() === 'Direction Générale Adjointe (DGA)')
    const pjs = labels.findIndex((l) => l.trim() === 'Pôle Jeunesse et Sport (PJS)')
    expect(pjs).toBeGreaterThan(dga)
    const depth = (label: string) => (label.match(/^\u00a0*/)?.[0].length ?? 0) / 2
    expect(depth(labels[pjs]!)).toBe(depth(labels[dga]!) + 1)
    expect(all[pjs]?.value).toBe('6')

    const allowed = entityChoices(entities, { allowedOnly: true, value: 'entity_id' })
    expect(allowed.map((c) => c.value).sort()).toEqual(
      entities
        .filter((e) => e.allowed)
        .map((e) => e.entity_id)
        .sort(),
    )
    expect(allowed.map((c) => c.value)).toContain('PJS')
  })

  it('keeps an entity whose parent is missing (disabled) at the top, and never loops', () => {
    const orphan = { id: 'X', entity_id: 'X', entity_label: 'Orphan', serialId: 9, parent: 'GONE', allowed: true }
    const loop = { id: 'A', entity_id: 'A', entity_label: 'Loop', serialId: 1, parent: 'A', allowed: true }
    expect(entityChoices([orphan, loop], { allowedOnly: false, value: 'entity_id' }).map((c) => c.value)).toEqual(['X'])
  })

  it('orders priorities, starts with the default indexing model, and shows the attachment types people use', () => {
    const { priorities } = answer<{ priorities: PriorityRow[] }>('priorities.json', 'list')
    expect(priorityChoices([...priorities].reverse()).map((c) => c.label)).toEqual([
      'Normal (30 d)',
      'Urgent (8 d)',
      'Très urgent (4 d)',
    ])
    const { indexingModels } = answer<{ indexingModels: IndexingModelRow[] }>('indexing-models.json', 'list')
    const models = modelChoices(indexingModels)
    expect(models.initial).toBe('1')
    expect(models.choices[1]).toEqual({ value: '2', label: 'Courrier Départ' })
    expect(modelChoices([]).initial).toBeNull()

    const { attachmentsTypes } = answer<{ attachmentsTypes: Record<string, AttachmentType> }>(
      'attachments-types.json',
      'list',
    )
    const types = attachmentTypeChoices(attachmentsTypes)
    expect(types).toContainEqual({ value: 'simple_attachment', label: 'Pièce jointe' })
    expect(types.map((c) => c.value)).not.toContain('signed_response')
  })
})

describe('the sender look-up', () => {
  it('names a contact by person, company, e-mail and number', () => {
    const contact = answer<{ id: number }>('contacts-get.json', 'existing as cchaplin')
    expect(contactLabel(contact)).toBe('Jean-Louis ERCOLANI (MAARCH) <dev.maarch@maarch.org> #1')
    expect(contactLabel({ id: 3, company: 'Société Alpha' })).toBe('Société Alpha #3')
    expect(contactLabel({ id: 4, firstname: ' ', lastname: null })).toBe('— #4')
  })

  it('reads what is typed as a number, an e-mail address or words', () => {
    expect(contactQuery(' 12 ')).toEqual({ kind: 'id', id: 12 })
    expect(contactQuery('#7')).toEqual({ kind: 'id', id: 7 })
    expect(contactQuery('0')).toEqual({ kind: 'none' })
    expect(contactQuery('annie.capture@example.org')).toEqual({ kind: 'mail', mail: 'annie.capture@example.org' })
    expect(contactQuery('jean ercol')).toEqual({ kind: 'words', words: 'jean ercol' })
    expect(contactQuery('j')).toEqual({ kind: 'none' })
    expect(contactQuery('   ')).toEqual({ kind: 'none' })
  })
})

describe('what the profile lets a person do', () => {
  const profile = (user: string) => answer<CurrentUserProfile>('current-user-profile.json', user)

  it('lets bbain index and link, not search contacts; ddur none of them', () => {
    expect(abilitiesOf(profile('bbain'))).toEqual({ canIndex: true, canLink: true, canSearchContacts: false })
    expect(abilitiesOf(profile('ddur'))).toEqual({ canIndex: false, canLink: false, canSearchContacts: false })
  })

  it('indexes when one group of several can (cchaplin: MAARCHTOGEC cannot, WEBSERVICE can)', () => {
    expect(abilitiesOf(profile('cchaplin')).canIndex).toBe(true)
  })

  it('gives root every privilege', () => {
    const root = { ...profile('ddur'), privileges: ['ALL_PRIVILEGES'] }
    expect(hasPrivilege(root, 'admin_contacts')).toBe(true)
    expect(abilitiesOf(root).canLink).toBe(true)
  })
})
