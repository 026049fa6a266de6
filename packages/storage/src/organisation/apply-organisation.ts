import type {
  AttachmentTypeDefinition,
  ContactDefinition,
  CustomFieldDefinition,
  DoctypeDefinition,
  DoctypeFirstLevelDefinition,
  DoctypeSecondLevelDefinition,
  EntityDefinition,
  GroupDefinition,
  IndexingModelDefinition,
  OrganisationPlan,
  ParameterDefinition,
  PriorityDefinition,
  StatusDefinition,
  TagDefinition,
  UserDefinition,
} from '@mailroom/core'
import { type Kysely, sql, type Transaction } from 'kysely'
import { applyBasketSections, removeBasketSections } from '../baskets-administration/basket-sections.js'
import { contactValueColumns } from '../contacts/contact-columns.js'
import type { Database } from '../database/schema.js'
import { applyListTemplates, removeListTemplates } from '../list-templates/list-template-section.js'

type Trx = Transaction<Database> | Kysely<Database>

/** Rows per insert statement: well under PostgreSQL's 65,535 parameters for the widest table. */
const CHUNK = 1000

/** Hash of a user created without one: it matches no password, so the user cannot log in until one is set. */
export const NO_PASSWORD_HASH = '!'

const flag = (value: boolean) => (value ? 'Y' : 'N')

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK))
  return out
}

async function insertAll<T extends keyof Database & string>(
  trx: Trx,
  table: T,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  for (const chunk of chunks(rows))
    await trx
      .insertInto(table)
      .values(chunk as never)
      .execute()
}

/** Moves a serial past the ids inserted explicitly, so later inserts without an id do not collide. */
async function resetSerial(trx: Trx, table: string, column: string): Promise<void> {
  await sql`select setval(pg_get_serial_sequence(${table}, ${column}), coalesce((select max(${sql.ref(column)}) from ${sql.table(table)}), 0) + 1, false)`.execute(
    trx,
  )
}

function entityRow(e: EntityDefinition) {
  return {
    ...(e.serialId === undefined ? {} : { id: e.serialId }),
    entity_id: e.id,
    entity_label: e.label,
    short_label: e.shortLabel,
    entity_full_name: e.fullName,
    entity_type: e.type,
    business_id: e.businessId,
    enabled: flag(e.enabled),
    email: e.email,
    adrs_1: e.address.line1,
    adrs_2: e.address.line2,
    adrs_3: e.address.line3,
    zipcode: e.address.zipcode,
    city: e.address.city,
    country: e.address.country,
    ldap_id: e.ldapId,
    archival_agency: e.archivalAgency,
    archival_agreement: e.archivalAgreement,
    producer_service: e.producerService,
    external_id: JSON.stringify(e.externalId),
  }
}

function groupRow(g: GroupDefinition) {
  return {
    ...(g.serialId === undefined ? {} : { id: g.serialId }),
    group_id: g.id,
    group_desc: g.label,
    can_index: g.canIndex,
    indexation_parameters: JSON.stringify({
      actions: [],
      entities: g.indexing.entities,
      keywords: g.indexing.keywords,
    }),
    can_read_safe: g.digitalSafe,
    privileges: [...g.privileges],
  }
}

const statusRow = (s: StatusDefinition) => ({
  id: s.id,
  label_status: s.label,
  is_closing: s.closing,
  is_system: flag(s.system),
  img_filename: s.image,
  can_be_searched: flag(s.searchable),
  can_be_modified: flag(s.modifiable),
})
const firstLevelRow = (l: DoctypeFirstLevelDefinition) => ({
  doctypes_first_level_id: l.id,
  doctypes_first_level_label: l.label,
  css_style: l.color,
  enabled: flag(l.enabled),
})
const secondLevelRow = (l: DoctypeSecondLevelDefinition) => ({
  doctypes_second_level_id: l.id,
  doctypes_second_level_label: l.label,
  doctypes_first_level_id: l.firstLevel,
  css_style: l.color,
  enabled: flag(l.enabled),
})
const priorityRow = (p: PriorityDefinition) => ({
  id: p.id,
  label: p.label,
  color: p.color,
  working_days: p.workingDays,
  delays: p.delays,
  order: p.order,
})
const customFieldRow = (f: CustomFieldDefinition) => ({
  id: f.id,
  label: f.label,
  type: f.type,
  mode: f.mode,
  values: JSON.stringify(f.values),
})
const tagRow = (t: TagDefinition) => ({ id: t.id, label: t.label })
const parameterRow = (p: ParameterDefinition) => ({
  id: p.id,
  description: p.description,
  param_value_string: p.stringValue,
  param_value_int: p.integerValue,
  param_value_date: p.dateValue,
})

/** A section stored in one table keyed by one column: added rows inserted, changed rows updated, removed rows deleted. */
interface SimpleSection<I> {
  readonly table: keyof Database & string
  readonly key: string
  readonly keyOf: (item: I) => string | number
  readonly row: (item: I) => Record<string, unknown>
  /** The table's serial column when ids are inserted explicitly. */
  readonly serial?: string
}

async function applySimple<I>(
  trx: Trx,
  section: SimpleSection<I>,
  changes: { added: readonly I[]; changed: readonly I[] },
): Promise<void> {
  await insertAll(trx, section.table, changes.added.map(section.row))
  for (const item of changes.changed) {
    await trx
      .updateTable(section.table as 'tags')
      .set(section.row(item) as never)
      .where(sql.ref(section.key), '=', section.keyOf(item))
      .execute()
  }
  if (section.serial !== undefined && changes.added.length > 0) await resetSerial(trx, section.table, section.serial)
}

async function removeSimple<I>(trx: Trx, section: SimpleSection<I>, removed: readonly I[]): Promise<void> {
  if (removed.length === 0) return
  await trx
    .deleteFrom(section.table as 'tags')
    .where(sql.ref(section.key), 'in', removed.map(section.keyOf))
    .execute()
}

const STATUSES: SimpleSection<StatusDefinition> = { table: 'status', key: 'id', keyOf: (s) => s.id, row: statusRow }
const FIRST_LEVELS: SimpleSection<DoctypeFirstLevelDefinition> = {
  table: 'doctypes_first_level',
  key: 'doctypes_first_level_id',
  keyOf: (l) => l.id,
  row: firstLevelRow,
  serial: 'doctypes_first_level_id',
}
const SECOND_LEVELS: SimpleSection<DoctypeSecondLevelDefinition> = {
  table: 'doctypes_second_level',
  key: 'doctypes_second_level_id',
  keyOf: (l) => l.id,
  row: secondLevelRow,
  serial: 'doctypes_second_level_id',
}
const PRIORITIES: SimpleSection<PriorityDefinition> = {
  table: 'priorities',
  key: 'id',
  keyOf: (p) => p.id,
  row: priorityRow,
}
const CUSTOM_FIELDS: SimpleSection<CustomFieldDefinition> = {
  table: 'custom_fields',
  key: 'id',
  keyOf: (f) => f.id,
  row: customFieldRow,
  serial: 'id',
}
const ATTACHMENT_TYPES: SimpleSection<AttachmentTypeDefinition> = {
  table: 'attachment_types',
  key: 'type_id',
  keyOf: (t) => t.id,
  row: (t) => ({
    type_id: t.id,
    label: t.label,
    icon: t.icon,
    sign: t.sign,
    chrono: t.chrono,
    attach_in_mail: t.attachInMail,
    show: t.show,
  }),
}
const TAGS: SimpleSection<TagDefinition> = { table: 'tags', key: 'id', keyOf: (t) => t.id, row: tagRow, serial: 'id' }
const PARAMETERS: SimpleSection<ParameterDefinition> = {
  table: 'parameters',
  key: 'id',
  keyOf: (p) => p.id,
  row: parameterRow,
}

/** Sets one text column of many rows in one statement (parents of entities, folders, models). */
async function setColumn(
  trx: Trx,
  table: string,
  keyColumn: string,
  column: string,
  pairs: readonly [string | number, string | number | null][],
  keyType: 'text' | 'integer',
  valueType: 'text' | 'integer',
): Promise<void> {
  for (const chunk of chunks(pairs)) {
    await sql`update ${sql.table(table)} set ${sql.ref(column)} = data.value
      from (select unnest(${chunk.map((p) => p[0])}::${sql.raw(keyType)}[]) as key, unnest(${chunk.map((p) => p[1])}::${sql.raw(valueType)}[]) as value) as data
      where ${sql.ref(`${table}.${keyColumn}`)} = data.key`.execute(trx)
  }
}

async function serialsOf(
  trx: Trx,
  table: 'entities' | 'usergroups' | 'users',
  codeColumn: 'entity_id' | 'group_id' | 'user_id',
): Promise<Map<string, number>> {
  const rows = await sql<{
    code: string
    id: number
  }>`select ${sql.ref(codeColumn)} as code, id from ${sql.table(table)}`.execute(trx)
  return new Map(rows.rows.map((r) => [codeColumn === 'user_id' ? r.code.toLowerCase() : r.code, r.id]))
}

async function removeEntities(trx: Trx, removed: readonly EntityDefinition[]): Promise<void> {
  if (removed.length === 0) return
  const codes = removed.map((e) => e.id)
  await trx.deleteFrom('users_entities').where('entity_id', 'in', codes).execute()
  await trx
    .deleteFrom('entities_folders')
    .where('entity_id', 'in', trx.selectFrom('entities').select('id').where('entity_id', 'in', codes))
    .execute()
  await trx.updateTable('entities').set({ parent_entity_id: null }).where('entity_id', 'in', codes).execute()
  await trx.deleteFrom('entities').where('entity_id', 'in', codes).execute()
}

async function applyEntities(
  trx: Trx,
  added: readonly EntityDefinition[],
  changed: readonly EntityDefinition[],
): Promise<void> {
  // Rows first without parents, then every parent: a parent may be added in the same document, after its children.
  await insertAll(
    trx,
    'entities',
    added.map((e) => ({ ...entityRow(e), parent_entity_id: null })),
  )
  for (const e of changed) {
    const { id: _serial, ...row } = entityRow(e)
    await trx.updateTable('entities').set(row).where('entity_id', '=', e.id).execute()
  }
  const parents = [...added, ...changed].map((e): [string, string | null] => [e.id, e.parent])
  await setColumn(trx, 'entities', 'entity_id', 'parent_entity_id', parents, 'text', 'text')
  if (added.some((e) => e.serialId !== undefined)) await resetSerial(trx, 'entities', 'id')
}

async function removeGroups(trx: Trx, removed: readonly GroupDefinition[]): Promise<void> {
  if (removed.length === 0) return
  const codes = removed.map((g) => g.id)
  await trx
    .deleteFrom('usergroup_content')
    .where('group_id', 'in', trx.selectFrom('usergroups').select('id').where('group_id', 'in', codes))
    .execute()
  await trx.deleteFrom('security').where('group_id', 'in', codes).execute()
  await trx.deleteFrom('usergroups').where('group_id', 'in', codes).execute()
}

async function applyGroups(
  trx: Trx,
  added: readonly GroupDefinition[],
  changed: readonly GroupDefinition[],
): Promise<void> {
  await insertAll(trx, 'usergroups', added.map(groupRow))
  for (const g of changed) {
    const { id: _serial, ...row } = groupRow(g)
    await trx.updateTable('usergroups').set(row).where('group_id', '=', g.id).execute()
  }
  if (changed.length > 0)
    await trx
      .deleteFrom('security')
      .where(
        'group_id',
        'in',
        changed.map((g) => g.id),
      )
      .execute()
  const clauses = [...added, ...changed].flatMap((g) =>
    g.perimeter === null ? [] : [{ group_id: g.id, where_clause: g.perimeter, maarch_comment: g.perimeterComment }],
  )
  await insertAll(trx, 'security', clauses)
  if (added.some((g) => g.serialId !== undefined)) await resetSerial(trx, 'usergroups', 'id')
}

/** Keeps a stored status that already says the same (ABS is enabled, any other refusal is disabled). */
function statusSql(enabled: boolean) {
  return enabled
    ? sql<string>`case when status in ('OK', 'ABS') then status else 'OK' end`
    : sql<string>`case when status in ('OK', 'ABS') then 'SPD' else status end`
}

async function removeUsers(trx: Trx, removed: readonly UserDefinition[]): Promise<void> {
  if (removed.length === 0) return
  const ids = trx
    .selectFrom('users')
    .select('id')
    .where(
      sql`lower(user_id)`,
      'in',
      removed.map((u) => u.login.toLowerCase()),
    )
  await trx.deleteFrom('users_entities').where('user_id', 'in', ids).execute()
  await trx.deleteFrom('usergroup_content').where('user_id', 'in', ids).execute()
  await trx
    .deleteFrom('users')
    .where(
      sql`lower(user_id)`,
      'in',
      removed.map((u) => u.login.toLowerCase()),
    )
    .execute()
}

async function applyUsers(
  trx: Trx,
  added: readonly UserDefinition[],
  changed: readonly UserDefinition[],
): Promise<void> {
  await insertAll(
    trx,
    'users',
    added.map((u) => ({
      ...(u.id === undefined ? {} : { id: u.id }),
      user_id: u.login,
      firstname: u.firstname,
      lastname: u.lastname,
      mail: u.mail,
      mode: u.mode,
      authentication: u.authentication,
      status: u.enabled ? 'OK' : 'SPD',
      password: u.passwordHash ?? NO_PASSWORD_HASH,
      locked_until: null,
      service_token_id: null,
    })),
  )
  for (const u of changed) {
    await trx
      .updateTable('users')
      .set({
        user_id: u.login,
        firstname: u.firstname,
        lastname: u.lastname,
        mail: u.mail,
        mode: u.mode,
        authentication: u.authentication,
        status: statusSql(u.enabled),
        ...(u.passwordHash === undefined ? {} : { password: u.passwordHash }),
        // A disabled user's refresh and service tokens die with it.
        ...(u.enabled ? {} : { refresh_token: '[]', service_token_id: null }),
      })
      .where(sql`lower(user_id)`, '=', u.login.toLowerCase())
      .execute()
  }
  if (added.some((u) => u.id !== undefined)) await resetSerial(trx, 'users', 'id')
  const all = [...added, ...changed]
  if (all.length === 0) return
  const userIds = await serialsOf(trx, 'users', 'user_id')
  const groupIds = await serialsOf(trx, 'usergroups', 'group_id')
  const ids = all.map((u) => userIds.get(u.login.toLowerCase())!)
  if (changed.length > 0) {
    const changedIds = changed.map((u) => userIds.get(u.login.toLowerCase())!)
    for (const chunk of chunks(changedIds)) {
      await trx.deleteFrom('users_entities').where('user_id', 'in', chunk).execute()
      await trx.deleteFrom('usergroup_content').where('user_id', 'in', chunk).execute()
    }
  }
  await insertAll(
    trx,
    'users_entities',
    all.flatMap((u, i) =>
      u.entities.map((m) => ({
        user_id: ids[i]!,
        entity_id: m.id,
        user_role: m.role,
        primary_entity: flag(m.primary),
      })),
    ),
  )
  await insertAll(
    trx,
    'usergroup_content',
    all.flatMap((u, i) => u.groups.map((g) => ({ user_id: ids[i]!, group_id: groupIds.get(g)!, role: null }))),
  )
}

async function applyDoctypes(
  trx: Trx,
  added: readonly DoctypeDefinition[],
  changed: readonly DoctypeDefinition[],
): Promise<void> {
  const levels = new Map(
    (
      await trx
        .selectFrom('doctypes_second_level')
        .select(['doctypes_second_level_id as id', 'doctypes_first_level_id as first'])
        .execute()
    ).map((l) => [l.id, l.first]),
  )
  const row = (d: DoctypeDefinition) => ({
    type_id: d.id,
    description: d.label,
    enabled: flag(d.enabled),
    doctypes_second_level_id: d.secondLevel,
    doctypes_first_level_id: levels.get(d.secondLevel)!,
    process_delay: d.processDelay,
    process_mode: d.processMode,
  })
  await applySimple(
    trx,
    { table: 'doctypes', key: 'type_id', keyOf: (d) => d.id, row, serial: 'type_id' },
    { added, changed },
  )
}

async function removeModels(trx: Trx, removed: readonly IndexingModelDefinition[]): Promise<void> {
  if (removed.length === 0) return
  const ids = removed.map((m) => m.id)
  await trx.deleteFrom('indexing_models_fields').where('model_id', 'in', ids).execute()
  await trx.updateTable('indexing_models').set({ master: null }).where('master', 'in', ids).execute()
  await trx.deleteFrom('indexing_models').where('id', 'in', ids).execute()
}

async function applyModels(
  trx: Trx,
  added: readonly IndexingModelDefinition[],
  changed: readonly IndexingModelDefinition[],
): Promise<void> {
  const all = [...added, ...changed]
  if (all.length === 0) return
  const users = await serialsOf(trx, 'users', 'user_id')
  const row = (m: IndexingModelDefinition) => ({
    id: m.id,
    label: m.label,
    category: m.category,
    default: m.default,
    owner: m.owner === null ? null : (users.get(m.owner.toLowerCase()) ?? null),
    private: m.private,
    master: m.master,
    enabled: m.enabled,
    mandatory_file: m.mandatoryFile,
  })
  await applySimple(
    trx,
    { table: 'indexing_models', key: 'id', keyOf: (m) => m.id, row, serial: 'id' },
    { added, changed },
  )
  if (changed.length > 0)
    await trx
      .deleteFrom('indexing_models_fields')
      .where(
        'model_id',
        'in',
        changed.map((m) => m.id),
      )
      .execute()
  await insertAll(
    trx,
    'indexing_models_fields',
    all.flatMap((m) =>
      m.fields.map((f) => ({
        model_id: m.id,
        identifier: f.identifier,
        mandatory: f.mandatory,
        enabled: f.enabled,
        default_value: f.defaultValue === undefined || f.defaultValue === null ? null : JSON.stringify(f.defaultValue),
        unit: f.unit,
      })),
    ),
  )
}

async function applyContacts(
  trx: Trx,
  added: readonly ContactDefinition[],
  changed: readonly ContactDefinition[],
): Promise<void> {
  if (added.length + changed.length === 0) return
  const users = await serialsOf(trx, 'users', 'user_id')
  const row = ({ id, creator, creationDate, modificationDate, enabled, ...values }: ContactDefinition) => ({
    id,
    ...contactValueColumns(values),
    creator: creator === null ? null : (users.get(creator.toLowerCase()) ?? null),
    // Left out: a new contact is created now, a stored one keeps its dates (the plan filled them in).
    ...(creationDate === undefined ? {} : { creation_date: creationDate }),
    modification_date: modificationDate ?? null,
    enabled,
  })
  await applySimple(trx, { table: 'contacts', key: 'id', keyOf: (c) => c.id, row, serial: 'id' }, { added, changed })
}

async function removeFolders(trx: Trx, removed: readonly { id: number }[]): Promise<void> {
  if (removed.length === 0) return
  const ids = removed.map((f) => f.id)
  await trx.deleteFrom('entities_folders').where('folder_id', 'in', ids).execute()
  await trx.updateTable('folders').set({ parent_id: null }).where('parent_id', 'in', ids).execute()
  await trx.deleteFrom('folders').where('id', 'in', ids).execute()
}

async function applyFolders(trx: Trx, plan: OrganisationPlan['sections']['folders']): Promise<void> {
  const all = [...plan.added, ...plan.changed]
  if (all.length === 0) return
  const users = await serialsOf(trx, 'users', 'user_id')
  const entities = await serialsOf(trx, 'entities', 'entity_id')
  const depth = new Map<number, number>()
  const parentOf = new Map(all.map((f) => [f.id, f.parent]))
  const levelOf = (id: number, seen = 0): number => {
    const parent = parentOf.get(id)
    if (parent === null || parent === undefined || seen > 64) return 0
    return (depth.get(parent) ?? levelOf(parent, seen + 1)) + 1
  }
  for (const f of all) depth.set(f.id, levelOf(f.id))
  const row = (f: (typeof all)[number]) => ({
    id: f.id,
    label: f.label,
    public: f.public,
    user_id: users.get(f.owner.toLowerCase())!,
    parent_id: null,
    level: depth.get(f.id) ?? 0,
  })
  await applySimple(
    trx,
    { table: 'folders', key: 'id', keyOf: (f) => f.id, row, serial: 'id' },
    { added: plan.added, changed: plan.changed },
  )
  await setColumn(
    trx,
    'folders',
    'id',
    'parent_id',
    all.map((f): [number, number | null] => [f.id, f.parent]),
    'integer',
    'integer',
  )
  if (plan.changed.length > 0)
    await trx
      .deleteFrom('entities_folders')
      .where(
        'folder_id',
        'in',
        plan.changed.map((f) => f.id),
      )
      .execute()
  await insertAll(
    trx,
    'entities_folders',
    all.flatMap((f) =>
      f.sharing.map((s) => {
        const entity = entities.get(s.entity)
        return {
          folder_id: f.id,
          entity_id: entity ?? null,
          keyword: entity === undefined ? s.entity : null,
          edition: s.edition,
        }
      }),
    ),
  )
}

/**
 * Writes a plan (from planOrganisation, with nothing refused) in the caller's transaction: removals first,
 * from what names others to what is named, then additions and changes the other way round. Records are never
 * touched: prune only removes what no record uses (the plan says so), and memberships, clauses, model fields
 * and folder sharing of what is removed or rewritten go with it.
 */
export async function applyOrganisationPlan(trx: Trx, plan: OrganisationPlan): Promise<void> {
  const s = plan.sections
  await removeBasketSections(trx, s)
  await removeListTemplates(trx, s.listTemplates.removed)
  await removeSimple(trx, PARAMETERS, s.parameters.removed)
  await removeSimple(
    trx,
    { table: 'contacts', key: 'id', keyOf: (c: ContactDefinition) => c.id, row: () => ({}) },
    s.contacts.removed,
  )
  await removeSimple(trx, ATTACHMENT_TYPES, s.attachmentTypes.removed)
  await removeFolders(trx, s.folders.removed)
  await removeSimple(trx, TAGS, s.tags.removed)
  await removeSimple(trx, CUSTOM_FIELDS, s.customFields.removed)
  await removeSimple(trx, PRIORITIES, s.priorities.removed)
  await removeModels(trx, s.indexingModels.removed)
  await removeSimple(
    trx,
    { table: 'doctypes', key: 'type_id', keyOf: (d: DoctypeDefinition) => d.id, row: () => ({}) },
    s.doctypes.removed,
  )
  await removeSimple(trx, SECOND_LEVELS, s.doctypeSecondLevels.removed)
  await removeSimple(trx, FIRST_LEVELS, s.doctypeFirstLevels.removed)
  await removeSimple(trx, STATUSES, s.statuses.removed)
  await removeUsers(trx, s.users.removed)
  await removeGroups(trx, s.groups.removed)
  await removeEntities(trx, s.entities.removed)

  await applyEntities(trx, s.entities.added, s.entities.changed)
  await applyGroups(trx, s.groups.added, s.groups.changed)
  await applyUsers(trx, s.users.added, s.users.changed)
  await applySimple(trx, STATUSES, s.statuses)
  await applySimple(trx, FIRST_LEVELS, s.doctypeFirstLevels)
  await applySimple(trx, SECOND_LEVELS, s.doctypeSecondLevels)
  await applyDoctypes(trx, s.doctypes.added, s.doctypes.changed)
  await applyModels(trx, s.indexingModels.added, s.indexingModels.changed)
  await applySimple(trx, PRIORITIES, s.priorities)
  await applySimple(trx, CUSTOM_FIELDS, s.customFields)
  await applySimple(trx, TAGS, s.tags)
  await applyFolders(trx, s.folders)
  await applyContacts(trx, s.contacts.added, s.contacts.changed)
  await applySimple(trx, PARAMETERS, s.parameters)
  await applySimple(trx, ATTACHMENT_TYPES, s.attachmentTypes)
  await applyListTemplates(trx, s.listTemplates)
  await applyBasketSections(trx, s)
}
