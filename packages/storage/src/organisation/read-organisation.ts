import {
  type AuthenticationMethodName,
  type IndexingKeyword,
  type OrganisationDocument,
  type OrganisationState,
  type OrganisationUsage,
  USER_MODES,
  type UserModeName,
} from '@mailroom/core'
import { INDEXING_KEYWORDS } from '@mailroom/core/internal'
import { type Kysely, sql } from 'kysely'
import { readBasketSections } from '../baskets-administration/basket-sections.js'
import { contactFromRow } from '../contacts/contact-columns.js'
import type { Database } from '../database/schema.js'
import { readListTemplateSection } from '../list-templates/list-template-section.js'
import { selectParameters } from '../parameters/kysely-parameter-repository.js'

const yes = (flag: string | null | undefined) => flag === 'Y'
/** Users whose status lets them in (auth-service `usable`). */
export const ENABLED_STATUSES: readonly string[] = ['OK', 'ABS']

function isKeyword(value: string): value is IndexingKeyword {
  return (INDEXING_KEYWORDS as readonly string[]).includes(value)
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value === 'string') {
    try {
      return asObject(JSON.parse(value))
    } catch {
      return {}
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}

function asArray(value: unknown): unknown[] {
  if (typeof value === 'string') {
    try {
      return asArray(JSON.parse(value))
    } catch {
      return []
    }
  }
  return Array.isArray(value) ? value : []
}

/** Groups values of rows by a key, keeping row order. */
function groupBy<R, K, V>(rows: readonly R[], key: (row: R) => K, value: (row: R) => V): Map<K, V[]> {
  const map = new Map<K, V[]>()
  for (const row of rows) {
    const list = map.get(key(row)) ?? []
    list.push(value(row))
    map.set(key(row), list)
  }
  return map
}

/** Options of {@link readOrganisation}. */
export interface ReadOrganisationOptions {
  /** Include each user's stored password hash (default false). */
  readonly withPasswordHashes?: boolean
}

/**
 * The installation's organisation as a document, every section present and every field explicit, in a
 * stable order (codes, ids). Stored values a document cannot express are normalised: several security rows
 * of a group become one clause joined with OR, unknown indexing keywords are left out.
 */
export async function readOrganisation(
  db: Kysely<Database>,
  options: ReadOrganisationOptions = {},
): Promise<OrganisationDocument> {
  const [
    entities,
    groups,
    security,
    users,
    memberships,
    userGroups,
    statuses,
    firstLevels,
    secondLevels,
    doctypes,
    models,
    fields,
    priorities,
    customFields,
    tags,
    folders,
    sharing,
    contacts,
    parameters,
    attachmentTypes,
    listTemplates,
    basketSections,
  ] = await Promise.all([
    db.selectFrom('entities').selectAll().orderBy('id').execute(),
    db.selectFrom('usergroups').selectAll().orderBy('id').execute(),
    db.selectFrom('security').selectAll().orderBy('security_id').execute(),
    db
      .selectFrom('users')
      .select(['id', 'user_id', 'firstname', 'lastname', 'mail', 'mode', 'authentication', 'status', 'password'])
      .orderBy('id')
      .execute(),
    db
      .selectFrom('users_entities')
      .selectAll()
      .orderBy('user_id')
      .orderBy('primary_entity', 'desc')
      .orderBy('entity_id')
      .execute(),
    db
      .selectFrom('usergroup_content as uc')
      .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
      .select(['uc.user_id', 'g.group_id'])
      .orderBy('uc.user_id')
      .orderBy('g.group_id')
      .execute(),
    db.selectFrom('status').selectAll().orderBy('identifier').execute(),
    db.selectFrom('doctypes_first_level').selectAll().orderBy('doctypes_first_level_id').execute(),
    db.selectFrom('doctypes_second_level').selectAll().orderBy('doctypes_second_level_id').execute(),
    db.selectFrom('doctypes').selectAll().orderBy('type_id').execute(),
    db.selectFrom('indexing_models').selectAll().orderBy('id').execute(),
    db.selectFrom('indexing_models_fields').selectAll().orderBy('model_id').orderBy('id').execute(),
    db.selectFrom('priorities').selectAll().orderBy('order').orderBy('id').execute(),
    db.selectFrom('custom_fields').selectAll().orderBy('id').execute(),
    db.selectFrom('tags').selectAll().orderBy('id').execute(),
    db.selectFrom('folders').selectAll().orderBy('id').execute(),
    db.selectFrom('entities_folders').selectAll().orderBy('folder_id').orderBy('id').execute(),
    db.selectFrom('contacts').selectAll().orderBy('id').execute(),
    selectParameters(db).orderBy('id').execute(),
    db.selectFrom('attachment_types').selectAll().orderBy('type_id').execute(),
    readListTemplateSection(db),
    readBasketSections(db),
  ])
  const entityCode = new Map(entities.map((e) => [e.id, e.entity_id]))
  const login = new Map(users.map((u) => [u.id, u.user_id]))
  const clauses = groupBy(
    security,
    (s) => s.group_id,
    (s) => s,
  )
  const membershipsOf = groupBy(
    memberships,
    (m) => m.user_id,
    (m) => m,
  )
  const groupsOf = groupBy(
    userGroups,
    (m) => m.user_id,
    (m) => m.group_id,
  )
  const fieldsOf = groupBy(
    fields,
    (f) => f.model_id,
    (f) => f,
  )
  const sharingOf = groupBy(
    sharing,
    (s) => s.folder_id,
    (s) => s,
  )
  return {
    version: 1,
    entities: entities.map((e) => ({
      id: e.entity_id,
      serialId: e.id,
      label: e.entity_label,
      shortLabel: e.short_label,
      fullName: e.entity_full_name,
      type: e.entity_type,
      parent: e.parent_entity_id || null,
      businessId: e.business_id,
      enabled: yes(e.enabled),
      email: e.email,
      address: {
        line1: e.adrs_1,
        line2: e.adrs_2,
        line3: e.adrs_3,
        zipcode: e.zipcode,
        city: e.city,
        country: e.country,
      },
      ldapId: e.ldap_id,
      archivalAgency: e.archival_agency,
      archivalAgreement: e.archival_agreement,
      producerService: e.producer_service,
      externalId: asObject(e.external_id),
    })),
    groups: groups.map((g) => {
      const rows = clauses.get(g.group_id) ?? []
      const parameters = asObject(g.indexation_parameters)
      return {
        id: g.group_id,
        serialId: g.id,
        label: g.group_desc ?? g.group_id,
        perimeter:
          rows.length === 0
            ? null
            : rows.length === 1
              ? rows[0]!.where_clause
              : rows.map((r) => `(${r.where_clause})`).join(' or '),
        perimeterComment: rows[0]?.maarch_comment ?? null,
        canIndex: g.can_index,
        indexing: {
          entities: asArray(parameters.entities).map(String),
          keywords: asArray(parameters.keywords).map(String).filter(isKeyword),
        },
        digitalSafe: g.can_read_safe,
        privileges: [...g.privileges],
      }
    }),
    users: users.map((u) => ({
      login: u.user_id,
      id: u.id,
      firstname: u.firstname,
      lastname: u.lastname,
      mail: u.mail,
      mode: ((USER_MODES as readonly string[]).includes(u.mode) ? u.mode : 'standard') as UserModeName,
      authentication: u.authentication as AuthenticationMethodName,
      enabled: ENABLED_STATUSES.includes(u.status),
      groups: groupsOf.get(u.id) ?? [],
      entities: (membershipsOf.get(u.id) ?? []).map((m) => ({
        id: m.entity_id,
        primary: yes(m.primary_entity),
        role: m.user_role || null,
      })),
      ...(options.withPasswordHashes ? { passwordHash: u.password } : {}),
    })),
    statuses: statuses.map((s) => ({
      id: s.id,
      label: s.label_status,
      closing: s.is_closing,
      system: yes(s.is_system),
      image: s.img_filename,
      searchable: yes(s.can_be_searched),
      modifiable: yes(s.can_be_modified),
    })),
    doctypeFirstLevels: firstLevels.map((l) => ({
      id: l.doctypes_first_level_id,
      label: l.doctypes_first_level_label,
      color: l.css_style,
      enabled: yes(l.enabled),
    })),
    doctypeSecondLevels: secondLevels.map((l) => ({
      id: l.doctypes_second_level_id,
      label: l.doctypes_second_level_label,
      firstLevel: l.doctypes_first_level_id,
      color: l.css_style,
      enabled: yes(l.enabled),
    })),
    doctypes: doctypes.map((d) => ({
      id: d.type_id,
      label: d.description,
      secondLevel: d.doctypes_second_level_id,
      processDelay: d.process_delay,
      processMode: d.process_mode,
      enabled: yes(d.enabled),
    })),
    indexingModels: models.map((m) => ({
      id: m.id,
      label: m.label,
      category: m.category as NonNullable<OrganisationDocument['indexingModels']>[number]['category'],
      default: m.default,
      owner: m.owner === null ? null : (login.get(m.owner) ?? null),
      private: m.private,
      master: m.master,
      enabled: m.enabled,
      mandatoryFile: m.mandatory_file,
      fields: (fieldsOf.get(m.id) ?? []).map((f) => ({
        identifier: f.identifier,
        mandatory: f.mandatory,
        enabled: f.enabled,
        ...(f.default_value === null || f.default_value === undefined ? {} : { defaultValue: f.default_value }),
        unit: f.unit,
      })),
    })),
    priorities: priorities.map((p) => ({
      id: p.id,
      label: p.label,
      color: p.color,
      workingDays: p.working_days,
      delays: p.delays,
      order: p.order,
    })),
    customFields: customFields.map((f) => ({
      id: f.id,
      label: f.label,
      type: f.type as NonNullable<OrganisationDocument['customFields']>[number]['type'],
      mode: f.mode === 'technical' ? 'technical' : 'form',
      values: asArray(f.values),
    })),
    tags: tags.map((t) => ({ id: t.id, label: t.label })),
    folders: folders.map((f) => ({
      id: f.id,
      label: f.label,
      public: f.public,
      owner: login.get(f.user_id) ?? String(f.user_id),
      parent: f.parent_id,
      // A sharing row naming neither an entity nor a keyword shares with nobody: it is left out.
      sharing: (sharingOf.get(f.id) ?? []).flatMap((s) => {
        const entity = s.keyword || (s.entity_id === null ? null : (entityCode.get(s.entity_id) ?? null))
        return entity === null ? [] : [{ entity, edition: s.edition }]
      }),
    })),
    contacts: contacts.map((row) => {
      const { id, creator, creationDate, modificationDate, ...fields } = contactFromRow(row)
      return {
        id,
        ...fields,
        creator: creator === null ? null : (login.get(creator) ?? null),
        creationDate: creationDate.toISOString(),
        modificationDate: modificationDate?.toISOString() ?? null,
      }
    }),
    parameters: parameters.map((p) => ({
      id: p.id,
      description: p.description,
      stringValue: p.param_value_string,
      integerValue: p.param_value_int,
      dateValue: p.param_value_date,
    })),
    attachmentTypes: attachmentTypes.map((t) => ({
      id: t.type_id,
      label: t.label,
      icon: t.icon,
      sign: t.sign,
      chrono: t.chrono,
      attachInMail: t.attach_in_mail,
      show: t.show,
    })),
    listTemplates,
    ...basketSections,
  }
}

async function distinct(query: { execute(): Promise<{ key: unknown }[]> }): Promise<string[]> {
  return (await query.execute()).flatMap((row) => (row.key === null || row.key === undefined ? [] : [String(row.key)]))
}

/** The keys (as the plan names items) of the reference data records use: what prune must never remove. */
export async function readUsage(db: Kysely<Database>): Promise<OrganisationUsage> {
  const r = () => db.selectFrom('res_letterbox')
  const [
    statuses,
    doctypes,
    destinations,
    initiators,
    typists,
    models,
    priorities,
    customFields,
    tags,
    folders,
    contacts,
    secondLevels,
    attachmentTypes,
  ] = await Promise.all([
    distinct(r().select('status as key').distinct()),
    distinct(r().select('type_id as key').distinct()),
    distinct(r().select('destination as key').distinct()),
    distinct(r().select('initiator as key').distinct()),
    distinct(
      db
        .selectFrom('users')
        .select(sql<string>`lower(user_id)`.as('key'))
        .where((eb) =>
          eb.or([
            eb('id', 'in', r().select('typist')),
            eb(
              'id',
              'in',
              r().select('dest_user').where('dest_user', 'is not', null).$narrowType<{ dest_user: number }>(),
            ),
            eb('id', 'in', db.selectFrom('listinstance').select('item_id').where('item_type', '=', 'user_id')),
            eb('id', 'in', db.selectFrom('users_followed_resources').select('user_id')),
          ]),
        ),
    ),
    distinct(r().select('model_id as key').distinct()),
    distinct(r().select('priority as key').distinct()),
    distinct(
      db
        .selectFrom(
          sql<{ key: string }>`(select distinct jsonb_object_keys(custom_fields) as key from res_letterbox)`.as('k'),
        )
        .select('k.key'),
    ),
    distinct(db.selectFrom('resources_tags').select('tag_id as key').distinct()),
    distinct(db.selectFrom('resources_folders').select('folder_id as key').distinct()),
    distinct(db.selectFrom('resource_contacts').select('item_id as key').where('type', '=', 'contact').distinct()),
    distinct(
      db
        .selectFrom('doctypes')
        .select('doctypes_second_level_id as key')
        .where(
          'type_id',
          'in',
          r().select('type_id').where('type_id', 'is not', null).$narrowType<{ type_id: number }>(),
        )
        .distinct(),
    ),
    distinct(db.selectFrom('res_attachments').select('attachment_type as key').distinct()),
  ])
  const firstLevels = await distinct(
    db
      .selectFrom('doctypes_second_level')
      .select('doctypes_first_level_id as key')
      .where('doctypes_second_level_id', 'in', secondLevels.length ? secondLevels.map(Number) : [-1])
      .distinct(),
  )
  return {
    statuses,
    doctypes,
    entities: [...new Set([...destinations, ...initiators])],
    users: typists,
    indexingModels: models,
    priorities,
    customFields,
    tags,
    folders,
    contacts,
    doctypeSecondLevels: secondLevels,
    doctypeFirstLevels: firstLevels,
    attachmentTypes,
  }
}

/** What apply compares a document with: the organisation (password hashes included) and what records use. */
export async function readOrganisationState(db: Kysely<Database>): Promise<OrganisationState> {
  const [organisation, inUse] = await Promise.all([readOrganisation(db, { withPasswordHashes: true }), readUsage(db)])
  return { organisation, inUse }
}
