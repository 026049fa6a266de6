import {
  ACTION_CATEGORIES,
  type ActionDefinition,
  type BasketDefinition,
  canonicalAction,
  canonicalBasket,
  type OrganisationPlan,
  REDIRECT_KEYWORDS,
} from '@mailroom/core'
import { type Kysely, sql, type Transaction } from 'kysely'
import type { Database } from '../database/schema.js'

type Trx = Transaction<Database> | Kysely<Database>

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>()
  for (const row of rows) {
    const k = key(row)
    const list = groups.get(k)
    if (list === undefined) groups.set(k, [row])
    else list.push(row)
  }
  return groups
}

const flag = (value: boolean) => (value ? 'Y' : 'N')
const yes = (value: string | null) => value === 'Y'
const emptyAsNull = (value: string | null) => (value === null || value === '' ? null : value)
const categories = new Set<string>(ACTION_CATEGORIES)
const keywords = new Set<string>(REDIRECT_KEYWORDS)

/**
 * The actions and baskets as the organisation document states them (canonical order), from Maarch 20.10's
 * tables: every action with its categories; every basket with its groups, each group's actions and each
 * action's redirect choices. Links and choices naming a group the basket is not given to are not read (the
 * document cannot say them; apply never writes them).
 */
export async function readBasketSections(
  db: Kysely<Database>,
): Promise<{ actions: ActionDefinition[]; baskets: BasketDefinition[] }> {
  const [actions, actionCategories, baskets, groupBaskets, links, redirects] = await Promise.all([
    db.selectFrom('actions').selectAll().orderBy('id').execute(),
    db.selectFrom('actions_categories').selectAll().orderBy('action_id').orderBy('category_id').execute(),
    // Sorted here, not by the database's collation, which orders mixed case its own way.
    db
      .selectFrom('baskets')
      .selectAll()
      .execute()
      .then((rows) => rows.sort((a, b) => (a.basket_id < b.basket_id ? -1 : a.basket_id > b.basket_id ? 1 : 0))),
    db.selectFrom('groupbasket').selectAll().orderBy('basket_id').orderBy('group_id').execute(),
    db.selectFrom('actions_groupbaskets').selectAll().orderBy('id_action').execute(),
    db.selectFrom('groupbasket_redirect').selectAll().orderBy('system_id').execute(),
  ])
  const pair = (group: string, basket: string) => `${group}\u0001${basket}`
  const triple = (group: string, basket: string, action: number) => `${pair(group, basket)}\u0001${action}`
  const redirectsOf = groupBy(redirects, (r) => triple(r.group_id, r.basket_id, Number(r.action_id)))
  const linksOf = groupBy(links, (l) => pair(l.group_id, l.basket_id))
  const groupsOf = groupBy(groupBaskets, (g) => g.basket_id)
  const categoriesOf = groupBy(actionCategories, (c) => Number(c.action_id))
  return {
    actions: actions.map((a) =>
      canonicalAction({
        id: a.id,
        label: a.label_action ?? '',
        keyword: a.keyword,
        status: a.id_status,
        component: a.component as ActionDefinition['component'],
        history: yes(a.history),
        system: yes(a.is_system),
        actionPage: a.action_page,
        parameters: a.parameters ?? {},
        categories: (categoriesOf.get(a.id) ?? [])
          .map((c) => c.category_id)
          .filter((c): c is ActionDefinition['categories'][number] => categories.has(c)),
      }),
    ),
    baskets: baskets.map((b) =>
      canonicalBasket({
        id: b.basket_id,
        name: b.basket_name,
        description: b.basket_desc,
        clause: b.basket_clause,
        color: b.color,
        order: b.basket_order,
        resOrder: b.basket_res_order,
        enabled: yes(b.enabled),
        visible: yes(b.is_visible),
        groups: (groupsOf.get(b.basket_id) ?? []).map((g) => ({
          group: g.group_id,
          listDisplay: (g.list_display ?? []) as BasketDefinition['groups'][number]['listDisplay'],
          listEvent: g.list_event,
          listEventData: (g.list_event_data ?? null) as BasketDefinition['groups'][number]['listEventData'],
          actions: (linksOf.get(pair(g.group_id, b.basket_id)) ?? []).map((l) => ({
            action: Number(l.id_action),
            list: yes(l.used_in_basketlist),
            page: yes(l.used_in_action_page),
            default: yes(l.default_action_list),
            where: l.where_clause ?? '',
            redirects: (redirectsOf.get(triple(g.group_id, b.basket_id, Number(l.id_action))) ?? []).map((r) => {
              const keyword = emptyAsNull(r.keyword)
              return {
                entity: emptyAsNull(r.entity_id),
                keyword:
                  keyword !== null && keywords.has(keyword) ? (keyword as (typeof REDIRECT_KEYWORDS)[number]) : null,
                mode: r.redirect_mode === 'USERS' ? ('USERS' as const) : ('ENTITY' as const),
              }
            }),
          })),
        })),
      }),
    ),
  }
}

const actionRow = (a: ActionDefinition) => ({
  id: a.id,
  keyword: a.keyword,
  label_action: a.label,
  id_status: a.status,
  is_system: flag(a.system),
  action_page: a.actionPage,
  component: a.component,
  history: flag(a.history),
  parameters: JSON.stringify(a.parameters),
})

const basketRow = (b: BasketDefinition) => ({
  basket_id: b.id,
  basket_name: b.name,
  basket_desc: b.description,
  basket_clause: b.clause,
  is_visible: flag(b.visible),
  enabled: flag(b.enabled),
  basket_order: b.order,
  color: b.color,
  basket_res_order: b.resOrder,
})

/** A basket's groups, links and redirect choices as rows of their three tables. */
function basketPartRows(b: BasketDefinition) {
  const groups = b.groups.map((g) => ({
    group_id: g.group,
    basket_id: b.id,
    list_display: JSON.stringify(g.listDisplay),
    list_event: g.listEvent,
    list_event_data: g.listEventData === null ? null : JSON.stringify(g.listEventData),
  }))
  const links = b.groups.flatMap((g) =>
    g.actions.map((l) => ({
      id_action: l.action,
      where_clause: l.where,
      group_id: g.group,
      basket_id: b.id,
      used_in_basketlist: flag(l.list),
      used_in_action_page: flag(l.page),
      default_action_list: flag(l.default),
    })),
  )
  // 20.10 writes '' for the half of a choice it does not use.
  const redirects = b.groups.flatMap((g) =>
    g.actions.flatMap((l) =>
      l.redirects.map((r) => ({
        group_id: g.group,
        basket_id: b.id,
        action_id: l.action,
        entity_id: r.entity ?? '',
        keyword: r.keyword ?? '',
        redirect_mode: r.mode,
      })),
    ),
  )
  return { groups, links, redirects }
}

async function insertRows<T extends keyof Database & string>(
  trx: Trx,
  table: T,
  rows: readonly object[],
): Promise<void> {
  if (rows.length > 0)
    await trx
      .insertInto(table)
      .values(rows as never)
      .execute()
}

/**
 * Removes what a plan removes of baskets and actions, first of all (baskets name actions and groups): a removed
 * basket takes its groups, links and redirect choices with it (foreign keys), and its members' preferences
 * and loans.
 */
export async function removeBasketSections(trx: Trx, sections: OrganisationPlan['sections']): Promise<void> {
  const baskets = sections.baskets.removed.map((b) => b.id)
  if (baskets.length > 0) {
    await trx.deleteFrom('users_baskets_preferences').where('basket_id', 'in', baskets).execute()
    await trx.deleteFrom('redirected_baskets').where('basket_id', 'in', baskets).execute()
    await trx.deleteFrom('baskets').where('basket_id', 'in', baskets).execute()
  }
  const actions = sections.actions.removed.map((a) => a.id)
  if (actions.length > 0) await trx.deleteFrom('actions').where('id', 'in', actions).execute()
}

/**
 * Writes the actions and baskets a plan adds or changes, last of all (they name groups, statuses, entities):
 * an action's row and categories; a basket's row, and its groups, links and redirect choices written anew.
 * Preferences and loans of a group no longer given a basket go.
 */
export async function applyBasketSections(trx: Trx, sections: OrganisationPlan['sections']): Promise<void> {
  const { actions, baskets } = sections
  await insertRows(trx, 'actions', actions.added.map(actionRow))
  for (const a of actions.changed) {
    const { id: _id, ...row } = actionRow(a)
    await trx.updateTable('actions').set(row).where('id', '=', a.id).execute()
  }
  const written = [...actions.added, ...actions.changed]
  if (actions.changed.length > 0)
    await trx
      .deleteFrom('actions_categories')
      .where(
        'action_id',
        'in',
        actions.changed.map((a) => a.id),
      )
      .execute()
  await insertRows(
    trx,
    'actions_categories',
    written.flatMap((a) => a.categories.map((category) => ({ action_id: a.id, category_id: category }))),
  )
  if (actions.added.length > 0)
    await sql`select setval(pg_get_serial_sequence('actions', 'id'), coalesce((select max(id) from actions), 0) + 1, false)`.execute(
      trx,
    )

  await insertRows(trx, 'baskets', baskets.added.map(basketRow))
  for (const b of baskets.changed)
    await trx.updateTable('baskets').set(basketRow(b)).where('basket_id', '=', b.id).execute()
  if (baskets.changed.length > 0) {
    const changed = baskets.changed.map((b) => b.id)
    await trx.deleteFrom('groupbasket_redirect').where('basket_id', 'in', changed).execute()
    await trx.deleteFrom('actions_groupbaskets').where('basket_id', 'in', changed).execute()
    await trx.deleteFrom('groupbasket').where('basket_id', 'in', changed).execute()
  }
  const parts = [...baskets.added, ...baskets.changed].map(basketPartRows)
  await insertRows(
    trx,
    'groupbasket',
    parts.flatMap((p) => p.groups),
  )
  await insertRows(
    trx,
    'actions_groupbaskets',
    parts.flatMap((p) => p.links),
  )
  await insertRows(
    trx,
    'groupbasket_redirect',
    parts.flatMap((p) => p.redirects),
  )
  if (baskets.changed.length > 0 || sections.groups.removed.length > 0) await forgetUngivenBaskets(trx)
}

/** Preferences and loans of a basket for a group that is no longer given it (or no longer exists). */
async function forgetUngivenBaskets(trx: Trx): Promise<void> {
  const given = (groupSerial: 'p.group_serial_id' | 'r.group_id', basket: 'p.basket_id' | 'r.basket_id') =>
    sql<boolean>`exists (select 1 from groupbasket gb join usergroups g on g.group_id = gb.group_id where g.id = ${sql.ref(groupSerial)} and gb.basket_id = ${sql.ref(basket)})`
  await trx
    .deleteFrom('users_baskets_preferences as p')
    .where(sql<boolean>`not ${given('p.group_serial_id', 'p.basket_id')}`)
    .execute()
  await trx
    .deleteFrom('redirected_baskets as r')
    .where(sql<boolean>`not ${given('r.group_id', 'r.basket_id')}`)
    .execute()
}
