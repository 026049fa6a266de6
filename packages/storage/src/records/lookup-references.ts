import type { Actor, RecordTreeEntity } from '@mailroom/core'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import type { DisabledModelField, EarlierReferenceFacts, EarlierReferenceQuery, RecordReferenceFacts, RecordReferenceQuery } from '@mailroom/core'

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
  tree: { id: number; entityId: string; parentEntityId: string | null; entityType: string; enabled: string; businessId: string | null }[]
  reserved_res_id: number | null
}

/** The next value of the records' identity sequence, as SQL text (constant: no caller text). */
export const NEXT_RES_ID_SQL = "nextval(pg_get_serial_sequence('res_letterbox', 'res_id'))"
/** The same as an integer expression: an id reserved before the record's row is written. */
export const NEXT_RES_ID = sql<number>`${sql.raw(NEXT_RES_ID_SQL)}::integer`

/** `in (…)` of a non-empty list; callers use a constant for an empty one (an empty IN is not SQL). */
const list = (values: readonly (number | string)[]) => sql.join(values.map((v) => sql.val(v)))
const ids = (subquery: (values: RawBuilder<unknown>) => RawBuilder<unknown>, values: readonly (number | string)[]) =>
  values.length === 0 ? sql`'[]'::json` : subquery(list(values))

/**
 * Answers every existence check of a create body in ONE round trip: a select of scalar subqueries, each
 * aggregating the rows it found as JSON. Skipped parts are constants, so the query costs what the body asks.
 */
export async function lookupReferences(db: Kysely<Database>, actor: Actor, query: RecordReferenceQuery): Promise<RecordReferenceFacts> {
  const actorEntityIds = actor.entities.map((e) => e.id)
  const result = await sql<FactsRow>`select
    ${
      query.modelId === null
        ? sql`null::json`
        : sql`(select json_build_object('id', m.id, 'category', m.category, 'enabled', m.enabled, 'master', m.master,
            'mandatoryFile', m.mandatory_file,
            'mandatoryFields', coalesce((select json_agg(f.identifier) from indexing_models_fields f where f.model_id = m.id and f.mandatory), '[]'::json),
            'disabledFields', coalesce((select json_agg(json_build_object('identifier', f.identifier, 'defaultValue', f.default_value) order by f.id)
              from indexing_models_fields f where f.model_id = m.id and not f.enabled), '[]'::json))
          from indexing_models m where m.id = ${query.modelId})`
    } as model,
    ${query.doctype === null ? sql`false` : sql`exists(select 1 from doctypes where type_id = ${query.doctype})`} as doctype_exists,
    ${query.status === null ? sql`false` : sql`exists(select 1 from status where id = ${query.status})`} as status_exists,
    ${query.priority === null ? sql`false` : sql`exists(select 1 from priorities where id = ${query.priority})`} as priority_exists,
    ${ids((v) => sql`(select coalesce(json_agg(id), '[]') from users where id in (${v}))`, query.userIds)} as users,
    ${ids((v) => sql`(select coalesce(json_agg(json_build_object('id', id, 'login', lower(user_id))), '[]') from users where lower(user_id) in (${v}))`, query.userLogins)} as logins,
    ${ids((v) => sql`(select coalesce(json_agg(json_build_object('id', id, 'entityId', entity_id)), '[]') from entities where id in (${v}))`, query.entityIds)} as entities,
    ${ids((v) => sql`(select coalesce(json_agg(id), '[]') from contacts where id in (${v}))`, query.contactIds)} as contacts,
    ${ids(
      (v) => sql`(select coalesce(json_agg(f.id), '[]') from folders f where f.id in (${v}) and (f.user_id = ${actor.id}
        or exists (select 1 from entities_folders ef where ef.folder_id = f.id
          and (ef.keyword = 'ALL_ENTITIES'${actorEntityIds.length ? sql` or ef.entity_id in (${list(actorEntityIds)})` : sql``}))))`,
      query.folderIds,
    )} as folders,
    ${ids((v) => sql`(select coalesce(json_agg(id), '[]') from tags where id in (${v}))`, query.tagIds)} as tags,
    ${ids((v) => sql`(select coalesce(json_agg(json_build_object('id', id, 'type', type, 'values', "values")), '[]') from custom_fields where id in (${v}))`, query.customFieldIds)} as custom_fields,
    ${
      query.needEntityTree
        ? sql`(select coalesce(json_agg(json_build_object('id', id, 'entityId', entity_id, 'parentEntityId', parent_entity_id,
            'entityType', entity_type, 'enabled', enabled, 'businessId', business_id)), '[]') from entities)`
        : sql`'[]'::json`
    } as tree,
    ${query.reserveResourceId ? NEXT_RES_ID : sql`null::integer`} as reserved_res_id`.execute(db)
  const row = result.rows[0] as FactsRow
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
    customFields: new Map(row.custom_fields.map((c) => [c.id, { id: c.id, type: c.type, values: Array.isArray(c.values) ? c.values : [] }])),
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
 * The indexing model of a category (enabled, public, the `default` one first, then the lowest id) and the
 * integer ids of entity codes, for the earlier create form.
 */
export async function lookupEarlierReferences(db: Kysely<Database>, query: EarlierReferenceQuery): Promise<EarlierReferenceFacts> {
  const [model, entities] = await Promise.all([
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
  ])
  return { modelId: model?.id ?? null, entityIdsByCode: new Map(entities.map((e) => [e.entity_id, e.id])) }
}
