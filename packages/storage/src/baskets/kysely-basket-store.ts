import type {
  Actor,
  BasketFilters,
  BasketListStoredRow,
  BasketStore,
  EntityFilterEntry,
  FilterEntry,
  StoredBasket,
} from '@mailroom/core'
import {
  type BasketListQuery,
  basketClauseRefusal,
  CATEGORY_LABELS,
  type DomainError,
  domainError,
  isDomainError,
} from '@mailroom/core'
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely'
import { optionalTables } from '../criteria-search/optional-tables.js'
import { resourceDetails } from '../criteria-search/search-resources.js'
import type { Database } from '../database/schema.js'
import { isRefusedQuery } from '../search/run-search.js'
import { allOf, type FilterName, filterConditions, listOrder, sharedConditions } from './basket-list-sql.js'
import { BASKET_COLUMNS, groupsOf, homeBaskets, lentBaskets, profileBaskets, storedBasket } from './basket-rows.js'
import {
  type BasketSelectionContext,
  basketSelectionOfUser,
  type CompiledBasket,
  compiledBasketOfUser,
  countsStatement,
} from './basket-selection.js'
import { displayValuesOf, type RowFacts } from './display-values.js'

type Executor = Kysely<Database>

/**
 * Runs a basket's query; one the database refuses for its content (a clause comparing a date with text…) is the
 * basket's clause's fault (BASKET_CLAUSE_REFUSED, naming the basket), or the caller's when they gave an order
 * (SEARCH_REQUEST_INVALID). Never a 500, never an answer that pretends the basket is empty.
 */
async function refusedAsBasket<T>(
  basket: StoredBasket,
  query: BasketListQuery | null,
  run: () => Promise<T>,
): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (!isRefusedQuery(error)) throw error
    if (query?.callerOrder) throw domainError('SEARCH_REQUEST_INVALID')
    throw basketClauseRefusal(basket, `the database refused it (${(error as Error).message})`)
  }
}

/** The baskets' reads over kysely: 20.10's tables, each basket's records through basketSelection. */
export function kyselyBasketStore(context: BasketSelectionContext): BasketStore {
  const { db } = context

  /** The condition of the basket's records for its owner (`selection`), and of the query's filters but `leaveOut`. */
  function listCondition(
    selection: Expression<SqlBool>,
    query: BasketListQuery,
    leaveOut?: FilterName,
  ): Expression<SqlBool> {
    // A facet's counts (leaveOut given) read entitiesChildren as 20.10's getFormattedFilters does, and the entities'
    // counts leave it out with their own filter.
    const left = (name: FilterName) => name === leaveOut || (leaveOut === 'entities' && name === 'entitiesChildren')
    const filters = [...filterConditions(query, leaveOut !== undefined)]
      .filter(([name]) => !left(name))
      .map(([, c]) => c)
    return allOf([selection, ...sharedConditions(query), ...filters])
  }

  return {
    async loginOf(userId) {
      const row = await db.selectFrom('users').select('user_id').where('id', '=', userId).executeTakeFirst()
      return row?.user_id ?? null
    },

    groupsOf: (userId) => groupsOf(db, userId),
    homeBaskets: (userId, group) => homeBaskets(db, userId, group),
    profileBaskets: (userId) => profileBaskets(db, userId),
    lentBy: (ownerUserId) => lentBaskets(db, 'owner', ownerUserId),
    lentTo: (actualUserId) => lentBaskets(db, 'actual', actualUserId),

    async counts(toCount, reader) {
      const counts: (number | DomainError)[] = []
      const compiled: { readonly at: number; readonly basket: StoredBasket; readonly compiled: CompiledBasket }[] = []
      for (const { basket, ownerUserId } of toCount) {
        try {
          const basketCompiled = await compiledBasketOfUser(context, basket, ownerUserId, reader)
          if (basketCompiled !== null) compiled.push({ at: counts.length, basket, compiled: basketCompiled })
          counts.push(0)
        } catch (error) {
          if (!isDomainError(error)) throw error
          counts.push(error)
        }
      }
      if (compiled.length === 0) return counts
      try {
        const { rows } = await db.executeQuery(
          countsStatement(
            context,
            compiled.map((c) => c.compiled),
          ),
        )
        compiled.forEach((c, index) => {
          counts[c.at] = rows[0]![`n${index}`]!
        })
      } catch (error) {
        if (!isRefusedQuery(error)) throw error
        // A clause the database refuses fails the whole statement: each alone then, the refused one named.
        for (const c of compiled)
          try {
            const { rows } = await refusedAsBasket(c.basket, null, () => db.executeQuery(c.compiled.count))
            counts[c.at] = rows[0]!.n
          } catch (refusal) {
            if (!isDomainError(refusal)) throw refusal
            counts[c.at] = refusal
          }
      }
      return counts
    },

    async basket(id) {
      const row = await db.selectFrom('baskets as b').select(BASKET_COLUMNS).where('b.id', '=', id).executeTakeFirst()
      return row ? storedBasket(row) : null
    },

    async group(id) {
      const row = await db
        .selectFrom('usergroups')
        .select(['id', 'group_id', 'group_desc'])
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? { id: row.id, groupId: row.group_id, groupDesc: row.group_desc } : null
    },

    async lentToWhom(ownerUserId, basketId, groupSerialId) {
      const row = await db
        .selectFrom('redirected_baskets')
        .select('actual_user_id')
        .where('owner_user_id', '=', ownerUserId)
        .where('basket_id', '=', basketId)
        .where('group_id', '=', groupSerialId)
        .executeTakeFirst()
      return row?.actual_user_id ?? null
    },

    async groupBasket(basketId, groupId) {
      const row = await db
        .selectFrom('groupbasket')
        .select(['list_display', 'list_event', 'list_event_data'])
        .where('basket_id', '=', basketId)
        .where('group_id', '=', groupId)
        .executeTakeFirst()
      return row
        ? { listDisplay: row.list_display, listEvent: row.list_event, listEventData: row.list_event_data }
        : null
    },

    async listIds(basket, ownerUserId, query, reader) {
      const condition = listCondition(await basketSelectionOfUser(context, basket, ownerUserId, reader), query)
      const { rows } = await refusedAsBasket(basket, query, () =>
        sql<{ res_id: string | number }>`select res_view_letterbox.res_id from res_view_letterbox
          where ${condition} order by ${listOrder(query)}`.execute(db),
      )
      return rows.map((row) => Number(row.res_id))
    },

    async rows(reader, resIds, displayValues) {
      if (resIds.length === 0) return []
      const tables = await optionalTables(db)
      // The list's own columns in the details' sub-select: a second lateral over res_letterbox cost more planning
      // than the whole statement's execution.
      const listColumns = sql`r.category_id, r.custom_fields, r.locker_user_id,
            r.locker_user_id is not null and r.locker_user_id <> ${reader.id} and r.locker_time > now() as locked,
            (select lu.firstname || ' ' || lu.lastname from users lu where lu.id = r.locker_user_id) as locker_name,
            (r.creation_date at time zone 'UTC')::text as creation_text,
            (r.process_limit_date at time zone 'UTC')::text as process_limit_text,
            (r.modification_date at time zone 'UTC')::text as modification_text,
            (r.opinion_limit_date at time zone 'UTC')::text as opinion_limit_text,
            (r.closing_date at time zone 'UTC')::text as closing_text`
      const { rows } = await sql<RowFacts>`select t.id::bigint as res_id, d.*
        from unnest(${sql.val([...resIds])}::bigint[]) with ordinality as t(id, n)
        cross join lateral (${resourceDetails(reader, tables, sql`t.id`, null, listColumns)}) d
        order by t.n`.execute(db)
      const values = await displayValuesOf(db, reader, rows, displayValues)
      return rows.map(
        (row, i): BasketListStoredRow => ({
          resId: Number(row.res_id),
          chrono: row.alt_identifier,
          barcode: row.barcode,
          subject: row.subject,
          confidentiality: row.confidentiality,
          statusLabel: row.label_status,
          statusImage: row.img_filename,
          priorityColor: row.priority_color,
          closing_date: row.closing_text,
          countAttachments: Number(row.count_attachments),
          hasDocument: row.has_document,
          mailTracking: row.followed,
          integrations: { inShipping: row.in_shipping, inSignatureBook: row.in_signature_book },
          retentionFrozen: row.retention_frozen ?? false,
          binding: row.binding,
          countNotes: Number(row.count_notes),
          ...(row.locked ? { locker: row.locker_name ?? '' } : {}),
          isLocked: row.locked,
          folders: values.folders.get(Number(row.res_id)) ?? [],
          displayValues: values.byRow[i] ?? {},
        }),
      )
    },

    async filters(reader, basket, ownerUserId, query) {
      // The owner's selection once, for each of the filter lists.
      const selection = await basketSelectionOfUser(context, basket, ownerUserId, reader)
      return refusedAsBasket(basket, null, () =>
        filterLists(db, async (leaveOut) => listCondition(selection, query, leaveOut), reader),
      )
    },

    async lastResources(userId) {
      const { rows } = await sql<{
        alt_identifier: string | null
        closing_date: string | null
        creation_date: string
        priority: string | null
        process_limit_date: string | null
        res_id: string | number
        subject: string | null
        confidentiality: string | null
        status_icon: string | null
        status_label: string | null
        status_id: string
        has_document: boolean
        priority_color: string | null
      }>`select r.alt_identifier, (r.closing_date at time zone 'UTC')::text as closing_date,
          (r.creation_date at time zone 'UTC')::text as creation_date, r.priority,
          (r.process_limit_date at time zone 'UTC')::text as process_limit_date, r.res_id, r.subject, r.confidentiality,
          s.img_filename as status_icon, s.label_status as status_label, s.id as status_id,
          r.filename is not null as has_document, p.color as priority_color
        from (select h.record_id, max(h.event_date) as last from history h
            where h.user_id = ${userId} and h.table_name in ('res_letterbox', 'res_view_letterbox')
              and h.record_id is not null and h.record_id <> 'none' and h.record_id ~ '^[0-9]{1,18}$'
              and h.event_id is distinct from 'linkup' and h.event_id not like 'attach%'
            group by h.record_id) as acted
          join res_letterbox r on r.res_id = acted.record_id::bigint
          join status s on s.id = r.status
          left join priorities p on p.id = r.priority
        where r.status <> 'DEL'
        order by acted.last desc
        limit 5`.execute(db)
      return rows.map(({ has_document, priority_color, res_id, ...row }) => ({
        ...row,
        res_id: Number(res_id),
        hasDocument: has_document,
        ...(row.priority ? { priority_color } : {}),
      }))
    },
  }
}

/** The six lists of 20.10's getFormattedFilters, each over the records the other filters select. */
async function filterLists(
  db: Executor,
  conditionBut: (leaveOut: FilterName | undefined) => Promise<Expression<SqlBool>>,
  reader: Actor,
): Promise<BasketFilters> {
  const grouped = async (leaveOut: FilterName, columns: string) => {
    const condition = await conditionBut(leaveOut)
    const { rows } = await sql<Record<string, unknown>>`select count(*)::int as count, ${sql.raw(columns)}
      from res_view_letterbox where ${condition} group by ${sql.raw(columns)}`.execute(db)
    return rows
  }
  const [priorityRows, categoryRows, statusRows, entityRows, doctypeRows] = await Promise.all([
    grouped('priorities', 'res_view_letterbox.priority'),
    grouped('categories', 'res_view_letterbox.category_id'),
    grouped('statuses', 'res_view_letterbox.status'),
    grouped('entities', 'res_view_letterbox.destination'),
    grouped('doctypes', 'res_view_letterbox.type_id, res_view_letterbox.type_label'),
  ])
  const labels = await labelsOf(db, priorityRows, statusRows, entityRows)
  const priorities: FilterEntry[] = priorityRows.map((r) => ({
    id: (r.priority as string | null) || null,
    label: labels.priorities.get(r.priority as string) || '_UNDEFINED',
    count: Number(r.count),
  }))
  const categories: FilterEntry[] = categoryRows.map((r) => ({
    id: (r.category_id as string | null) || null,
    label: CATEGORY_LABELS[r.category_id as string] ?? '_UNDEFINED',
    count: Number(r.count),
  }))
  const statuses: FilterEntry[] = statusRows
    .filter((r) => r.status)
    .map((r) => ({
      id: r.status as string,
      label: labels.statuses.get(r.status as string) || '_UNDEFINED',
      count: Number(r.count),
    }))
  const entities: EntityFilterEntry[] = entityRows.map((r) => ({
    entityId: (r.destination as string | null) || null,
    label: labels.entities.get(r.destination as string) || '_UNDEFINED',
    count: Number(r.count),
  }))
  const doctypes: FilterEntry[] = doctypeRows.map((r) => ({
    id: (r.type_id as number | null) || null,
    label: (r.type_label as string | null) || '_UNDEFINED',
    count: Number(r.count),
  }))
  const folderCondition = await conditionBut('folders')
  const entityIds = reader.entities.map((e) => e.id)
  const { rows: folderRows } = await sql<{ id: number; label: string; count: number }>`select f.id, f.label,
      count(rf.res_id)::int as count
    from folders f join resources_folders rf on rf.folder_id = f.id
    where rf.res_id in (select res_view_letterbox.res_id from res_view_letterbox where ${folderCondition})
      and (f.user_id = ${reader.id} or exists (select 1 from entities_folders ef where ef.folder_id = f.id
        and (ef.keyword = 'ALL_ENTITIES' or ef.entity_id = any(${sql.val(entityIds)}::int[]))))
    group by f.id, f.label`.execute(db)
  const folders: FilterEntry[] = folderRows.map((r) => ({ id: r.id, label: r.label || '_UNDEFINED', count: r.count }))
  const atLeastTwo = <T>(list: T[]) => (list.length >= 2 ? list : [])
  const kept = {
    priorities: atLeastTwo(priorities),
    categories: atLeastTwo(categories),
    statuses: atLeastTwo(statuses),
    entities: atLeastTwo(entities),
    doctypes: atLeastTwo(doctypes),
    folders: atLeastTwo(folders),
  }
  const children = await entityChildren(db)
  // 20.10 counts, for each entity, the records of the listed entities at or below it.
  const entitiesChildren = kept.entities.map((entity) => ({
    entityId: entity.entityId,
    label: entity.label,
    count:
      entity.entityId === null
        ? entity.count
        : kept.entities
            .filter(
              (other) => other.entityId !== null && (children.get(entity.entityId!) ?? new Set()).has(other.entityId),
            )
            .reduce((sum, other) => sum + other.count, 0),
  }))
  return {
    entities: byLabel(kept.entities),
    priorities: byLabel(kept.priorities),
    categories: byLabel(kept.categories),
    statuses: byLabel(kept.statuses),
    entitiesChildren: byLabel(entitiesChildren),
    doctypes: byLabel(kept.doctypes),
    folders: byLabel(kept.folders),
  }
}

/** Sorted by label, case-insensitively, as 20.10's compareSortOnLabel (a stable sort keeps ties in query order). */
function byLabel<T extends { label: string }>(list: T[]): T[] {
  return [...list].sort((a, b) => {
    const x = a.label.toLowerCase()
    const y = b.label.toLowerCase()
    return x < y ? -1 : x > y ? 1 : 0
  })
}

async function labelsOf(
  db: Executor,
  priorities: Record<string, unknown>[],
  statuses: Record<string, unknown>[],
  entities: Record<string, unknown>[],
) {
  const ids = (rows: Record<string, unknown>[], key: string) =>
    rows.map((r) => r[key]).filter((v): v is string => typeof v === 'string' && v !== '')
  const [p, s, e] = await Promise.all([
    db
      .selectFrom('priorities')
      .select(['id', 'label'])
      .where('id', 'in', ['', ...ids(priorities, 'priority')])
      .execute(),
    db
      .selectFrom('status')
      .select(['id', 'label_status'])
      .where('id', 'in', ['', ...ids(statuses, 'status')])
      .execute(),
    db
      .selectFrom('entities')
      .select(['entity_id', 'entity_label'])
      .where('entity_id', 'in', ['', ...ids(entities, 'destination')])
      .execute(),
  ])
  return {
    priorities: new Map(p.map((r) => [r.id, r.label])),
    statuses: new Map(s.map((r) => [r.id, r.label_status])),
    entities: new Map(e.map((r) => [r.entity_id, r.entity_label])),
  }
}

/** Every entity and its descendants (20.10's getEntityChildren, which lists the entity first). */
async function entityChildren(db: Executor): Promise<Map<string, Set<string>>> {
  const rows = await db.selectFrom('entities').select(['entity_id', 'parent_entity_id']).execute()
  const direct = new Map<string, string[]>()
  for (const row of rows)
    if (row.parent_entity_id)
      direct.set(row.parent_entity_id, [...(direct.get(row.parent_entity_id) ?? []), row.entity_id])
  const result = new Map<string, Set<string>>()
  for (const row of rows) {
    const seen = new Set<string>([row.entity_id])
    const queue = [...(direct.get(row.entity_id) ?? [])]
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      if (seen.has(next)) continue
      seen.add(next)
      queue.push(...(direct.get(next) ?? []))
    }
    result.set(row.entity_id, seen)
  }
  return result
}
