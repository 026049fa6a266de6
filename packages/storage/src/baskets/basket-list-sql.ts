import type { BasketListQuery, NullableFilter } from '@mailroom/core'
import { type Expression, type RawBuilder, type SqlBool, sql } from 'kysely'
import { naturalChrono } from '../search/chrono-order.js'
import { compileClause } from '../search/compile-clause.js'

type Condition = RawBuilder<SqlBool>

/** `column in (values)`, with the records without a value too when the filter says so (20.10's `priority is null OR …`). */
function nullableCondition(column: string, filter: NullableFilter): Condition {
  const inList = sql<SqlBool>`${sql.ref(column)} = any(${sql.val([...filter.values])}::text[])`
  const isNull = sql<SqlBool>`${sql.ref(column)} is null`
  if (filter.values.length === 0) return isNull
  return filter.orNull ? sql<SqlBool>`(${isNull} or ${inList})` : inList
}

/** The filters of a list's query, one condition each, over `res_view_letterbox` (20.10's getResourcesListQueryData). */
export type FilterName =
  | 'priorities'
  | 'categories'
  | 'entities'
  | 'entitiesChildren'
  | 'statuses'
  | 'doctypes'
  | 'folders'

/**
 * `destination` among the codes and every entity below them, at any depth (20.10's getEntityChildren: each code
 * itself, known or not, then its children's codes, recursively). UNION stops on a cycle of parents.
 */
function destinationBelow(codes: readonly string[]): Condition {
  return sql<SqlBool>`destination in (with recursive below(entity_id) as (
      select unnest(${sql.val([...codes])}::text[])
      union select child.entity_id from entities child join below on child.parent_entity_id = below.entity_id)
    select below.entity_id from below)`
}

/**
 * 20.10's `entitiesChildren`: as the nullable filters in the list (empty text: the records without a destination;
 * a leading or trailing comma adds them); in the filters route's counts, only `destination` below the codes given.
 */
function entitiesChildrenCondition(filter: NullableFilter, forFacets: boolean): Condition | null {
  if (forFacets) return filter.values.length === 0 ? null : destinationBelow(filter.values)
  const isNull = sql<SqlBool>`destination is null`
  if (filter.values.length === 0) return isNull
  return filter.orNull
    ? sql<SqlBool>`(${isNull} or ${destinationBelow(filter.values)})`
    : destinationBelow(filter.values)
}

/**
 * The conditions of each filter the query sets, by name (the filters route leaves out each list's own, and
 * `entitiesChildren` with `entities`: 20.10 counts the entities without either).
 */
export function filterConditions(query: BasketListQuery, forFacets = false): Map<FilterName, Condition> {
  const conditions = new Map<FilterName, Condition>()
  if (query.priorities) conditions.set('priorities', nullableCondition('priority', query.priorities))
  if (query.categories) conditions.set('categories', nullableCondition('category_id', query.categories))
  if (query.entities) conditions.set('entities', nullableCondition('destination', query.entities))
  const below = query.entitiesChildren && entitiesChildrenCondition(query.entitiesChildren, forFacets)
  if (below) conditions.set('entitiesChildren', below)
  if (query.statuses) conditions.set('statuses', sql<SqlBool>`status = any(${sql.val([...query.statuses])}::text[])`)
  if (query.doctypes) conditions.set('doctypes', sql<SqlBool>`type_id = any(${sql.val([...query.doctypes])}::int[])`)
  if (query.folders)
    conditions.set(
      'folders',
      sql<SqlBool>`res_id in (select rf.res_id from resources_folders rf where rf.folder_id = any(${sql.val([...query.folders])}::int[]))`,
    )
  return conditions
}

/** `%` and `_` taken literally in an ILIKE pattern. */
function likeEscaped(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}

/**
 * The conditions every list of the basket shares: late records (`delayed`) and the searched words, in the chrono
 * (spaces ignored) or the subject (accents ignored); a quoted search is taken as 20.10's `like` pattern. Text
 * holding a NUL matches nothing (no column can hold one).
 */
export function sharedConditions(query: BasketListQuery): Condition[] {
  const conditions: Condition[] = []
  if (query.delayed) conditions.push(sql<SqlBool>`process_limit_date < current_timestamp`)
  const search = query.search
  if (search) {
    if (search.text.includes('\u0000')) conditions.push(sql<SqlBool>`false`)
    else if (search.exact)
      conditions.push(sql<SqlBool>`(alt_identifier like ${search.text} or subject like ${search.text})`)
    else {
      const chrono = `%${likeEscaped(search.text.replaceAll(' ', ''))}%`
      const words = `%${likeEscaped(search.text)}%`
      conditions.push(
        sql<SqlBool>`(replace(alt_identifier, ' ', '') ilike ${chrono} or unaccent(subject) ilike unaccent(${words}::text))`,
      )
    }
  }
  return conditions
}

/** Every condition ANDed. */
export function allOf(conditions: readonly Expression<SqlBool>[]): Condition {
  return conditions.length === 0 ? sql<SqlBool>`true` : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`
}

/**
 * The ORDER BY of a list over `res_view_letterbox` (unaliased, as every query a clause is compiled into): the
 * query's items, then res_id. 20.10 leaves records of equal keys in whatever order PostgreSQL's sort gives them;
 * Mailroom breaks ties by res_id, so that pages never overlap.
 */
export function listOrder(query: Pick<BasketListQuery, 'order'>): RawBuilder<unknown> {
  const parts = query.order.map((item) => {
    const direction = item.direction === 'desc' ? sql`desc` : sql`asc`
    const nulls = item.nulls === 'first' ? sql` nulls first` : item.nulls === 'last' ? sql` nulls last` : sql``
    const column = item.expr.kind === 'column' ? item.expr.name : null
    const expression = item.natural
      ? naturalChrono()
      : column === 'priority'
        ? sql`(select pr."order" from priorities pr where pr.id = res_view_letterbox.priority)`
        : column === 'dest_user'
          ? sql`(select row(du.lastname, du.firstname) from users du where du.id = res_view_letterbox.dest_user)`
          : sql`(${compileClause(item.expr)})`
    return sql`${expression} ${direction}${nulls}`
  })
  return sql.join([...parts, sql`res_view_letterbox.res_id desc`])
}
