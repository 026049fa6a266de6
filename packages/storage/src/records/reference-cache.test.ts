import type { RecordReferenceFacts, RecordReferenceQuery, RecordTreeEntity } from '@mailroom/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NO_REFERENCES } from '../testing/reference-queries.js'
import { ReferenceCache } from './reference-cache.js'

/** A reference dataset at one version: what the database would answer. */
interface Dataset {
  readonly version: string
  readonly models: ReadonlyMap<number, NonNullable<RecordReferenceFacts['model']>>
  readonly doctypes: ReadonlySet<number>
  readonly statuses: ReadonlySet<string>
  readonly priorities: ReadonlySet<string>
  readonly entities: ReadonlyMap<number, string>
}

const model = (id: number, category: string): NonNullable<RecordReferenceFacts['model']> => ({
  id,
  category,
  enabled: true,
  master: null,
  mandatoryFile: false,
  mandatoryFields: [],
  disabledFields: [],
})

function treeOf(data: Dataset): RecordTreeEntity[] {
  return [...data.entities].map(([id, entityId]) => ({ id, entityId, parentEntityId: null, entityType: 'Direction', enabled: true, businessId: null }))
}

/** The database's answer to `query` over `data` (the parts the cache may keep; the others empty). */
function answer(data: Dataset, query: RecordReferenceQuery): RecordReferenceFacts {
  return {
    model: query.modelId === null ? null : (data.models.get(query.modelId) ?? null),
    doctypeExists: query.doctype !== null && data.doctypes.has(query.doctype),
    statusExists: query.status !== null && data.statuses.has(query.status),
    priorityExists: query.priority !== null && data.priorities.has(query.priority),
    users: new Set(),
    userIdsByLogin: new Map(),
    entities: new Map(query.entityIds.filter((id) => data.entities.has(id)).map((id) => [id, { entityId: data.entities.get(id)! }])),
    contacts: new Set(),
    visibleFolders: new Set(),
    tags: new Set(),
    customFields: new Map(),
    entityTree: query.needEntityTree ? treeOf(data) : [],
    reservedResourceId: null,
  }
}

/** What lookupReferences does with a cache, against `data` standing for the database. */
function cachedAnswer(cache: ReferenceCache, data: Dataset, query: RecordReferenceQuery): RecordReferenceFacts {
  if (cache.version !== null) {
    const narrowed = cache.narrow(query)
    const facts = answer(data, narrowed)
    if (data.version === cache.version) {
      cache.learn(data.version, narrowed, facts)
      return cache.complete(query, facts)
    }
  }
  const facts = answer(data, query)
  cache.learn(data.version, query, facts)
  return facts
}

const small = fc.integer({ min: 1, max: 5 })
const word = fc.constantFrom('NEW', 'COU', 'END', 'x')
const anyDataset = (version: number): fc.Arbitrary<Dataset> =>
  fc.record({
    version: fc.constant(String(version)),
    models: fc.uniqueArray(small).map((ids) => new Map(ids.map((id) => [id, model(id, `c${version}-${id}`)]))),
    doctypes: fc.uniqueArray(small).map((ids) => new Set(ids)),
    statuses: fc.uniqueArray(word).map((ids) => new Set(ids)),
    priorities: fc.uniqueArray(word).map((ids) => new Set(ids)),
    entities: fc.uniqueArray(small).map((ids) => new Map(ids.map((id) => [id, `E${version}-${id}`]))),
  })
const anyQuery: fc.Arbitrary<RecordReferenceQuery> = fc.record({
  modelId: fc.option(small),
  doctype: fc.option(small),
  status: fc.option(word),
  priority: fc.option(word),
  userIds: fc.constant([]),
  userLogins: fc.constant([]),
  entityIds: fc.uniqueArray(small, { maxLength: 3 }),
  contactIds: fc.constant([]),
  folderIds: fc.constant([]),
  tagIds: fc.constant([]),
  customFieldIds: fc.constant([]),
  needEntityTree: fc.boolean(),
  reserveResourceId: fc.constant(false),
})

describe('ReferenceCache', () => {
  it('answers every lookup as the database would, whatever was kept and however the data changed between lookups', () => {
    // A run: datasets at increasing versions, each followed by lookups; the cache lives across all of them.
    const run = fc.array(fc.tuple(fc.nat({ max: 1000 }), fc.array(anyQuery, { minLength: 1, maxLength: 6 })), { minLength: 1, maxLength: 5 })
    fc.assert(
      fc.property(run.chain((steps) => fc.tuple(...steps.map(([, queries], index) => fc.tuple(anyDataset(index + 1), fc.constant(queries))))), (steps) => {
        const cache = new ReferenceCache()
        for (const [data, queries] of steps) {
          for (const query of queries) expect(cachedAnswer(cache, data, query)).toEqual(answer(data, query))
        }
      }),
    )
  })

  it('asks again only for what it does not keep', () => {
    const cache = new ReferenceCache()
    const query: RecordReferenceQuery = { ...NO_REFERENCES, modelId: 1, doctype: 101, status: 'NEW', priority: 'p', entityIds: [8, 9], needEntityTree: true }
    expect(cache.narrow(query)).toEqual(query)
    cache.learn('7', query, { ...answer(DEMO, query) })
    expect(cache.narrow(query)).toEqual({ ...query, modelId: null, doctype: null, status: null, entityIds: [9], needEntityTree: false })
    // A missing reference is never kept: the priority and entity 9 (absent from the data) are asked again.
    cache.learn('8', { ...NO_REFERENCES, doctype: 101 }, answer(DEMO, { ...NO_REFERENCES, doctype: 101 }))
    expect(cache.version).toBe('8')
    expect(cache.narrow(query)).toEqual({ ...query, doctype: null })
  })
})


const DEMO: Dataset = {
  version: '7',
  models: new Map([[1, model(1, 'incoming')]]),
  doctypes: new Set([101]),
  statuses: new Set(['NEW']),
  priorities: new Set(),
  entities: new Map([[8, 'COU']]),
}
