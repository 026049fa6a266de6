import type { RecordReferenceFacts, RecordReferenceQuery, RecordTreeEntity } from '@mailroom/core'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { NO_REFERENCES } from '../../../testing/src/fixtures/reference-queries.js'
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
  return [...data.entities].map(([id, entityId]) => ({
    id,
    entityId,
    parentEntityId: null,
    entityType: 'Direction',
    enabled: true,
    businessId: null,
  }))
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
    entities: new Map(
      query.entityIds.filter((id) => data.entities.has(id)).map((id) => [id, { entityId: data.entities.get(id)! }]),
    ),
    contacts: new Set(),
    visibleFolders: new Set(),
    tags: new Set(),
    customFields: new Map(),
    entityTree: query.needEntityTree ? treeOf(data) : [],
    reservedResourceId: null,
  }
}

/** A lookup in flight: its narrowed statement was answered against the data of its start. */
interface InFlight {
  readonly query: RecordReferenceQuery
  readonly startedOn: Dataset
  readonly narrowed: ReturnType<ReferenceCache['narrow']>
  readonly answered: RecordReferenceFacts | null
}

/** lookupReferences' first half: narrow, and the statement's answer at the current data. */
function start(cache: ReferenceCache, data: Dataset, query: RecordReferenceQuery): InFlight {
  const narrowed = cache.narrow(query)
  return { query, startedOn: data, narrowed, answered: narrowed === null ? null : answer(data, narrowed.query) }
}

/** Its second half: complete from what was kept, or ask everything again (at the data current by then). */
function finish(
  cache: ReferenceCache,
  lookup: InFlight,
  now: Dataset,
): { facts: RecordReferenceFacts; readAt: Dataset } {
  const { narrowed, answered, startedOn } = lookup
  if (narrowed !== null && answered !== null && startedOn.version === narrowed.kept.version) {
    cache.learn(startedOn.version, narrowed.query, answered)
    return { facts: ReferenceCache.complete(lookup.query, narrowed.kept, answered), readAt: startedOn }
  }
  const facts = answer(now, lookup.query)
  cache.learn(now.version, lookup.query, facts)
  return { facts, readAt: now }
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
  it('answers every lookup as the database would at the moment it read, however lookups overlap and the data changes', () => {
    // Commands over one cache: start a lookup, finish one in flight (any of them), or change the data.
    const command = fc.oneof(
      fc.record({ kind: fc.constant('start' as const), query: anyQuery }),
      fc.record({ kind: fc.constant('finish' as const), pick: fc.nat() }),
      fc.record({ kind: fc.constant('change' as const), seed: fc.nat() }),
    )
    const datasets = fc.array(anyDataset(0), { minLength: 4, maxLength: 4 })
    fc.assert(
      fc.property(datasets, fc.array(command, { minLength: 1, maxLength: 40 }), (sets, commands) => {
        const cache = new ReferenceCache()
        let version = 1
        let data: Dataset = { ...sets[0]!, version: '1' }
        const inFlight: InFlight[] = []
        const check = (lookup: InFlight) => {
          const { facts, readAt } = finish(cache, lookup, data)
          expect(facts).toEqual(answer(readAt, lookup.query))
        }
        for (const step of commands) {
          if (step.kind === 'start') inFlight.push(start(cache, data, step.query))
          else if (step.kind === 'finish' && inFlight.length > 0)
            check(inFlight.splice(step.pick % inFlight.length, 1)[0]!)
          else if (step.kind === 'change') data = { ...sets[step.seed % sets.length]!, version: String(++version) }
        }
        for (const lookup of inFlight.splice(0)) check(lookup)
      }),
    )
  })

  it('completes a lookup from what it kept even when the cache was dropped and refilled meanwhile', () => {
    const cache = new ReferenceCache()
    const query: RecordReferenceQuery = { ...NO_REFERENCES, doctype: 101 }
    cache.learn('7', query, answer(DEMO, query))
    const lookup = start(cache, DEMO, query)
    expect(lookup.narrowed?.query.doctype).toBeNull()
    // Another lookup saw version 8, a third (older, still at 7) refilled the cache with nothing about doctypes.
    cache.learn('8', NO_REFERENCES, answer({ ...DEMO, version: '8' }, NO_REFERENCES))
    cache.learn('7', NO_REFERENCES, answer(DEMO, NO_REFERENCES))
    expect(finish(cache, lookup, DEMO).facts.doctypeExists).toBe(true)
  })

  it('asks again only for what it does not keep', () => {
    const cache = new ReferenceCache()
    const query: RecordReferenceQuery = {
      ...NO_REFERENCES,
      modelId: 1,
      doctype: 101,
      status: 'NEW',
      priority: 'p',
      entityIds: [8, 9],
      needEntityTree: true,
    }
    expect(cache.narrow(query)).toBeNull()
    cache.learn('7', query, { ...answer(DEMO, query) })
    expect(cache.narrow(query)?.query).toEqual({
      ...query,
      modelId: null,
      doctype: null,
      status: null,
      entityIds: [9],
      needEntityTree: false,
    })
    // A missing reference is never kept: the priority and entity 9 (absent from the data) are asked again.
    cache.learn('8', { ...NO_REFERENCES, doctype: 101 }, answer(DEMO, { ...NO_REFERENCES, doctype: 101 }))
    expect(cache.version).toBe('8')
    expect(cache.narrow(query)?.query).toEqual({ ...query, doctype: null })
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
