import type {
  Actor,
  DisabledModelField,
  EarlierReferenceFacts,
  EarlierReferenceQuery,
  RecordReferenceFacts,
  RecordReferenceQuery,
  RecordTreeEntity,
} from '@mailroom/core'
import { CompiledQuery, type Kysely, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { statementShapes } from '../database/statement-shapes.js'
import { ReferenceCache } from './reference-cache.js'

interface FactsRow {
  model: {
    id: number
    category: string
    enabled: boolean
    master: number | null
    mandatoryFile: boolean
    mandatoryFields: string[]
    disabledFields: DisabledModelField[]
  } | null
  doctype_exists: boolean
  status_exists: boolean
  priority_exists: boolean
  users: number[]
  logins: { id: number; login: string }[]
  entities: { id: number; entityId: string }[]
  contacts: number[]
  folders: number[]
  tags: number[]
  custom_fields: { id: number; type: string; values: unknown[] }[]
  tree: {
    id: number
    entityId: string
    parentEntityId: string | null
    entityType: string
    enabled: string
    businessId: string | null
  }[]
  reserved_res_id: number | null
  reference_version: string | null
}

/** The next value of the records' identity sequence, as SQL text (constant: no caller text). */
export const NEXT_RES_ID_SQL = "nextval(pg_get_serial_sequence('res_letterbox', 'res_id'))"
/** The same as an integer expression: an id reserved before the record's row is written. */
export const NEXT_RES_ID = sql<number>`${sql.raw(NEXT_RES_ID_SQL)}::integer`

/** One part of the lookup: a column of the select, asked for or not by the body. */
interface LookupPart {
  readonly column: string
  readonly asked: (query: RecordReferenceQuery) => boolean
  /** The column's constant value when the body does not ask for the part. */
  readonly absent: string
  /** The part's parameters: their SQL type and where their value comes from. */
  readonly parameters: readonly {
    readonly type: string
    readonly value: (actor: Actor, query: RecordReferenceQuery) => unknown
  }[]
  /** The part's SQL, given how to read each of its parameters (see {@link lookupText}). */
  readonly text: (parameter: readonly string[]) => string
}

const integerList = (value: (query: RecordReferenceQuery) => readonly number[]) => ({
  type: 'integer[]',
  value: (_actor: Actor, query: RecordReferenceQuery) => value(query),
})
const found = (table: string, build: string) => (p: readonly string[]) =>
  `(select coalesce(json_agg(${build}), '[]') from ${table} where id = any(${p[0]}::integer[]))`

/** The parts, in column order. Their texts are constants: caller values only ever travel as parameters. */
const LOOKUP_PARTS: readonly LookupPart[] = [
  {
    column: 'model',
    asked: (q) => q.modelId !== null,
    absent: 'null::json',
    parameters: [{ type: 'integer', value: (_a, q) => q.modelId }],
    text: (
      p,
    ) => `(select json_build_object('id', m.id, 'category', m.category, 'enabled', m.enabled, 'master', m.master,
      'mandatoryFile', m.mandatory_file,
      'mandatoryFields', coalesce((select json_agg(f.identifier) from indexing_models_fields f where f.model_id = m.id and f.mandatory), '[]'::json),
      'disabledFields', coalesce((select json_agg(json_build_object('identifier', f.identifier, 'defaultValue', f.default_value) order by f.id)
        from indexing_models_fields f where f.model_id = m.id and not f.enabled), '[]'::json))
    from indexing_models m where m.id = ${p[0]})`,
  },
  {
    column: 'doctype_exists',
    asked: (q) => q.doctype !== null,
    absent: 'false',
    parameters: [{ type: 'integer', value: (_a, q) => q.doctype }],
    text: (p) => `exists(select 1 from doctypes where type_id = ${p[0]})`,
  },
  {
    column: 'status_exists',
    asked: (q) => q.status !== null,
    absent: 'false',
    parameters: [{ type: 'text', value: (_a, q) => q.status }],
    text: (p) => `exists(select 1 from status where id = ${p[0]})`,
  },
  {
    column: 'priority_exists',
    asked: (q) => q.priority !== null,
    absent: 'false',
    parameters: [{ type: 'text', value: (_a, q) => q.priority }],
    text: (p) => `exists(select 1 from priorities where id = ${p[0]})`,
  },
  {
    column: 'users',
    asked: (q) => q.userIds.length > 0,
    absent: `'[]'::json`,
    parameters: [integerList((q) => q.userIds)],
    text: found('users', 'id'),
  },
  {
    column: 'logins',
    asked: (q) => q.userLogins.length > 0,
    absent: `'[]'::json`,
    parameters: [{ type: 'text[]', value: (_a, q) => q.userLogins }],
    text: (p) =>
      `(select coalesce(json_agg(json_build_object('id', id, 'login', lower(user_id))), '[]') from users where lower(user_id) = any(${p[0]}::text[]))`,
  },
  {
    column: 'entities',
    asked: (q) => q.entityIds.length > 0,
    absent: `'[]'::json`,
    parameters: [integerList((q) => q.entityIds)],
    text: found('entities', `json_build_object('id', id, 'entityId', entity_id)`),
  },
  {
    column: 'contacts',
    asked: (q) => q.contactIds.length > 0,
    absent: `'[]'::json`,
    parameters: [integerList((q) => q.contactIds)],
    text: found('contacts', 'id'),
  },
  {
    column: 'folders',
    asked: (q) => q.folderIds.length > 0,
    absent: `'[]'::json`,
    parameters: [
      integerList((q) => q.folderIds),
      { type: 'integer', value: (a) => a.id },
      { type: 'integer[]', value: (a) => a.entities.map((e) => e.id) },
    ],
    text: (
      p,
    ) => `(select coalesce(json_agg(f.id), '[]') from folders f where f.id = any(${p[0]}::integer[]) and (f.user_id = ${p[1]}
      or exists (select 1 from entities_folders ef where ef.folder_id = f.id
        and (ef.keyword = 'ALL_ENTITIES' or ef.entity_id = any(${p[2]}::integer[])))))`,
  },
  {
    column: 'tags',
    asked: (q) => q.tagIds.length > 0,
    absent: `'[]'::json`,
    parameters: [integerList((q) => q.tagIds)],
    text: found('tags', 'id'),
  },
  {
    column: 'custom_fields',
    asked: (q) => q.customFieldIds.length > 0,
    absent: `'[]'::json`,
    parameters: [integerList((q) => q.customFieldIds)],
    text: found('custom_fields', `json_build_object('id', id, 'type', type, 'values', "values")`),
  },
  {
    column: 'tree',
    asked: (q) => q.needEntityTree,
    absent: `'[]'::json`,
    parameters: [],
    text: () => `(select coalesce(json_agg(json_build_object('id', id, 'entityId', entity_id, 'parentEntityId', parent_entity_id,
      'entityType', entity_type, 'enabled', enabled, 'businessId', business_id)), '[]') from entities)`,
  },
  {
    column: 'reserved_res_id',
    asked: (q) => q.reserveResourceId,
    absent: 'null::integer',
    parameters: [],
    text: () => `${NEXT_RES_ID_SQL}::integer`,
  },
  // Always read: what a ReferenceCache's facts are checked against, in the same snapshot as the rest.
  {
    column: 'reference_version',
    asked: () => true,
    absent: 'null::text',
    parameters: [],
    text: () => '(select version::text from reference_version)',
  },
]

interface LookupShape {
  readonly sql: string
  readonly parameters: (actor: Actor, query: RecordReferenceQuery) => unknown[]
}

/**
 * The lookup's text for the parts asked: the asked ones read the database, the others are constants, so a
 * statement costs what its body needs. Every parameter is read through `(select $n)`: the plan is then the
 * same whatever the values and each text keeps one generic plan. Seen through bare parameters, the values
 * made every custom plan look cheaper, and PostgreSQL planned the statement again for each create.
 */
function lookupText(present: (index: number) => boolean): LookupShape {
  const columns: string[] = []
  const values: LookupPart['parameters'][number]['value'][] = []
  LOOKUP_PARTS.forEach((part, index) => {
    if (!present(index)) {
      columns.push(`${part.absent} as ${part.column}`)
      return
    }
    const placeholders = part.parameters.map((parameter) => {
      values.push(parameter.value)
      return `(select $${values.length}::${parameter.type})`
    })
    columns.push(`${part.text(placeholders)} as ${part.column}`)
  })
  return {
    sql: `select\n  ${columns.join(',\n  ')}`,
    parameters: (actor, query) => values.map((value) => value(actor, query)),
  }
}

const lookupShape = statementShapes(LOOKUP_PARTS, lookupText)

/** The lookup of a body's references: a constant text for its shape, and the body's values as parameters. */
export function lookupReferencesQuery(actor: Actor, query: RecordReferenceQuery): CompiledQuery<FactsRow> {
  const shape = lookupShape((part) => part.asked(query))
  return CompiledQuery.raw(shape.sql, shape.parameters(actor, query)) as CompiledQuery<FactsRow>
}

/** Answers every existence check of a create body in ONE round trip: a select of scalar subqueries. */
export async function lookupReferences(
  db: Kysely<Database>,
  actor: Actor,
  query: RecordReferenceQuery,
  cache?: ReferenceCache,
): Promise<RecordReferenceFacts> {
  const narrowed = cache?.narrow(query) ?? null
  if (narrowed !== null) {
    // What was kept is not asked again, and is good if the version read with the rest is the one it was kept at.
    const { facts, version } = await runLookup(db, actor, narrowed.query)
    if (version !== null && version === narrowed.kept.version) {
      cache?.learn(version, narrowed.query, facts)
      return ReferenceCache.complete(query, narrowed.kept, facts)
    }
  }
  const { facts, version } = await runLookup(db, actor, query)
  if (cache !== undefined && version !== null) cache.learn(version, query, facts)
  return facts
}

async function runLookup(
  db: Kysely<Database>,
  actor: Actor,
  query: RecordReferenceQuery,
): Promise<{ facts: RecordReferenceFacts; version: string | null }> {
  const result = await db.executeQuery(lookupReferencesQuery(actor, query))
  const row = result.rows[0] as FactsRow
  return { version: row.reference_version, facts: factsOf(row) }
}

function factsOf(row: FactsRow): RecordReferenceFacts {
  return {
    model: row.model,
    doctypeExists: row.doctype_exists,
    statusExists: row.status_exists,
    priorityExists: row.priority_exists,
    users: new Set(row.users),
    userIdsByLogin: new Map(row.logins.map((l) => [l.login, l.id])),
    entities: new Map(row.entities.map((e) => [e.id, { entityId: e.entityId }])),
    contacts: new Set(row.contacts),
    visibleFolders: new Set(row.folders),
    tags: new Set(row.tags),
    customFields: new Map(
      row.custom_fields.map((c) => [c.id, { id: c.id, type: c.type, values: Array.isArray(c.values) ? c.values : [] }]),
    ),
    entityTree: row.tree.map(
      (e): RecordTreeEntity => ({
        id: e.id,
        entityId: e.entityId,
        parentEntityId: e.parentEntityId,
        entityType: e.entityType,
        enabled: e.enabled === 'Y',
        businessId: e.businessId,
      }),
    ),
    reservedResourceId: row.reserved_res_id,
  }
}

/**
 * The indexing model of a category (enabled, public, the `default` one first, then the lowest id), the
 * integer ids of entity codes and the priority of a numeric `order`, for the earlier create form.
 */
export async function lookupEarlierReferences(
  db: Kysely<Database>,
  query: EarlierReferenceQuery,
): Promise<EarlierReferenceFacts> {
  const [model, entities, priority] = await Promise.all([
    db
      .selectFrom('indexing_models')
      .select('id')
      .where('category', '=', query.category)
      .where('enabled', '=', true)
      .where('master', 'is', null)
      .orderBy('default', 'desc')
      .orderBy('id')
      .limit(1)
      .executeTakeFirst(),
    query.entityCodes.length === 0
      ? Promise.resolve([])
      : db.selectFrom('entities').select(['id', 'entity_id']).where('entity_id', 'in', query.entityCodes).execute(),
    query.priorityOrder === null
      ? Promise.resolve(undefined)
      : db
          .selectFrom('priorities')
          .select('id')
          .where('order', '=', query.priorityOrder)
          .orderBy('id')
          .limit(1)
          .executeTakeFirst(),
  ])
  return {
    modelId: model?.id ?? null,
    entityIdsByCode: new Map(entities.map((e) => [e.entity_id, e.id])),
    priorityIdByOrder: priority?.id ?? null,
  }
}
