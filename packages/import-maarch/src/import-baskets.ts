import type { ActionDefinition, BasketDefinition } from '@mailroom/core'
import { type BasketUsage, type BasketUsageWritten, writeBasketUsage } from '@mailroom/storage'
import type { MaarchImportTarget } from './import-options.js'
import { type BasketMappingContext, type MaarchBasketRows, mapBaskets, type UnreadableClause } from './map-baskets.js'
import type { MaarchOrganisationRows, OrganisationNote } from './map-organisation.js'
import type { MaarchSource } from './source.js'

/** The queries reading the baskets and actions from the source, by table. */
export const BASKET_QUERIES: Record<keyof MaarchBasketRows, string> = {
  baskets: 'select * from baskets order by basket_order nulls last, basket_id',
  groupbasket: 'select * from groupbasket order by basket_id, group_id',
  actions: 'select * from actions order by id',
  actionsGroupbaskets: 'select * from actions_groupbaskets order by basket_id, group_id, id_action',
  actionsCategories: 'select * from actions_categories order by action_id, category_id',
  groupbasketRedirect: 'select * from groupbasket_redirect order by basket_id, group_id, action_id, system_id',
}

/** The baskets and actions read and mapped, and the users' use of them, ready to write once the organisation is. */
export interface SourceBaskets {
  readonly actions: ActionDefinition[]
  readonly baskets: BasketDefinition[]
  readonly notes: OrganisationNote[]
  readonly unreadable: UnreadableClause[]
  readonly usage: BasketUsage
}

/** Whether the source has 20.10's basket tables (an installation, or a test's, without them has no baskets). */
async function hasBaskets(source: MaarchSource): Promise<boolean> {
  const [present] = await source.rows<{ table: boolean }>(`select to_regclass('groupbasket') is not null as table`)
  return present?.table === true
}

/**
 * Reads the source's baskets, group baskets, actions, links, categories and redirect choices, and its users'
 * preferences, lent baskets and marks as read, in the run's snapshot; null when it has none of those tables.
 */
export async function readSourceBaskets(
  source: MaarchSource,
  organisation: MaarchOrganisationRows,
): Promise<SourceBaskets | null> {
  if (!(await hasBaskets(source))) return null
  const read: Record<string, unknown> = {}
  for (const [table, query] of Object.entries(BASKET_QUERIES)) read[table] = await source.rows(query)
  const rows = read as unknown as MaarchBasketRows
  const login = new Map(organisation.users.map((u) => [Number(u.id), String(u.user_id)]))
  const groupCode = new Map(organisation.usergroups.map((g) => [Number(g.id), String(g.group_id)]))
  const members = new Map<string, string[]>()
  for (const c of organisation.usergroupContent) {
    const group = groupCode.get(Number(c.group_id))
    const user = login.get(Number(c.user_id))
    if (group !== undefined && user !== undefined) members.set(group, [...(members.get(group) ?? []), user])
  }
  const context: BasketMappingContext = {
    groups: new Set(groupCode.values()),
    entities: new Set(organisation.entities.map((e) => String(e.entity_id))),
    statuses: new Set(organisation.status.map((s) => String(s.id))),
    members,
  }
  const mapped = mapBaskets(rows, context)
  const [preferences, loans, marks] = [
    await source.rows('select * from users_baskets_preferences order by id'),
    await source.rows('select * from redirected_baskets order by id'),
    await source.rows(
      'select distinct res_id, user_id, basket_id from res_mark_as_read where res_id is not null and basket_id is not null',
    ),
  ]
  // Maarch's serial ids turned into logins and group codes: Mailroom's may differ (a user already there keeps hers).
  const userOf = (id: unknown) => login.get(Number(id)) ?? `#${String(id)}`
  const groupOf = (id: unknown) => groupCode.get(Number(id)) ?? `#${String(id)}`
  const usage: BasketUsage = {
    users: [...login.values()],
    preferences: preferences.map((p) => ({
      login: userOf(p.user_serial_id),
      group: groupOf(p.group_serial_id),
      basket: String(p.basket_id),
      display: p.display === true || p.display === 't',
      color: p.color === null || p.color === undefined ? null : String(p.color),
    })),
    loans: loans.map((l) => ({
      owner: userOf(l.owner_user_id),
      actual: userOf(l.actual_user_id),
      group: groupOf(l.group_id),
      basket: String(l.basket_id),
    })),
    markedAsRead: marks.map((m) => ({
      resId: Number(m.res_id),
      login: userOf(m.user_id),
      basket: String(m.basket_id),
    })),
  }
  return { ...mapped, usage }
}

/** Writes the users' use of the baskets (after the organisation, which holds the baskets and users it names). */
export async function writeSourceBasketUsage(
  target: MaarchImportTarget,
  baskets: SourceBaskets,
  notes: OrganisationNote[],
): Promise<BasketUsageWritten> {
  const written = await writeBasketUsage(target.db, baskets.usage)
  for (const what of written.unknown)
    notes.push({
      section: 'baskets',
      id: what.split(' for ').at(-1) ?? '',
      message: `${what}: names a user, group or basket Mailroom does not have, left out`,
    })
  return written
}
