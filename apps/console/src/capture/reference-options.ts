import type {
  AttachmentType,
  ContactRow,
  CurrentUserProfile,
  DoctypeNode,
  EntityNode,
  IndexingModelRow,
  PriorityRow,
  StatusRow,
} from './capture-api.js'

/** One choice of a list: the value sent to the server and the text the reader sees. */
export interface Choice {
  readonly value: string
  readonly label: string
}

/** Choices under a heading (an <optgroup>). */
export interface ChoiceGroup {
  readonly label: string
  readonly choices: readonly Choice[]
}

const byLabel = (a: Choice, b: Choice) => a.label.localeCompare(b.label)

/** Statuses by label, each showing its code (the code is what records carry and searches compare). */
export function statusChoices(statuses: readonly StatusRow[], searchableOnly = false): Choice[] {
  return statuses
    .filter((s) => !searchableOnly || s.can_be_searched !== 'N')
    .map((s) => ({ value: s.id, label: `${s.label_status} (${s.id})` }))
    .sort(byLabel)
}

/**
 * Document types grouped under their second level ("COURRIERS / 01. Correspondances"), in the tree's order;
 * disabled types and empty groups left out. The value is the type's integer id (`doctype`, `type_id`).
 */
export function doctypeGroups(structure: readonly DoctypeNode[]): ChoiceGroup[] {
  const text = new Map(structure.map((node) => [String(node.id), node]))
  const groups = new Map<string, Choice[]>()
  for (const node of structure) {
    if (node.type_id === undefined || node.enabled === 'N') continue
    const parent = text.get(node.parent)
    const grandParent = parent ? text.get(parent.parent) : undefined
    const heading = [grandParent?.text, parent?.text].filter(Boolean).join(' / ') || '—'
    const group = groups.get(heading) ?? []
    group.push({ value: String(node.type_id), label: `${node.text} (${node.type_id})` })
    groups.set(heading, group)
  }
  return [...groups].map(([label, choices]) => ({ label, choices }))
}

/**
 * Entities in tree order, each indented under its parent (non-breaking spaces: a <select> shows no
 * nesting). `allowedOnly` keeps those the server marks allowed (the caller's entities and below), as
 * Maarch's indexing form does. `valueOf` picks what the form sends: the integer id or the entity_id.
 */
export function entityChoices(
  entities: readonly EntityNode[],
  options: { readonly allowedOnly: boolean; readonly value: 'serialId' | 'entity_id' },
): Choice[] {
  const children = new Map<string, EntityNode[]>()
  for (const entity of entities) {
    const siblings = children.get(entity.parent) ?? []
    siblings.push(entity)
    children.set(entity.parent, siblings)
  }
  const known = new Set(entities.map((e) => e.id))
  const roots = entities.filter((e) => e.parent === '#' || !known.has(e.parent))
  const out: Choice[] = []
  const seen = new Set<string>()
  const visit = (entity: EntityNode, depth: number) => {
    if (seen.has(entity.id)) return
    seen.add(entity.id)
    if (!options.allowedOnly || entity.allowed)
      out.push({
        value: options.value === 'serialId' ? String(entity.serialId) : entity.entity_id,
        label: `${'\u00a0\u00a0'.repeat(depth)}${entity.entity_label} (${entity.entity_id})`,
      })
    for (const child of [...(children.get(entity.id) ?? [])].sort((a, b) =>
      a.entity_label.localeCompare(b.entity_label),
    ))
      visit(child, depth + 1)
  }
  for (const root of [...roots].sort((a, b) => a.entity_label.localeCompare(b.entity_label))) visit(root, 0)
  return out
}

/** Priorities in their order, with their delay. */
export function priorityChoices(priorities: readonly PriorityRow[]): Choice[] {
  return [...priorities]
    .sort((a, b) => a.order - b.order)
    .map((p) => ({ value: p.id, label: `${p.label} (${p.delays} d)` }))
}

/** Indexing models by id; the default model is the one a new record starts with. */
export function modelChoices(models: readonly IndexingModelRow[]): { choices: Choice[]; initial: string | null } {
  const sorted = [...models].sort((a, b) => a.id - b.id)
  const initial = sorted.find((m) => m.default) ?? sorted[0]
  return {
    choices: sorted.map((m) => ({ value: String(m.id), label: m.label })),
    initial: initial ? String(initial.id) : null,
  }
}

/** Attachment types a person may choose (`show`), by label. */
export function attachmentTypeChoices(types: Readonly<Record<string, AttachmentType>>): Choice[] {
  return Object.entries(types)
    .filter(([, type]) => type.show)
    .map(([value, type]) => ({ value, label: type.label }))
    .sort(byLabel)
}

/** A contact as a line: "Firstname LASTNAME (Company)", its e-mail after, its id last. */
export function contactLabel(contact: ContactRow): string {
  const person = [contact.firstname, contact.lastname].filter((part) => part && part.trim() !== '').join(' ')
  const company = contact.company?.trim() ?? ''
  const name = person && company ? `${person} (${company})` : person || company || '—'
  const mail = contact.email?.trim() ? ` <${contact.email.trim()}>` : ''
  return `${name}${mail} #${contact.id}`
}

/** How a sender look-up reads what was typed: a contact's number, an e-mail address, or words. */
export type ContactQuery =
  | { readonly kind: 'id'; readonly id: number }
  | { readonly kind: 'mail'; readonly mail: string }
  | { readonly kind: 'words'; readonly words: string }
  | { readonly kind: 'none' }

export function contactQuery(typed: string): ContactQuery {
  const text = typed.trim().replace(/^#/, '')
  if (text === '') return { kind: 'none' }
  if (/^\d{1,9}$/.test(text)) return Number(text) > 0 ? { kind: 'id', id: Number(text) } : { kind: 'none' }
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return { kind: 'mail', mail: text }
  return text.length >= 2 ? { kind: 'words', words: text } : { kind: 'none' }
}

/** The service id Maarch gives root users instead of listing every privilege. */
const ALL_PRIVILEGES = 'ALL_PRIVILEGES'

/** What the signed-in person may do, read from GET /rest/currentUser/profile. */
export interface Abilities {
  /** One of their groups can index (the New record page). */
  readonly canIndex: boolean
  /** add_links: add and remove links between records. */
  readonly canLink: boolean
  /** admin_contacts: list and search contacts (others look a sender up by number or e-mail). */
  readonly canSearchContacts: boolean
}

export function hasPrivilege(profile: CurrentUserProfile, serviceId: string): boolean {
  return profile.privileges.includes(serviceId) || profile.privileges.includes(ALL_PRIVILEGES)
}

export function abilitiesOf(profile: CurrentUserProfile): Abilities {
  return {
    canIndex: profile.groups.some((group) => group.can_index),
    canLink: hasPrivilege(profile, 'add_links'),
    canSearchContacts: hasPrivilege(profile, 'admin_contacts'),
  }
}

/**
 * Before the profile is read, or when the server cannot answer it: offer everything and let the server's
 * refusal speak, as the console did before the profile existed.
 */
export const EVERY_ABILITY: Abilities = { canIndex: true, canLink: true, canSearchContacts: true }
