import type { OrganisationDocumentInput } from '@mailroom/core'
import { checkPerimeterClause, INDEXING_CATEGORIES, INDEXING_KEYWORDS } from '@mailroom/core/internal'
import { mapListTemplates } from './map-list-templates.js'

type Row = Record<string, unknown>

/** The Maarch tables the organisation is read from, as rows. */
export interface MaarchOrganisationRows {
  readonly entities: readonly Row[]
  readonly usergroups: readonly Row[]
  /** The privileges (services) of the groups. */
  readonly usergroupsServices: readonly Row[]
  readonly security: readonly Row[]
  readonly users: readonly Row[]
  readonly usersEntities: readonly Row[]
  readonly usergroupContent: readonly Row[]
  readonly status: readonly Row[]
  readonly doctypesFirstLevel: readonly Row[]
  readonly doctypesSecondLevel: readonly Row[]
  readonly doctypes: readonly Row[]
  readonly indexingModels: readonly Row[]
  readonly indexingModelsFields: readonly Row[]
  readonly priorities: readonly Row[]
  readonly customFields: readonly Row[]
  readonly tags: readonly Row[]
  readonly folders: readonly Row[]
  readonly entitiesFolders: readonly Row[]
  readonly contacts: readonly Row[]
  /** The installation's parameters (workingDays, the chrono counters, …). */
  readonly parameters: readonly Row[]
  /** The diffusion list templates and circuits, and their members. */
  readonly listTemplates: readonly Row[]
  readonly listTemplatesItems: readonly Row[]
}

/** Something of the organisation Mailroom could not carry over as it was, and what was done instead. */
export interface OrganisationNote {
  readonly section: string
  readonly id: string
  readonly message: string
}

const str = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
const nonEmpty = (value: unknown): string | null => {
  const s = str(value)?.trim()
  return s === undefined || s === '' ? null : s
}
const yes = (value: unknown) => value === 'Y' || value === true
const num = (value: unknown): number => Number(value)
const json = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value)
const USER_MODES = new Set(['standard', 'rest', 'root_visible', 'root_invisible'])

/**
 * What the users of a group whose clause is lost will see: those with another group whose clause is kept
 * see that group's records only; the others see none (root users see every record whatever their groups).
 */
function lostPerimeterUsers(
  groupSerial: number,
  rows: MaarchOrganisationRows,
  clauses: ReadonlyMap<number, { readonly clause: string | null; readonly problem: string | null }>,
): string {
  const members = rows.usergroupContent.filter((c) => num(c.group_id) === groupSerial).map((c) => num(c.user_id))
  const users = rows.users.filter((u) => members.includes(num(u.id)))
  if (users.length === 0) return '; it has no users'
  const root = (u: Row) => String(u.mode ?? '').startsWith('root')
  const keeps = (u: Row) =>
    rows.usergroupContent.some((c) => {
      const other = clauses.get(num(c.group_id))
      return (
        num(c.user_id) === num(u.id) &&
        num(c.group_id) !== groupSerial &&
        other?.clause != null &&
        other.problem === null
      )
    })
  const list = (found: readonly Row[]) => found.map((u) => String(u.user_id)).join(', ')
  const parts = [
    [users.filter((u) => !root(u) && keeps(u)), 'now sees', 'now see', 'only the records of their other groups'],
    [users.filter((u) => !root(u) && !keeps(u)), 'now sees', 'now see', 'no records at all (no other group gives any)'],
    [users.filter(root), 'is a root user and still sees', 'are root users and still see', 'every record'],
  ] as const
  return `; of its ${users.length === 1 ? 'one user' : `${users.length} users`}, ${parts
    .filter(([found]) => found.length > 0)
    .map(([found, one, many, what]) => `${list(found)} ${found.length === 1 ? one : many} ${what}`)
    .join('; ')}. Fix the clause and apply it with mailroom org apply`
}

/** How the imported users sign in (Maarch 20.10 says it in a file, apps/maarch_entreprise/xml/login_method.xml, not in its database). */
export interface MaarchUserMapping {
  /**
   * The method of the imported users, except web-service (`rest`) and root users, who keep their Maarch
   * password: Maarch checks a `rest` user's password itself whatever its method, and the root user is the
   * account that still works while the directory is down. `standard` by default.
   */
  readonly authentication?: 'standard' | 'ldap' | 'oidc'
}

/** The imported user's method: the installation's, except for web-service and root users. */
function authenticationOf(mode: string, mapping: MaarchUserMapping): 'standard' | 'ldap' | 'oidc' {
  return mode === 'standard' ? (mapping.authentication ?? 'standard') : 'standard'
}

/**
 * Maps a Maarch 20.10 organisation to Mailroom's organisation document, keeping every identifier (entity
 * serial ids and codes, logins and user ids, doctype, model, status, priority, custom field, tag, folder and
 * contact ids). A security clause Mailroom cannot parse leaves its group without a perimeter (no records)
 * and is noted: a group never sees more than it did in Maarch.
 */
export function mapOrganisation(
  rows: MaarchOrganisationRows,
  userMapping: MaarchUserMapping = {},
): {
  document: OrganisationDocumentInput
  notes: OrganisationNote[]
} {
  const notes: OrganisationNote[] = []
  const entityCode = new Map(rows.entities.map((e) => [num(e.id), String(e.entity_id)]))
  const login = new Map(rows.users.map((u) => [num(u.id), String(u.user_id)]))
  const groupCode = new Map(rows.usergroups.map((g) => [num(g.id), String(g.group_id)]))

  const entities = rows.entities.map((e) => {
    const label = nonEmpty(e.entity_label) ?? String(e.entity_id)
    return {
      id: String(e.entity_id),
      serialId: num(e.id),
      label,
      shortLabel: (nonEmpty(e.short_label) ?? label).slice(0, 50),
      fullName: nonEmpty(e.entity_full_name),
      type: nonEmpty(e.entity_type) ?? 'Service',
      parent: nonEmpty(e.parent_entity_id),
      businessId: nonEmpty(e.business_id),
      enabled: yes(e.enabled),
      email: nonEmpty(e.email),
      address: {
        line1: nonEmpty(e.adrs_1),
        line2: nonEmpty(e.adrs_2),
        line3: nonEmpty(e.adrs_3),
        zipcode: nonEmpty(e.zipcode),
        city: nonEmpty(e.city),
        country: nonEmpty(e.country),
      },
      ldapId: nonEmpty(e.ldap_id),
      producerService: nonEmpty(e.producer_service),
      externalId: (json(e.external_id) as Record<string, unknown> | null) ?? {},
    }
  })

  // Each group's records clause and what Mailroom makes of it (null: understood), before any group is mapped:
  // a note on a group whose clause is lost says which of its users still see records through another group.
  const clauses = new Map(
    rows.usergroups.map((g) => {
      const security = rows.security.find(
        (s) => s.group_id === String(g.group_id) && (s.coll_id ?? 'letterbox_coll') === 'letterbox_coll',
      )
      const clause = security === undefined ? null : String(security.where_clause ?? '')
      return [num(g.id), { clause, problem: clause === null ? null : checkPerimeterClause(clause) }] as const
    }),
  )
  const groups = rows.usergroups.map((g) => {
    const id = String(g.group_id)
    const security = rows.security.find(
      (s) => s.group_id === id && (s.coll_id ?? 'letterbox_coll') === 'letterbox_coll',
    )
    let perimeter: string | null = null
    const { clause, problem } = clauses.get(num(g.id)) ?? { clause: null, problem: null }
    if (clause !== null) {
      if (problem === null) perimeter = clause
      else
        notes.push({
          section: 'groups',
          id,
          message: `security clause ${JSON.stringify(clause)} not understood (${problem}): the group gets no records${lostPerimeterUsers(num(g.id), rows, clauses)}`,
        })
    }
    const parameters = (json(g.indexation_parameters) ?? {}) as { entities?: unknown[]; keywords?: unknown[] }
    const indexingEntities: string[] = []
    for (const value of parameters.entities ?? []) {
      const code =
        entityCode.get(Number(value)) ?? (rows.entities.some((e) => e.entity_id === value) ? String(value) : undefined)
      if (code === undefined)
        notes.push({
          section: 'groups',
          id,
          message: `indexing entity ${JSON.stringify(value)} does not exist: left out`,
        })
      else indexingEntities.push(code)
    }
    const keywords = (parameters.keywords ?? []).filter((k): k is (typeof INDEXING_KEYWORDS)[number] => {
      const known = (INDEXING_KEYWORDS as readonly unknown[]).includes(k)
      if (!known)
        notes.push({ section: 'groups', id, message: `indexing keyword ${JSON.stringify(k)} unknown: left out` })
      return known
    })
    return {
      id,
      serialId: num(g.id),
      label: nonEmpty(g.group_desc) ?? id,
      perimeter,
      perimeterComment: perimeter === null ? null : nonEmpty(security?.maarch_comment),
      canIndex: g.can_index === true,
      indexing: { entities: [...new Set(indexingEntities)], keywords: [...new Set(keywords)] },
      privileges: groupPrivileges(id, rows.usergroupsServices, notes),
    }
  })

  const users = rows.users.map((u) => {
    const id = num(u.id)
    const mode = String(u.mode ?? 'standard')
    if (!USER_MODES.has(mode))
      notes.push({ section: 'users', id: String(u.user_id), message: `mode ${mode} unknown: standard` })
    const password = nonEmpty(u.password)
    return {
      login: String(u.user_id),
      id,
      firstname: nonEmpty(u.firstname),
      lastname: nonEmpty(u.lastname),
      mail: nonEmpty(u.mail),
      mode: (USER_MODES.has(mode) ? mode : 'standard') as 'standard',
      enabled: u.status === 'OK' || u.status === 'ABS',
      authentication: authenticationOf(USER_MODES.has(mode) ? mode : 'standard', userMapping),
      groups: rows.usergroupContent
        .filter((c) => num(c.user_id) === id)
        .flatMap((c) => groupCode.get(num(c.group_id)) ?? []),
      entities: rows.usersEntities
        .filter((m) => num(m.user_id) === id)
        .map((m) => ({ id: String(m.entity_id), primary: yes(m.primary_entity), role: nonEmpty(m.user_role) })),
      ...(password === null ? {} : { passwordHash: password }),
    }
  })

  const categories = new Set<string>(INDEXING_CATEGORIES)
  const indexingModels = rows.indexingModels.flatMap((m) => {
    if (!categories.has(String(m.category))) {
      notes.push({
        section: 'indexingModels',
        id: String(m.id),
        message: `category ${String(m.category)} unknown: model left out`,
      })
      return []
    }
    return [
      {
        id: num(m.id),
        label: String(m.label),
        category: m.category as (typeof INDEXING_CATEGORIES)[number],
        default: m.default === true,
        owner: login.get(num(m.owner)) ?? null,
        private: m.private === true,
        master: m.master === null || m.master === undefined ? null : num(m.master),
        enabled: m.enabled !== false,
        mandatoryFile: m.mandatory_file === true,
        fields: rows.indexingModelsFields
          .filter((f) => num(f.model_id) === num(m.id))
          .sort((a, b) => num(a.id) - num(b.id))
          .map((f) => ({
            identifier: String(f.identifier),
            mandatory: f.mandatory === true,
            enabled: f.enabled !== false,
            ...(f.default_value === null || f.default_value === undefined ? {} : { defaultValue: f.default_value }),
            unit: nonEmpty(f.unit),
          })),
      },
    ]
  })

  const document: OrganisationDocumentInput = {
    version: 1,
    entities,
    groups,
    users,
    statuses: rows.status.map((s) => ({
      id: String(s.id),
      label: String(s.label_status),
      system: yes(s.is_system),
      image: nonEmpty(s.img_filename),
      searchable: yes(s.can_be_searched),
      modifiable: yes(s.can_be_modified),
    })),
    doctypeFirstLevels: rows.doctypesFirstLevel.map((l) => ({
      id: num(l.doctypes_first_level_id),
      label: String(l.doctypes_first_level_label),
      color: nonEmpty(l.css_style),
      enabled: yes(l.enabled),
    })),
    doctypeSecondLevels: rows.doctypesSecondLevel.map((l) => ({
      id: num(l.doctypes_second_level_id),
      label: String(l.doctypes_second_level_label),
      firstLevel: num(l.doctypes_first_level_id),
      color: nonEmpty(l.css_style),
      enabled: yes(l.enabled),
    })),
    doctypes: rows.doctypes.map((d) => ({
      id: num(d.type_id),
      label: String(d.description),
      secondLevel: num(d.doctypes_second_level_id),
      processDelay: num(d.process_delay ?? 21),
      processMode: nonEmpty(d.process_mode) ?? 'NORMAL',
      enabled: yes(d.enabled),
    })),
    indexingModels,
    priorities: rows.priorities.map((p) => ({
      id: String(p.id),
      label: String(p.label),
      color: nonEmpty(p.color) ?? '#009dc5',
      workingDays: p.working_days === true,
      delays: p.delays === null || p.delays === undefined ? null : num(p.delays),
      order: p.order === null || p.order === undefined ? null : num(p.order),
    })),
    customFields: rows.customFields.map((f) => ({
      id: num(f.id),
      label: String(f.label),
      type: String(f.type) as 'string',
      mode: (f.mode === 'technical' ? 'technical' : 'form') as 'form',
      values: (json(f.values) as unknown[] | null) ?? [],
    })),
    tags: rows.tags.map((t) => ({ id: num(t.id), label: String(t.label) })),
    folders: rows.folders.flatMap((f) => {
      const owner = login.get(num(f.user_id))
      if (owner === undefined) {
        notes.push({
          section: 'folders',
          id: String(f.id),
          message: `owner ${String(f.user_id)} does not exist: folder left out`,
        })
        return []
      }
      return [
        {
          id: num(f.id),
          label: String(f.label),
          public: f.public === true,
          owner,
          parent: f.parent_id === null || f.parent_id === undefined ? null : num(f.parent_id),
          sharing: rows.entitiesFolders
            .filter((s) => num(s.folder_id) === num(f.id))
            .flatMap((s) => {
              const entity = nonEmpty(s.keyword) ?? entityCode.get(num(s.entity_id))
              return entity === undefined ? [] : [{ entity, edition: s.edition === true }]
            }),
        },
      ]
    }),
    contacts: rows.contacts.map((c) => mapContact(c, login, notes)),
    parameters: mapParameters(rows.parameters, notes),
    listTemplates: mapListTemplates(rows.listTemplates, rows.listTemplatesItems, { entityCode, login }, notes),
  }
  return { document, notes }
}

/** A parameter id the organisation document can hold (Maarch's own rule for new ones). */
const PARAMETER_ID = /^[\w-]{1,255}$/

/** A timestamp as node-postgres reads one without zone (a local Date), or as text, printed as Maarch prints it. */
function timestampText(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) {
    const two = (n: number) => String(n).padStart(2, '0')
    return `${value.getFullYear()}-${two(value.getMonth() + 1)}-${two(value.getDate())} ${two(value.getHours())}:${two(value.getMinutes())}:${two(value.getSeconds())}`
  }
  return String(value).replace('T', ' ').slice(0, 19)
}

/** The parameters, each as it was; one whose id the document cannot hold is left out with a note. */
function mapParameters(rows: readonly Row[], notes: OrganisationNote[]) {
  return rows.flatMap((p) => {
    const id = String(p.id)
    if (!PARAMETER_ID.test(id)) {
      notes.push({ section: 'parameters', id, message: 'id not storable (letters, digits, "_" and "-"): left out' })
      return []
    }
    return [
      {
        id,
        description: str(p.description),
        stringValue: str(p.param_value_string),
        integerValue: p.param_value_int === null || p.param_value_int === undefined ? null : num(p.param_value_int),
        dateValue: timestampText(p.param_value_date),
      },
    ]
  })
}

/** A service id the organisation document can hold (its `code` rule). */
const SERVICE_ID = /^[A-Za-z0-9_.-]{1,64}$/

/** The service ids of a group's `usergroups_services` rows, each once; one not storable is left out with a note. */
function groupPrivileges(groupId: string, services: readonly Row[], notes: OrganisationNote[]): string[] {
  const privileges = new Set<string>()
  for (const row of services) {
    if (row.group_id !== groupId) continue
    const service = String(row.service_id ?? '')
    if (SERVICE_ID.test(service)) privileges.add(service)
    else
      notes.push({
        section: 'groups',
        id: groupId,
        message: `privilege ${JSON.stringify(service)} not storable: left out`,
      })
  }
  return [...privileges]
}

/** A JSON column of a contact as an object; anything else (a scalar, an array, unreadable text) as `fallback`. */
function jsonObjectOf<F>(value: unknown, fallback: F): Record<string, unknown> | F {
  let parsed: unknown
  try {
    parsed = json(value)
  } catch {
    return fallback
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : fallback
}

/** A moment of the source (timestamp without time zone, read in the importer's zone) as ISO 8601. */
function momentOf(value: unknown): string | null {
  if (value === null || value === undefined || value === '') return null
  const date = value instanceof Date ? value : new Date(String(value))
  return Number.isNaN(date.getTime()) ? null : date.toISOString()
}

/** The most characters of a contact's notes the document holds (20.10's column is unbounded text). */
const CONTACT_NOTES_MAX = 65536

/**
 * A 20.10 contact with every field: text as stored ("" stays ""), the creator by login (a user that no longer
 * exists leaves it empty), the JSON columns as objects.
 */
function mapContact(c: Row, login: ReadonlyMap<number, string>, notes: OrganisationNote[]) {
  const id = num(c.id)
  let contactNotes = str(c.notes)
  if (contactNotes !== null && [...contactNotes].length > CONTACT_NOTES_MAX) {
    contactNotes = [...contactNotes].slice(0, CONTACT_NOTES_MAX).join('')
    notes.push({
      section: 'contacts',
      id: String(id),
      message: `notes longer than ${CONTACT_NOTES_MAX} characters: cut`,
    })
  }
  const creator = c.creator === null || c.creator === undefined ? null : (login.get(num(c.creator)) ?? null)
  const creationDate = momentOf(c.creation_date)
  return {
    id,
    civility: str(c.civility),
    firstname: str(c.firstname),
    lastname: str(c.lastname),
    company: str(c.company),
    department: str(c.department),
    function: str(c.function),
    addressNumber: str(c.address_number),
    addressStreet: str(c.address_street),
    addressAdditional1: str(c.address_additional1),
    addressAdditional2: str(c.address_additional2),
    addressPostcode: str(c.address_postcode),
    addressTown: str(c.address_town),
    addressCountry: str(c.address_country),
    email: str(c.email),
    phone: str(c.phone),
    communicationMeans: jsonObjectOf(c.communication_means, null),
    notes: contactNotes,
    creator,
    ...(creationDate === null ? {} : { creationDate }),
    modificationDate: momentOf(c.modification_date),
    enabled: c.enabled !== false,
    customFields: jsonObjectOf(c.custom_fields, null),
    externalId: jsonObjectOf(c.external_id, {}),
  }
}
