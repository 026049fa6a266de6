import type { RecordReferenceFacts, RecordReferenceQuery, RecordTreeEntity } from '@mailroom/core'

type ModelFacts = NonNullable<RecordReferenceFacts['model']>

/**
 * What create lookups read of the reference tables (indexing models and their fields, doctypes, statuses,
 * priorities, entities and their tree), kept with the database's reference version read in the same
 * statement (migration 0007 moves it on every change of those tables, in the changing transaction). A lookup
 * asks the database only for what is not kept, with the current version; when the version has moved, what
 * was kept is dropped and the lookup asks again for everything. Only facts that exist are kept: a missing
 * reference is always asked again. Users, contacts, folders, tags and custom fields are never kept.
 */
export class ReferenceCache {
  #version: string | null = null
  readonly #models = new Map<number, ModelFacts>()
  readonly #doctypes = new Set<number>()
  readonly #statuses = new Set<string>()
  readonly #priorities = new Set<string>()
  readonly #entities = new Map<number, { readonly entityId: string }>()
  #tree: readonly RecordTreeEntity[] | null = null

  /** The version the kept facts were read at (null: nothing kept). */
  get version(): string | null {
    return this.#version
  }

  /** `query` without what is kept: the part the database must still answer. */
  narrow(query: RecordReferenceQuery): RecordReferenceQuery {
    return {
      ...query,
      modelId: query.modelId !== null && this.#models.has(query.modelId) ? null : query.modelId,
      doctype: query.doctype !== null && this.#doctypes.has(query.doctype) ? null : query.doctype,
      status: query.status !== null && this.#statuses.has(query.status) ? null : query.status,
      priority: query.priority !== null && this.#priorities.has(query.priority) ? null : query.priority,
      entityIds: query.entityIds.filter((id) => !this.#entities.has(id)),
      needEntityTree: query.needEntityTree && this.#tree === null,
    }
  }

  /** The answer to `query` from the database's answer to `narrow(query)` and what is kept. */
  complete(query: RecordReferenceQuery, answered: RecordReferenceFacts): RecordReferenceFacts {
    const entities = new Map(answered.entities)
    for (const id of query.entityIds) {
      const kept = this.#entities.get(id)
      if (kept !== undefined) entities.set(id, kept)
    }
    return {
      ...answered,
      model: (query.modelId !== null ? this.#models.get(query.modelId) : undefined) ?? answered.model,
      doctypeExists: (query.doctype !== null && this.#doctypes.has(query.doctype)) || answered.doctypeExists,
      statusExists: (query.status !== null && this.#statuses.has(query.status)) || answered.statusExists,
      priorityExists: (query.priority !== null && this.#priorities.has(query.priority)) || answered.priorityExists,
      entities,
      entityTree: query.needEntityTree ? (this.#tree ?? answered.entityTree) : answered.entityTree,
    }
  }

  /** Keeps what the database answered to `asked`, read at `version` (another version drops what was kept). */
  learn(version: string, asked: RecordReferenceQuery, answered: RecordReferenceFacts): void {
    if (version !== this.#version) this.#clear(version)
    if (asked.modelId !== null && answered.model !== null) this.#models.set(asked.modelId, answered.model)
    if (asked.doctype !== null && answered.doctypeExists) this.#doctypes.add(asked.doctype)
    if (asked.status !== null && answered.statusExists) this.#statuses.add(asked.status)
    if (asked.priority !== null && answered.priorityExists) this.#priorities.add(asked.priority)
    for (const [id, entity] of answered.entities) this.#entities.set(id, entity)
    if (asked.needEntityTree) this.#tree = answered.entityTree
  }

  #clear(version: string): void {
    this.#version = version
    this.#models.clear()
    this.#doctypes.clear()
    this.#statuses.clear()
    this.#priorities.clear()
    this.#entities.clear()
    this.#tree = null
  }
}
