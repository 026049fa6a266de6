import {
  ACTION_CATEGORIES,
  ACTION_COMPONENTS,
  type ActionDefinition,
  BASKET_RES_ORDER,
  type BasketDefinition,
  checkBasketClause,
  NO_STATUS,
  REDIRECT_KEYWORDS,
} from '@mailroom/core'
import type { OrganisationNote } from './map-organisation.js'

type Row = Record<string, unknown>

/** The Maarch tables the baskets and actions are read from, as rows. */
export interface MaarchBasketRows {
  readonly baskets: readonly Row[]
  readonly groupbasket: readonly Row[]
  readonly actions: readonly Row[]
  readonly actionsGroupbaskets: readonly Row[]
  readonly actionsCategories: readonly Row[]
  readonly groupbasketRedirect: readonly Row[]
}

/** What the baskets' mapping needs of the organisation mapped beside them. */
export interface BasketMappingContext {
  /** Group codes, entity codes and status ids of the installation. */
  readonly groups: ReadonlySet<string>
  readonly entities: ReadonlySet<string>
  readonly statuses: ReadonlySet<string>
  /** The logins of each group's members, by group code. */
  readonly members: ReadonlyMap<string, readonly string[]>
}

/**
 * A basket clause or an action's condition the clause language cannot take: imported as it is, and reported
 * whole, since the basket's users will not see what it selects until it can be read.
 */
export interface UnreadableClause {
  readonly basket: string
  readonly name: string
  /** `clause`, or `action <id> for group <code>` for an action's extra condition. */
  readonly part: string
  readonly clause: string
  /** What the clause parser said. */
  readonly problem: string
  /** The groups given the basket, and their members. */
  readonly groups: readonly string[]
  readonly users: readonly string[]
  /** What those users will not see, in words. */
  readonly consequence: string
}

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
const trimmed = (value: unknown): string | null => {
  const s = text(value)?.trim()
  return s === undefined || s === '' ? null : s
}
const yes = (value: unknown) => value === 'Y' || value === true
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value)
const jsonShape = (value: unknown, fallback: unknown[] | null) => {
  const parsed = value === null || value === undefined ? fallback : json(value)
  return (parsed !== null && typeof parsed === 'object' ? parsed : fallback) as Record<string, unknown> | unknown[]
}
const components = new Set<string>(ACTION_COMPONENTS)
const categories = new Set<string>(ACTION_CATEGORIES)
const keywords = new Set<string>(REDIRECT_KEYWORDS)

/** Actions: every field kept; what the document cannot hold is noted and the nearest it can hold is written. */
function mapActions(
  rows: MaarchBasketRows,
  context: BasketMappingContext,
  notes: OrganisationNote[],
): ActionDefinition[] {
  const categoriesOf = new Map<number, ActionDefinition['categories']>()
  for (const row of rows.actionsCategories) {
    const id = Number(row.action_id)
    const category = String(row.category_id)
    if (!categories.has(category)) {
      notes.push({
        section: 'actions',
        id: String(id),
        message: `category ${JSON.stringify(category)} is not one of 20.10's: left out`,
      })
      continue
    }
    categoriesOf.set(id, [...(categoriesOf.get(id) ?? []), category as ActionDefinition['categories'][number]])
  }
  const actions: ActionDefinition[] = []
  for (const row of rows.actions) {
    const id = String(row.id)
    const component = text(row.component) ?? ''
    if (!components.has(component)) {
      notes.push({
        section: 'actions',
        id,
        message: `component ${JSON.stringify(component)} is not one of 20.10's: the action and its links are left out`,
      })
      continue
    }
    const label = trimmed(row.label_action) ?? `Action ${id}`
    if (label !== text(row.label_action)?.trim())
      notes.push({ section: 'actions', id, message: `no label: named ${JSON.stringify(label)}` })
    let status = text(row.id_status)
    if (status !== null && status !== '' && status !== NO_STATUS && !context.statuses.has(status)) {
      notes.push({
        section: 'actions',
        id,
        message: `status ${JSON.stringify(status)} does not exist: the action leaves the status as it is`,
      })
      status = NO_STATUS
    }
    actions.push({
      id: Number(row.id),
      label,
      keyword: text(row.keyword)?.trim() ?? '',
      status,
      component: component as ActionDefinition['component'],
      history: yes(row.history),
      system: yes(row.is_system),
      actionPage: text(row.action_page),
      parameters: (jsonShape(row.parameters, null) ?? {}) as Record<string, unknown>,
      categories: categoriesOf.get(Number(row.id)) ?? [],
    })
  }
  return actions
}

/** A basket's groups with their actions and redirect choices; links of groups not given the basket are noted. */
function mapGroups(
  basket: string,
  rows: MaarchBasketRows,
  context: BasketMappingContext,
  actions: ReadonlySet<number>,
  notes: OrganisationNote[],
): BasketDefinition['groups'] {
  const note = (message: string) => notes.push({ section: 'baskets', id: basket, message })
  const given = rows.groupbasket.filter((g) => String(g.basket_id) === basket)
  const givenTo = new Set(given.map((g) => String(g.group_id)))
  for (const link of rows.actionsGroupbaskets)
    if (String(link.basket_id) === basket && !givenTo.has(String(link.group_id)))
      note(`action ${link.id_action} is linked for group ${link.group_id}, which the basket is not given to: left out`)
  const groups: BasketDefinition['groups'][number][] = []
  for (const g of given) {
    const group = String(g.group_id)
    if (!context.groups.has(group)) {
      note(`given to group ${JSON.stringify(group)}, which does not exist: left out`)
      continue
    }
    const links = rows.actionsGroupbaskets.filter((l) => String(l.basket_id) === basket && String(l.group_id) === group)
    const linked: BasketDefinition['groups'][number]['actions'][number][] = []
    let hasDefault = false
    for (const l of links) {
      const action = Number(l.id_action)
      if (!actions.has(action)) {
        note(`group ${group}: action ${action} does not exist (or was left out): its link is left out`)
        continue
      }
      const isDefault: boolean = yes(l.default_action_list) && !hasDefault
      if (yes(l.default_action_list) && hasDefault)
        note(`group ${group}: a second default action (${action}) is not the default`)
      hasDefault ||= isDefault
      linked.push({
        action,
        list: yes(l.used_in_basketlist),
        page: yes(l.used_in_action_page),
        default: isDefault,
        where: text(l.where_clause) ?? '',
        redirects: redirectsOf(basket, group, action, rows, context, note),
      })
    }
    groups.push({
      group,
      listDisplay: jsonShape(g.list_display, []),
      listEvent: trimmed(g.list_event) ?? 'documentDetails',
      listEventData:
        g.list_event_data === null || g.list_event_data === undefined ? null : jsonShape(g.list_event_data, null),
      actions: linked,
    })
  }
  return groups
}

function redirectsOf(
  basket: string,
  group: string,
  action: number,
  rows: MaarchBasketRows,
  context: BasketMappingContext,
  note: (message: string) => void,
): BasketDefinition['groups'][number]['actions'][number]['redirects'] {
  const seen = new Set<string>()
  const choices: BasketDefinition['groups'][number]['actions'][number]['redirects'][number][] = []
  for (const r of rows.groupbasketRedirect) {
    if (String(r.basket_id) !== basket || String(r.group_id) !== group || Number(r.action_id) !== action) continue
    const entity = trimmed(r.entity_id)
    const keyword = trimmed(r.keyword)
    const mode = String(r.redirect_mode) === 'USERS' ? 'USERS' : 'ENTITY'
    const what = `group ${group}, action ${action}: redirect choice ${JSON.stringify(entity ?? keyword)}`
    if (entity !== null && !context.entities.has(entity)) note(`${what} names no entity: left out`)
    else if (entity === null && (keyword === null || !keywords.has(keyword)))
      note(`${what} is not a keyword of 20.10: left out`)
    else {
      const choice = {
        entity,
        keyword: entity === null ? (keyword as (typeof REDIRECT_KEYWORDS)[number]) : null,
        mode: mode as 'USERS' | 'ENTITY',
      }
      const key = `${choice.entity}/${choice.keyword}/${choice.mode}`
      if (!seen.has(key)) choices.push(choice)
      seen.add(key)
    }
  }
  return choices
}

/**
 * Maps a Maarch 20.10 installation's baskets and actions to the organisation document's sections, keeping
 * every code and id. A clause the clause language cannot take is kept as it is (the import applies it with
 * `acceptUnreadableClauses`) and listed with who will miss what it selects.
 */
export function mapBaskets(
  rows: MaarchBasketRows,
  context: BasketMappingContext,
): {
  actions: ActionDefinition[]
  baskets: BasketDefinition[]
  notes: OrganisationNote[]
  unreadable: UnreadableClause[]
} {
  const notes: OrganisationNote[] = []
  const unreadable: UnreadableClause[] = []
  const actions = mapActions(rows, context, notes)
  const actionIds = new Set(actions.map((a) => a.id))
  const baskets = rows.baskets.map((b): BasketDefinition => {
    const id = String(b.basket_id)
    const groups = mapGroups(id, rows, context, actionIds, notes)
    let resOrder = trimmed(b.basket_res_order) ?? 'res_id desc'
    if (!BASKET_RES_ORDER.test(resOrder)) {
      notes.push({
        section: 'baskets',
        id,
        message: `list order ${JSON.stringify(resOrder)} is not a list of columns: res_id desc`,
      })
      resOrder = 'res_id desc'
    }
    const basket: BasketDefinition = {
      id,
      name: trimmed(b.basket_name) ?? id,
      description: text(b.basket_desc) ?? '',
      clause: text(b.basket_clause)?.trim() || '1=0',
      color: trimmed(b.color),
      order: b.basket_order === null || b.basket_order === undefined ? null : Number(b.basket_order),
      resOrder,
      enabled: yes(b.enabled),
      visible: yes(b.is_visible),
      groups,
    }
    unreadable.push(...unreadableClauses(basket, context))
    return basket
  })
  const basketIds = new Set(baskets.map((b) => b.id))
  for (const [table, rowsOf] of [
    ['groupbasket', rows.groupbasket],
    ['actions_groupbaskets', rows.actionsGroupbaskets],
    ['groupbasket_redirect', rows.groupbasketRedirect],
  ] as const)
    for (const row of rowsOf)
      if (!basketIds.has(String(row.basket_id)))
        notes.push({
          section: 'baskets',
          id: String(row.basket_id),
          message: `a row of ${table} for group ${String(row.group_id)} names no basket: left out`,
        })
  for (const entry of unreadable)
    notes.push({
      section: 'baskets',
      id: entry.basket,
      message: `${entry.part} kept as it is, but the clause language cannot take it (${entry.problem}): ${entry.consequence}`,
    })
  return { actions, baskets, notes, unreadable }
}

/** The basket's clause and its actions' conditions the parser refuses, with the groups and users who miss them. */
function unreadableClauses(basket: BasketDefinition, context: BasketMappingContext): UnreadableClause[] {
  const groups = basket.groups.map((g) => g.group)
  const users = [...new Set(groups.flatMap((g) => context.members.get(g) ?? []))].sort()
  const who =
    groups.length === 0
      ? 'no group is given the basket'
      : `groups ${groups.join(', ')}${users.length === 0 ? ' (no members)' : ` (${users.join(', ')})`}`
  const found: UnreadableClause[] = []
  const problem = checkBasketClause(basket.clause)
  if (problem !== null)
    found.push({
      basket: basket.id,
      name: basket.name,
      part: 'clause',
      clause: basket.clause,
      problem,
      groups,
      users,
      consequence: `${who} will see the basket "${basket.name}" empty until the clause can be read`,
    })
  for (const given of basket.groups)
    for (const link of given.actions) {
      if (link.where.trim() === '') continue
      const whereProblem = checkBasketClause(link.where)
      if (whereProblem === null) continue
      const members = [...(context.members.get(given.group) ?? [])].sort()
      found.push({
        basket: basket.id,
        name: basket.name,
        part: `action ${link.action} for group ${given.group}`,
        clause: link.where,
        problem: whereProblem,
        groups: [given.group],
        users: members,
        consequence: `group ${given.group}${members.length === 0 ? '' : ` (${members.join(', ')})`} will not be offered action ${link.action} in "${basket.name}" until its condition can be read`,
      })
    }
  return found
}
