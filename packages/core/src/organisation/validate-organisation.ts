import type { z } from 'zod'
import { errorMessage, isDomainError } from '../errors/domain-error.js'
import { INDEXING_KEYWORD_MACROS } from '../records/indexing-entities.js'
import { parseClause } from '../search/parser.js'
import { checkListTemplates } from './list-template-definitions.js'
import {
  itemKey,
  type OrganisationDocument,
  OrganisationDocumentSchema,
  type OrganisationItems,
  type OrganisationSection,
} from './organisation-schema.js'
import { checkActions, checkBaskets } from './validate-baskets.js'

/** One thing wrong with a document: where (`users[3].groups[0]`) and what. */
export interface OrganisationIssue {
  readonly path: string
  readonly message: string
}

/** What exists outside the document and may be named by it (stored rows apply keeps). */
export interface KnownReferences {
  readonly entities?: Iterable<string>
  readonly groups?: Iterable<string>
  /** Logins, any case. */
  readonly users?: Iterable<string>
  readonly doctypeFirstLevels?: Iterable<number>
  readonly doctypeSecondLevels?: Iterable<number>
  readonly indexingModels?: Iterable<number>
  readonly folders?: Iterable<number>
  readonly statuses?: Iterable<string>
  readonly actions?: Iterable<number>
  /**
   * Basket clauses and extra conditions stored now: kept as they are even when the clause language cannot
   * take them (an import carried them from Maarch and reported them), so an export applies back.
   */
  readonly clauses?: Iterable<string>
}

/** Options of {@link validateOrganisation}. */
export interface ValidateOrganisationOptions {
  /**
   * Accept basket clauses and extra conditions the clause language cannot take (an importer carrying a Maarch
   * installation's whole, which reports them); they are refused otherwise, unless already stored.
   */
  readonly acceptUnreadableClauses?: boolean
}

/** The outcome of {@link validateOrganisation}: the document with defaults applied, or every issue found. */
export type OrganisationValidation =
  | { readonly ok: true; readonly document: OrganisationDocument }
  | { readonly ok: false; readonly issues: readonly OrganisationIssue[] }

/** `['users', 3, 'groups', 0]` as `users[3].groups[0]`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`
    else out += out === '' ? String(part) : `.${String(part)}`
  }
  return out === '' ? '(document)' : out
}

/** A document issue as one line. */
export function formatIssue(issue: OrganisationIssue): string {
  return `${issue.path}: ${issue.message}`
}

function zodIssues(error: z.ZodError): OrganisationIssue[] {
  return error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return {
        path: formatIssuePath(issue.path),
        message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => JSON.stringify(k)).join(', ')}`,
      }
    }
    return { path: formatIssuePath(issue.path), message: issue.message }
  })
}

const CLAUSE_PREFIX = `${errorMessage('SEARCH_CLAUSE_INVALID')}: `

/** Null when the clause parses (macros allowed), else what the parser said without the search error's prefix. */
export function checkPerimeterClause(clause: string): string | null {
  try {
    parseClause(clause, { allowMacros: true, author: 'administrator' })
    return null
  } catch (error) {
    if (!isDomainError(error)) throw error
    return error.message.startsWith(CLAUSE_PREFIX) ? error.message.slice(CLAUSE_PREFIX.length) : error.message
  }
}

/**
 * Null when a basket clause (or an action's extra condition) parses in the clause language, macros allowed,
 * else what the parser said.
 */
export function checkBasketClause(clause: string): string | null {
  return checkPerimeterClause(clause)
}

class Checker {
  readonly issues: OrganisationIssue[] = []
  constructor(private readonly document: OrganisationDocument) {}

  add(path: string, message: string): void {
    this.issues.push({ path, message })
  }

  /** Items of a section with their path prefix. */
  each<S extends OrganisationSection>(section: S): [OrganisationItems[S], string][] {
    const items = (this.document[section] ?? []) as OrganisationItems[S][]
    return items.map((item, index) => [item, `${section}[${index}]`])
  }

  /** Reports items of a section sharing a key (or another unique field). */
  unique<S extends OrganisationSection>(
    section: S,
    field: string,
    keyOf: (item: OrganisationItems[S]) => string | number | undefined,
    what: string,
  ): void {
    const seen = new Map<string, string>()
    for (const [item, path] of this.each(section)) {
      const key = keyOf(item)
      if (key === undefined) continue
      const first = seen.get(String(key))
      if (first !== undefined) this.add(`${path}.${field}`, `duplicate ${what} ${JSON.stringify(key)} (also ${first})`)
      else seen.set(String(key), path)
    }
  }
}

function names<T>(
  items: readonly T[] | undefined,
  key: (item: T) => string | number,
  known: Iterable<string | number> | undefined,
): Set<string> {
  const set = new Set<string>()
  for (const item of items ?? []) set.add(String(key(item)))
  for (const name of known ?? []) set.add(String(name))
  return set
}

function checkEntities(c: Checker, doc: OrganisationDocument, entities: Set<string>): void {
  c.unique('entities', 'id', (e) => e.id, 'entity')
  c.unique('entities', 'serialId', (e) => e.serialId, 'entity serial id')
  const parentOf = new Map<string, string | null>()
  for (const [entity, path] of c.each('entities')) {
    parentOf.set(entity.id, entity.parent)
    if (entity.parent === null) continue
    if (entity.parent === entity.id) c.add(`${path}.parent`, `entity ${JSON.stringify(entity.id)} is its own parent`)
    else if (!entities.has(entity.parent)) c.add(`${path}.parent`, `no entity ${JSON.stringify(entity.parent)}`)
  }
  // Follow each entity's parents; a walk that comes back to a code it saw is a cycle, reported once per cycle.
  const reported = new Set<string>()
  for (const [index, entity] of (doc.entities ?? []).entries()) {
    const seen: string[] = []
    let current: string | null | undefined = entity.id
    while (current !== null && current !== undefined && !seen.includes(current)) {
      seen.push(current)
      current = parentOf.get(current)
    }
    if (current === entity.id && seen.length > 1) {
      const cycle = [...seen].sort().join(',')
      if (reported.has(cycle)) continue
      reported.add(cycle)
      c.add(
        `entities[${index}].parent`,
        `cycle in the entity tree: ${[...seen, entity.id].map((e) => JSON.stringify(e)).join(' -> ')}`,
      )
    }
  }
}

function checkGroups(c: Checker, entities: Set<string>): void {
  c.unique('groups', 'id', (g) => g.id, 'group')
  c.unique('groups', 'serialId', (g) => g.serialId, 'group serial id')
  for (const [group, path] of c.each('groups')) {
    if (group.perimeter !== null) {
      const problem = checkPerimeterClause(group.perimeter)
      if (problem !== null) c.add(`${path}.perimeter`, problem)
    }
    for (const [i, entity] of group.indexing.entities.entries()) {
      if (Object.hasOwn(INDEXING_KEYWORD_MACROS, entity))
        c.add(
          `${path}.indexing.entities[${i}]`,
          `${JSON.stringify(entity)} is a keyword: list it under indexing.keywords`,
        )
      else if (!entities.has(entity)) c.add(`${path}.indexing.entities[${i}]`, `no entity ${JSON.stringify(entity)}`)
    }
  }
}

function checkUsers(c: Checker, groups: Set<string>, entities: Set<string>): void {
  c.unique('users', 'login', (u) => u.login.toLowerCase(), 'login')
  c.unique('users', 'id', (u) => u.id, 'user id')
  for (const [user, path] of c.each('users')) {
    const seenGroups = new Set<string>()
    for (const [i, group] of user.groups.entries()) {
      if (!groups.has(group)) c.add(`${path}.groups[${i}]`, `no group ${JSON.stringify(group)}`)
      else if (seenGroups.has(group)) c.add(`${path}.groups[${i}]`, `group ${JSON.stringify(group)} listed twice`)
      seenGroups.add(group)
    }
    const seenEntities = new Set<string>()
    let primary: number | null = null
    for (const [i, membership] of user.entities.entries()) {
      if (!entities.has(membership.id)) c.add(`${path}.entities[${i}].id`, `no entity ${JSON.stringify(membership.id)}`)
      else if (seenEntities.has(membership.id))
        c.add(`${path}.entities[${i}].id`, `entity ${JSON.stringify(membership.id)} listed twice`)
      seenEntities.add(membership.id)
      if (!membership.primary) continue
      if (primary !== null)
        c.add(
          `${path}.entities[${i}].primary`,
          `two primary entities (${JSON.stringify(user.entities[primary]?.id)} and ${JSON.stringify(membership.id)})`,
        )
      else primary = i
    }
  }
}

function checkDoctypes(c: Checker, firstLevels: Set<string>, secondLevels: Set<string>): void {
  c.unique('doctypeFirstLevels', 'id', (l) => l.id, 'first level')
  c.unique('doctypeSecondLevels', 'id', (l) => l.id, 'second level')
  c.unique('doctypes', 'id', (d) => d.id, 'doctype')
  for (const [level, path] of c.each('doctypeSecondLevels')) {
    if (!firstLevels.has(String(level.firstLevel))) c.add(`${path}.firstLevel`, `no first level ${level.firstLevel}`)
  }
  for (const [doctype, path] of c.each('doctypes')) {
    if (!secondLevels.has(String(doctype.secondLevel)))
      c.add(`${path}.secondLevel`, `no second level ${doctype.secondLevel}`)
  }
}

function checkContacts(c: Checker, users: Set<string>): void {
  c.unique('contacts', 'id', (x) => x.id, 'contact')
  for (const [contact, path] of c.each('contacts')) {
    if (contact.creator !== null && !users.has(contact.creator.toLowerCase()))
      c.add(`${path}.creator`, `no user ${JSON.stringify(contact.creator)}`)
  }
}

function checkModels(c: Checker, users: Set<string>, models: Set<string>): void {
  c.unique('indexingModels', 'id', (m) => m.id, 'indexing model')
  for (const [model, path] of c.each('indexingModels')) {
    if (model.owner !== null && !users.has(model.owner.toLowerCase()))
      c.add(`${path}.owner`, `no user ${JSON.stringify(model.owner)}`)
    if (model.master !== null && !models.has(String(model.master)))
      c.add(`${path}.master`, `no indexing model ${model.master}`)
    const seen = new Set<string>()
    for (const [i, field] of model.fields.entries()) {
      if (seen.has(field.identifier))
        c.add(`${path}.fields[${i}].identifier`, `field ${JSON.stringify(field.identifier)} listed twice`)
      seen.add(field.identifier)
    }
  }
}

function checkFolders(
  c: Checker,
  doc: OrganisationDocument,
  users: Set<string>,
  entities: Set<string>,
  folders: Set<string>,
): void {
  c.unique('folders', 'id', (f) => f.id, 'folder')
  const parentOf = new Map((doc.folders ?? []).map((f) => [f.id, f.parent]))
  for (const [folder, path] of c.each('folders')) {
    if (!users.has(folder.owner.toLowerCase())) c.add(`${path}.owner`, `no user ${JSON.stringify(folder.owner)}`)
    if (folder.parent !== null && !folders.has(String(folder.parent)))
      c.add(`${path}.parent`, `no folder ${folder.parent}`)
    const seen = new Set<number>()
    for (
      let current: number | null | undefined = folder.parent;
      current !== null && current !== undefined;
      current = parentOf.get(current)
    ) {
      if (current === folder.id) {
        c.add(`${path}.parent`, `folder ${folder.id} is inside itself`)
        break
      }
      if (seen.has(current)) break
      seen.add(current)
    }
    for (const [i, share] of folder.sharing.entries()) {
      if (!Object.hasOwn(INDEXING_KEYWORD_MACROS, share.entity) && !entities.has(share.entity))
        c.add(`${path}.sharing[${i}].entity`, `no entity ${JSON.stringify(share.entity)}`)
    }
  }
}

/**
 * Checks a whole organisation document and returns every issue with its path, or the document with its
 * defaults applied. Pure: `known` lists what exists outside the document (stored rows apply keeps) that the
 * document may name; references are otherwise resolved within the document. Checks: the shape (zod), unique
 * keys (logins case-insensitively), every cross-reference, the entity tree and folder tree have no cycle,
 * a user has at most one primary entity, a template at most one assignee, every perimeter clause parses in the search language with macros,
 * and so does every basket clause and action condition (unless stored already, or `acceptUnreadableClauses`).
 */
export function validateOrganisation(
  input: unknown,
  known: KnownReferences = {},
  options: ValidateOrganisationOptions = {},
): OrganisationValidation {
  const parsed = OrganisationDocumentSchema.safeParse(input)
  if (!parsed.success) return { ok: false, issues: zodIssues(parsed.error) }
  const doc = parsed.data
  const c = new Checker(doc)
  const entities = names(doc.entities, (e) => e.id, known.entities)
  for (const e of doc.entities ?? []) if (e.serialId !== undefined) entities.add(String(e.serialId))
  const groups = names(doc.groups, (g) => g.id, known.groups)
  const users = names(
    doc.users,
    (u) => itemKey('users', u),
    [...(known.users ?? [])].map((l) => l.toLowerCase()),
  )
  checkEntities(
    c,
    doc,
    names(doc.entities, (e) => e.id, known.entities),
  )
  checkGroups(c, entities)
  checkUsers(
    c,
    groups,
    names(doc.entities, (e) => e.id, known.entities),
  )
  c.unique('statuses', 'id', (s) => s.id, 'status')
  checkDoctypes(
    c,
    names(doc.doctypeFirstLevels, (l) => l.id, known.doctypeFirstLevels),
    names(doc.doctypeSecondLevels, (l) => l.id, known.doctypeSecondLevels),
  )
  checkModels(
    c,
    users,
    names(doc.indexingModels, (m) => m.id, known.indexingModels),
  )
  c.unique('priorities', 'id', (p) => p.id, 'priority')
  c.unique('customFields', 'id', (f) => f.id, 'custom field')
  c.unique('tags', 'id', (t) => t.id, 'tag')
  checkFolders(
    c,
    doc,
    users,
    names(doc.entities, (e) => e.id, known.entities),
    names(doc.folders, (f) => f.id, known.folders),
  )
  checkContacts(c, users)
  c.unique('parameters', 'id', (x) => x.id, 'parameter')
  c.unique('attachmentTypes', 'id', (t) => t.id, 'attachment type')
  const storedClauses = new Set(known.clauses ?? [])
  const basketReferences = {
    statuses: names(doc.statuses, (s) => s.id, known.statuses),
    actions: names(doc.actions, (a) => a.id, known.actions),
    groups,
    entities: names(doc.entities, (e) => e.id, known.entities),
    clauseProblem: (clause: string) =>
      options.acceptUnreadableClauses === true || storedClauses.has(clause) ? null : checkBasketClause(clause),
  }
  checkListTemplates(c, doc.listTemplates ?? [], {
    entities: names(doc.entities, (e) => e.id, known.entities),
    users,
  })
  checkActions(c, doc.actions ?? [], basketReferences)
  checkBaskets(c, doc.baskets ?? [], basketReferences)
  return c.issues.length === 0 ? { ok: true, document: doc } : { ok: false, issues: c.issues }
}
