import type { CriteriaTerm } from '@mailroom/core'
import { type RawBuilder, type SqlBool, sql } from 'kysely'

/**
 * The criteria of 20.10 that read the diffusion list and the senders' addresses (getListFieldsClause,
 * `groupSign` and `senderDepartment` of getMainFieldsClause), compiled to SQL whose every value is bound.
 */

type RoleTerm = Extract<CriteriaTerm, { kind: 'role' }>
type GroupSignTerm = Extract<CriteriaTerm, { kind: 'groupSign' }>
type DepartmentTerm = Extract<CriteriaTerm, { kind: 'senderDepartment' }>

/** The entries (alias `li`) of a role: `sign` the signatories, `visa` the visas of the circuit, else the item mode. */
function inRole(role: string): RawBuilder<SqlBool> {
  if (role === 'sign') return sql<SqlBool>`li.signatory`
  if (role === 'visa')
    return sql<SqlBool>`(li.difflist_type = 'VISA_CIRCUIT' and not li.signatory
      and (not li.requested_signature or li.process_date is not null))`
  return sql<SqlBool>`li.item_mode = ${sql.val(role)}`
}

/** An entry naming one of the items: a user (or their delegate), or an entity. */
function namesItem(term: RoleTerm): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${sql.join(
    term.items.map((item) =>
      item.type === 'user'
        ? sql`((li.item_id = ${sql.val(item.id)}::int and li.item_type = 'user_id') or li.delegate = ${sql.val(item.id)}::int)`
        : sql`(li.item_id = ${sql.val(item.id)}::int and li.item_type = 'entity_id')`,
    ),
    sql` or `,
  )})`
}

/** The records whose diffusion list has an entry of the role naming one of the items. */
function roleRecords(term: RoleTerm): RawBuilder<unknown> {
  return sql`select li.res_id from listinstance li where ${inRole(term.role)} and ${namesItem(term)}`
}

function roleCondition(term: RoleTerm): RawBuilder<SqlBool> {
  const none = sql<SqlBool>`${sql.ref('res_id')} not in (select li.res_id from listinstance li where ${inRole(term.role)})`
  if (term.items.length === 0) return none
  const some = sql<SqlBool>`${sql.ref('res_id')} in (${roleRecords(term)})`
  return term.orNone ? sql<SqlBool>`(${some} or ${none})` : some
}

function groupSignCondition(term: GroupSignTerm): RawBuilder<SqlBool> {
  const parts: RawBuilder<SqlBool>[] = []
  if (term.groupIds.length > 0) {
    const members = sql`(select uc.user_id from usergroup_content uc where uc.group_id = any(${sql.val(term.groupIds)}::int[]))`
    parts.push(sql<SqlBool>`${sql.ref('res_id')} in (select li.res_id from listinstance li where li.signatory
      and ((li.item_type = 'user_id' and li.item_id in ${members}) or li.delegate in ${members}))`)
  }
  if (term.orNone)
    parts.push(sql<SqlBool>`${sql.ref('res_id')} in (select li.res_id from listinstance li where li.signatory
      and li.item_type = 'user_id' and li.item_id not in (select uc.user_id from usergroup_content uc))`)
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`
}

/** The records a contact sender of which has a postcode in one of the departments (or none: `orNone`). */
function departmentRecords(term: DepartmentTerm): RawBuilder<unknown> {
  const parts: RawBuilder<SqlBool>[] = []
  // Departments are digits only (parseSearchCriteria), so they hold no LIKE wildcard.
  if (term.departments.length > 0)
    parts.push(sql<SqlBool>`c.address_postcode like any(${sql.val(term.departments.map((d) => `${d}%`))}::text[])`)
  if (term.orNone) parts.push(sql<SqlBool>`coalesce(c.address_postcode, '') = ''`)
  return sql`select rc.res_id from resource_contacts rc join contacts c on c.id = rc.item_id
    where rc.type = 'contact' and rc.mode = 'sender' and (${sql.join(parts, sql` or `)})`
}

/** The condition of a diffusion-list or sender-address term over res_view_letterbox. */
export function compileDiffusionTerm(term: RoleTerm | GroupSignTerm | DepartmentTerm): RawBuilder<SqlBool> {
  switch (term.kind) {
    case 'role':
      return roleCondition(term)
    case 'groupSign':
      return groupSignCondition(term)
    case 'senderDepartment':
      return sql<SqlBool>`${sql.ref('res_id')} in (${departmentRecords(term)})`
  }
}
