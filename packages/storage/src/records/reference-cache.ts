import type { RecordReferenceFacts, RecordReferenceQuery, RecordTreeEntity } from '@mailroom/core'

type ModelFacts = NonNullable<RecordReferenceFacts['model']>

/**
 * What a lookup took from the cache instead of asking, frozen when it narrowed its query: the cache may be
 * cleared and refilled by other lookups while its statement runs, so its answer is completed from these.
 */
export interface KeptReferences {
  readonly version: string
  readonly model: ModelFacts | null
  readonly doctype: boolean
  readonly status: boolean
  readonly priority: boolean
  readonly entities: ReadonlyMap<number, { readonly entityId: string }>
  readonly tree: readonly RecordTreeEntity[] | null
}

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

  /** `query` without what is kept (the part the database must still answer) and what was kept for it; null when nothing is kept. */
  narrow(query: RecordReferenceQuery): { readonly query: RecordReferenceQuery; readonly kept: KeptReferences } | null {
    if (this.#version === null) return null
    const model = query.modelId !== null ? (this.#models.get(query.modelId) ?? null) : null
    const doctype = query.doctype !== null && this.#doctypes.has(query.doctype)
    const status = query.status !== null && this.#statuses.has(query.status)
    const priority = query.priority !== null && this.#priorities.has(query.priority)
    const entities = new Map<number, { readonly entityId: string }>()
    for (const id of query.entityIds) {
      const entity = this.#entities.get(id)
      if (entity !== undefined) entities.set(id, entity)
    }
    const tree = query.needEntityTree ? this.#tree : null
    return {
      kept: { version: this.#version, model, doctype, status, priority, entities, tree },
      query: {
        ...query,
        modelId: model !== null ? null : query.modelId,
        doctype: doctype ? null : query.doctype,
        status: status ? null : query.status,
        priority: priority ? null : query.priority,
        entityIds: query.entityIds.filter((id) => !entities.has(id)),
        needEntityTree: query.needEntityTree && tree === null,
      },
    }
  }

  /** The answer to `query` from the database's answer to its narrowed form and what was kept for it. */
  static complete(
    query: RecordReferenceQuery,
    kept: KeptReferences,
    answered: RecordReferenceFacts,
  ): RecordReferenceFacts {
    return {
      ...answered,
      model: kept.model ?? answered.model,
      doctypeExists: kept.doctype || answered.doctypeExists,
      statusExists: kept.status || answered.statusExists,
      priorityExists: kept.priority || answered.priorityExists,
      entities: new Map([...answered.entities, ...kept.entities]),
      entityTree: query.needEntityTree ? (kept.tree ?? answered.entityTree) : answered.entityTree,
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
