import { type CanonicalValue, canonicalJson } from '../journal/canonical-json.js'
import { type ActionDefinition, type BasketDefinition, canonicalAction, canonicalBasket } from './basket-definitions.js'
import { listTemplateNamesRemoved } from './list-template-definitions.js'
import {
  type GroupDefinition,
  itemKey,
  ORGANISATION_SECTIONS,
  type OrganisationDocument,
  type OrganisationItems,
  type OrganisationSection,
  type UserDefinition,
} from './organisation-schema.js'
import { basketNamesRemoved } from './plan-baskets.js'
import type { OrganisationIssue } from './validate-organisation.js'

/** Keys (itemKey) of the stored items that records use, per section: prune never removes them. */
export type OrganisationUsage = { readonly [S in OrganisationSection]?: readonly string[] }

/** What is stored now: the installation exported as a document (every section, password hashes included) and what records use. */
export interface OrganisationState {
  readonly organisation: OrganisationDocument
  readonly inUse: OrganisationUsage
}

/** Options of {@link planOrganisation}. */
export interface PlanOptions {
  /** Remove, in each section the document has, the stored items it does not list. */
  readonly prune?: boolean
}

/** The changes of one section: full definitions of what is added or changed (kept fields filled in), and what is removed. */
export interface SectionChanges<S extends OrganisationSection> {
  readonly added: readonly OrganisationItems[S][]
  readonly changed: readonly OrganisationItems[S][]
  readonly removed: readonly OrganisationItems[S][]
}

/** What applying a document would do. Apply refuses a plan whose `refused` is not empty. */
export interface OrganisationPlan {
  readonly sections: { readonly [S in OrganisationSection]: SectionChanges<S> }
  /** Why the plan cannot be applied (prune of what records use, a stored id a document would change). */
  readonly refused: readonly OrganisationIssue[]
}

/** The keys of a plan's changes, per section (sections without changes left out): what history records. */
export type OrganisationPlanSummary = {
  readonly [S in OrganisationSection]?: {
    readonly added: readonly string[]
    readonly changed: readonly string[]
    readonly removed: readonly string[]
  }
}

/** Fields whose absence from a document means "keep what is stored". */
const KEPT_FIELDS: { readonly [S in OrganisationSection]?: readonly string[] } = {
  entities: ['serialId'],
  groups: ['serialId'],
  users: ['id', 'passwordHash'],
  contacts: ['creationDate', 'modificationDate'],
}

/** The stored numeric identity of an item that a document may state but never change. */
const FIXED_IDS: { readonly [S in OrganisationSection]?: string } = {
  entities: 'serialId',
  groups: 'serialId',
  users: 'id',
}

function withKeptFields<S extends OrganisationSection>(
  section: S,
  wanted: OrganisationItems[S],
  stored: OrganisationItems[S] | undefined,
): OrganisationItems[S] {
  const fields = KEPT_FIELDS[section]
  if (fields === undefined || stored === undefined) return wanted
  const filled: Record<string, unknown> = { ...wanted }
  for (const field of fields)
    if (filled[field] === undefined && (stored as Record<string, unknown>)[field] !== undefined)
      filled[field] = (stored as Record<string, unknown>)[field]
  return filled as OrganisationItems[S]
}

/**
 * A user's groups and entities, a group's privileges, an action's categories, a basket's groups and links are
 * sets: their order in a document means nothing and is not stored.
 */
function comparable<S extends OrganisationSection>(section: S, item: OrganisationItems[S]): unknown {
  if (section === 'actions') return canonicalAction(item as ActionDefinition)
  if (section === 'baskets') return canonicalBasket(item as BasketDefinition)
  if (section === 'groups') {
    const group = item as GroupDefinition
    return { ...group, privileges: [...group.privileges].sort() }
  }
  if (section !== 'users') return item
  const user = item as UserDefinition
  return {
    ...user,
    groups: [...user.groups].sort(),
    entities: [...user.entities].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  }
}

function same<S extends OrganisationSection>(section: S, a: OrganisationItems[S], b: OrganisationItems[S]): boolean {
  return (
    canonicalJson(comparable(section, a) as CanonicalValue) === canonicalJson(comparable(section, b) as CanonicalValue)
  )
}

function planSection<S extends OrganisationSection>(
  section: S,
  document: OrganisationDocument,
  state: OrganisationState,
  options: PlanOptions,
  refused: OrganisationIssue[],
): SectionChanges<S> {
  const wantedItems = document[section] as OrganisationItems[S][] | undefined
  if (wantedItems === undefined) return { added: [], changed: [], removed: [] }
  const storedItems = (state.organisation[section] ?? []) as OrganisationItems[S][]
  const stored = new Map(storedItems.map((item) => [itemKey(section, item), item]))
  const fixed = FIXED_IDS[section]
  const storedIds = new Map<unknown, string>()
  if (fixed !== undefined)
    for (const item of storedItems) storedIds.set((item as Record<string, unknown>)[fixed], itemKey(section, item))
  const added: OrganisationItems[S][] = []
  const changed: OrganisationItems[S][] = []
  const listed = new Set<string>()
  for (const [index, wanted] of wantedItems.entries()) {
    const key = itemKey(section, wanted)
    listed.add(key)
    const before = stored.get(key)
    const after = withKeptFields(section, wanted, before)
    if (fixed !== undefined) {
      const id = (after as Record<string, unknown>)[fixed]
      const owner = id === undefined ? undefined : storedIds.get(id)
      if (owner !== undefined && owner !== key) {
        refused.push({
          path: `${section}[${index}].${fixed}`,
          message: `${fixed} ${String(id)} belongs to ${JSON.stringify(owner)}`,
        })
        continue
      }
    }
    if (before === undefined) added.push(after)
    else if (!same(section, before, after)) changed.push(after)
  }
  const removed: OrganisationItems[S][] = []
  if (options.prune === true) {
    const used = new Set(state.inUse[section] ?? [])
    for (const [key, item] of stored) {
      if (listed.has(key)) continue
      if (used.has(key))
        refused.push({ path: section, message: `cannot remove ${JSON.stringify(key)}: records use it` })
      else removed.push(item)
    }
  }
  return { added, changed, removed }
}

/**
 * What applying `document` (validated) to the installation in `state` would change, section by section. Items
 * are matched on their key (codes, logins case-insensitively, numeric ids); an item differing in any field is
 * changed; fields a document may leave out to keep what is stored (serial ids, password hashes) are filled in
 * from the stored item first, so an exported document applies with no change. Sections the document leaves out
 * are untouched; with `prune`, stored items a present section does not list are removed, except those records
 * use, which are reported in `refused`. Pure.
 */
export function planOrganisation(
  document: OrganisationDocument,
  state: OrganisationState,
  options: PlanOptions = {},
): OrganisationPlan {
  const refused: OrganisationIssue[] = []
  const sections = Object.fromEntries(
    ORGANISATION_SECTIONS.map((section) => [section, planSection(section, document, state, options, refused)]),
  ) as unknown as OrganisationPlan['sections']
  refused.push(...ownersRemoved(document, state, sections.users.removed))
  refused.push(
    ...basketNamesRemoved(document, state.organisation, {
      groups: sections.groups.removed.map((g) => g.id),
      statuses: sections.statuses.removed.map((s) => s.id),
      actions: sections.actions.removed.map((a) => a.id),
    }),
  )
  refused.push(
    ...listTemplateNamesRemoved(document.listTemplates ?? state.organisation.listTemplates ?? [], {
      entities: sections.entities.removed.map((e) => e.id),
      logins: sections.users.removed.map((u) => u.login),
    }),
  )
  return { sections, refused }
}

/** Removed users who would still own a folder or an indexing model after the apply (no reference would hold them). */
function ownersRemoved(
  document: OrganisationDocument,
  state: OrganisationState,
  removed: readonly UserDefinition[],
): OrganisationIssue[] {
  if (removed.length === 0) return []
  const gone = new Set(removed.map((user) => user.login.toLowerCase()))
  const folders = document.folders ?? state.organisation.folders ?? []
  const models = document.indexingModels ?? state.organisation.indexingModels ?? []
  const owned = [
    ...folders.map((f) => ({ owner: f.owner, what: `folder ${f.id}` })),
    ...models.flatMap((m) => (m.owner === null ? [] : [{ owner: m.owner, what: `indexing model ${m.id}` }])),
  ]
  return owned
    .filter((item) => gone.has(item.owner.toLowerCase()))
    .map((item) => ({
      path: 'users',
      message: `cannot remove ${JSON.stringify(item.owner.toLowerCase())}: ${item.what} belongs to them`,
    }))
}

/** The keys of what a plan adds, changes and removes, per section with changes. */
export function summarisePlan(plan: OrganisationPlan): OrganisationPlanSummary {
  const summary: Record<string, { added: string[]; changed: string[]; removed: string[] }> = {}
  for (const section of ORGANISATION_SECTIONS) {
    const changes = plan.sections[section] as SectionChanges<OrganisationSection>
    const keys = (items: readonly OrganisationItems[OrganisationSection][]) =>
      items.map((item) => itemKey(section, item))
    if (changes.added.length + changes.changed.length + changes.removed.length === 0) continue
    summary[section] = { added: keys(changes.added), changed: keys(changes.changed), removed: keys(changes.removed) }
  }
  return summary as OrganisationPlanSummary
}

/** True when applying the plan would change nothing. */
export function isEmptyPlan(plan: OrganisationPlan): boolean {
  return Object.keys(summarisePlan(plan)).length === 0
}

/** The plan as lines a person reads: one per section with changes (`users: +2 ~1 -0 (added: a, b; changed: c)`), or `no changes`. */
export function describePlan(plan: OrganisationPlan): string[] {
  return describeSummary(summarisePlan(plan))
}

/** A plan's summary (as history keeps it) as lines: one per section with changes, or `no changes`. */
export function describeSummary(summary: OrganisationPlanSummary): string[] {
  const lines: string[] = []
  for (const section of ORGANISATION_SECTIONS) {
    const changes = summary[section]
    if (changes === undefined) continue
    const parts = (['added', 'changed', 'removed'] as const)
      .filter((k) => changes[k].length > 0)
      .map((k) => `${k}: ${listKeys(changes[k])}`)
    lines.push(
      `${section}: +${changes.added.length} ~${changes.changed.length} -${changes.removed.length} (${parts.join('; ')})`,
    )
  }
  return lines.length === 0 ? ['no changes'] : lines
}

const LISTED_KEYS = 10

function listKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, LISTED_KEYS).join(', ')
  return keys.length > LISTED_KEYS ? `${shown} and ${keys.length - LISTED_KEYS} more` : shown
}
