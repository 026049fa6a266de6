import type { Database } from '@mailroom/storage'
import type { Kysely } from 'kysely'
import { ORG_QUERIES } from '../import-organisation.js'
import { type MaarchOrganisationRows, type MaarchUserMapping, mapOrganisation } from '../map-organisation.js'
import type { MaarchSource } from '../source.js'
import type { Tally } from './tally.js'

type Item = Record<string, unknown>
const sorted = (values: readonly unknown[]) => values.map(String).sort()
const byKey = (items: readonly Item[], key: (item: Item) => string) =>
  new Map(items.map((item) => [key(item), item] as const))

/**
 * Compares the organisation (entities, groups, users, contacts) with what the importer makes of the source:
 * the source read as it reads it and mapped by the same mapping, so that what the mapping changes on
 * purpose (a clause Mailroom cannot parse, an empty label) is expected, and said once in the notes.
 * Returns the mapping's notes.
 */
export async function verifyOrganisation(
  source: MaarchSource,
  target: Kysely<Database>,
  tally: Tally,
  mapping: MaarchUserMapping,
): Promise<string[]> {
  const read: Record<string, unknown> = {}
  for (const [section, query] of Object.entries(ORG_QUERIES)) read[section] = await source.rows(query)
  const { document, notes } = mapOrganisation(read as unknown as MaarchOrganisationRows, mapping)

  const entities = await target
    .selectFrom('entities')
    .select(['id', 'entity_id', 'entity_label', 'parent_entity_id', 'enabled', 'entity_type'])
    .execute()
  tally.compareKeyed(
    'entities',
    byKey(
      (document.entities ?? []).map((e) => ({
        id: e.id,
        serialId: e.serialId,
        label: e.label,
        parent: e.parent ?? null,
        type: e.type,
        enabled: e.enabled,
      })),
      (e) => String(e.id),
    ),
    byKey(
      entities.map((e) => ({
        id: e.entity_id,
        serialId: e.id,
        label: e.entity_label,
        parent: e.parent_entity_id,
        type: e.entity_type,
        enabled: e.enabled === 'Y',
      })),
      (e) => String(e.id),
    ),
  )

  const groups = await target
    .selectFrom('usergroups')
    .leftJoin('security', (join) =>
      join.onRef('security.group_id', '=', 'usergroups.group_id').on('security.coll_id', '=', 'letterbox_coll'),
    )
    .select([
      'usergroups.id',
      'usergroups.group_id',
      'usergroups.group_desc',
      'usergroups.can_index',
      'usergroups.privileges',
      'security.where_clause',
    ])
    .execute()
  tally.compareKeyed(
    'groups',
    byKey(
      (document.groups ?? []).map((g) => ({
        id: g.id,
        serialId: g.serialId,
        label: g.label,
        perimeter: g.perimeter ?? null,
        canIndex: g.canIndex ?? false,
        privileges: sorted(g.privileges ?? []),
      })),
      (g) => String(g.id),
    ),
    byKey(
      groups.map((g) => ({
        id: g.group_id,
        serialId: g.id,
        label: g.group_desc,
        perimeter: g.where_clause ?? null,
        canIndex: g.can_index,
        privileges: sorted(g.privileges ?? []),
      })),
      (g) => String(g.id),
    ),
  )

  const users = await target
    .selectFrom('users')
    .select(['id', 'user_id', 'firstname', 'lastname', 'mail', 'status', 'mode'])
    .execute()
  const membership = await target
    .selectFrom('usergroup_content')
    .innerJoin('usergroups', 'usergroups.id', 'usergroup_content.group_id')
    .select(['usergroup_content.user_id', 'usergroups.group_id'])
    .execute()
  const postings = await target.selectFrom('users_entities').select(['user_id', 'entity_id']).execute()
  const of = <T extends { user_id: number }>(rows: readonly T[], id: number, value: (row: T) => string) =>
    rows.filter((row) => Number(row.user_id) === id).map(value)
  const userKey = (u: Item) => `${String(u.id)} (${String(u.login)})`
  tally.compareKeyed(
    'users',
    byKey(
      (document.users ?? []).map((u) => ({
        id: u.id,
        login: u.login,
        firstname: u.firstname ?? null,
        lastname: u.lastname ?? null,
        mail: u.mail ?? null,
        mode: u.mode ?? 'standard',
        enabled: u.enabled ?? true,
        groups: sorted(u.groups ?? []),
        entities: sorted((u.entities ?? []).map((e) => e.id)),
      })),
      userKey,
    ),
    byKey(
      users.map((u) => ({
        id: u.id,
        login: u.user_id,
        firstname: u.firstname,
        lastname: u.lastname,
        mail: u.mail,
        mode: u.mode,
        enabled: u.status === 'OK' || u.status === 'ABS',
        groups: sorted(of(membership, u.id, (m) => m.group_id)),
        entities: sorted(of(postings, u.id, (p) => p.entity_id)),
      })),
      userKey,
    ),
  )

  const contacts = await target.selectFrom('contacts').selectAll().execute()
  tally.compareKeyed(
    'contacts',
    byKey(
      (document.contacts ?? []).map((c) => ({
        id: c.id,
        civility: c.civility ?? null,
        firstname: c.firstname ?? null,
        lastname: c.lastname ?? null,
        company: c.company ?? null,
        department: c.department ?? null,
        function: c.function ?? null,
        addressStreet: c.addressStreet ?? null,
        addressPostcode: c.addressPostcode ?? null,
        addressTown: c.addressTown ?? null,
        email: c.email ?? null,
        phone: c.phone ?? null,
        notes: c.notes ?? null,
        enabled: c.enabled ?? true,
      })),
      (c) => String(c.id),
    ),
    byKey(
      contacts.map((c) => ({
        id: c.id,
        civility: c.civility,
        firstname: c.firstname,
        lastname: c.lastname,
        company: c.company,
        department: c.department,
        function: c.function,
        addressStreet: c.address_street,
        addressPostcode: c.address_postcode,
        addressTown: c.address_town,
        email: c.email,
        phone: c.phone,
        notes: c.notes,
        enabled: c.enabled,
      })),
      (c) => String(c.id),
    ),
  )
  return notes.map((n) => `${n.section} ${n.id}: ${n.message}`)
}
