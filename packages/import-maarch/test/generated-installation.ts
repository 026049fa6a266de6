import { createHash } from 'node:crypto'
import { serializePdf } from '../../testing/src/fixtures/files/index.js'

type Row = Record<string, unknown>

/**
 * A Maarch Courrier 20.10 installation made up for Mailroom's tests: the town hall of Valmont, its services,
 * staff, reference data and a year of mail, generated from a seed (the same seed gives the same rows and
 * bytes). It has what a Maarch in use has and the publisher's sample lacks or has only once: fingerprints
 * right, '0' and wrong to be, shared files, a converted PDF missing on disk, records with tags, folders,
 * custom field values, links, notes and attachments (kept and deleted), history rows, diffusion lists
 * naming users and entities, a typist deleted in Maarch and one it no longer has at all, chrono numbers of
 * this year above and below their counters, a group whose clause Mailroom cannot parse.
 */
export interface GeneratedInstallation {
  /** The `database_version` parameter. */
  readonly version: string
  /** Rows by table, in the order they are loaded. */
  readonly tables: Readonly<Record<string, readonly Row[]>>
  /** Files under the folder standing for /opt/maarch/docservers/, by relative path. */
  readonly files: ReadonlyMap<string, Uint8Array>
  readonly facts: InstallationFacts
}

/** What the tests need to know of the generated installation without reading it back. */
export interface InstallationFacts {
  /** Every user's password (bcrypt, cost 4, as Maarch stores them: `$2y$`). */
  readonly password: string
  readonly records: number
  /** Sees every record (group ADMIN, clause 1=1); Maarch's root user, the default fallback depositor. */
  readonly superadmin: string
  /** Mail clerk: group COURRIER (1=1, may index), a standard user. */
  readonly clerk: string
  /** A town councillor: group ELU (clause 1=0) and entity ELUS; sees only what diffusion lists give. */
  readonly councillor: string
  /** Records whose diffusion list names the councillor, and the ELUS entity. */
  readonly councillorRecords: readonly number[]
  /** The archivist's only group has a clause Mailroom cannot parse. */
  readonly archivist: string
  readonly archivesClause: string
  /** A web-service user (mode rest), as a capture tool logs in. */
  readonly capture: string
  /** Agents of group AGENT (clause: their entities and those below their primary one). */
  readonly agents: readonly string[]
  /** Record typed by a user deleted in Maarch (users.status DEL, id `deletedUserId`). */
  readonly deletedTypistRecord: number
  readonly deletedUserId: number
  /** Record typed by a user id Maarch no longer has. */
  readonly unknownTypistRecord: number
  readonly unknownTypistId: number
  /** Record registered without a file. */
  readonly recordWithoutFile: number
  /** Record whose converted PDF (adr_letterbox) is not on disk. */
  readonly missingConvertedRecord: number
  /** Records sharing one original file. */
  readonly sharedFileRecords: readonly [number, number]
  /** Records whose fingerprint is '0' (computed at the import); the others' match their files. */
  readonly computedFingerprintRecords: readonly number[]
  /** Records the report lists as repaired: fingerprints computed, the converted PDF missing, typists replaced. */
  readonly repairedRecords: readonly number[]
  /** Attachments not deleted, by master record: what the report lists as not imported. */
  readonly attachmentsListed: number
  readonly notes: number
  /** The year of the latest records and of the chrono counters moved past the numbers given. */
  readonly year: number
  /** Expected counters after the import: incoming above its numbers, outgoing below its highest number. */
  readonly chronoIncoming: number
  readonly chronoOutgoing: number
  /** Ids for a capture tool's new record: an incoming model, a doctype, an entity, a priority, contacts… */
  readonly create: {
    readonly incomingModel: number
    readonly outgoingModel: number
    readonly doctype: number
    readonly destination: number
    readonly priority: string
    readonly contact: number
    readonly tags: readonly number[]
    readonly folder: number
    readonly status: string
  }
}

/** bcrypt of `valmont` at cost 4 (fast for tests), as Maarch writes them (`$2y$`). */
const PASSWORD = 'valmont'
const PASSWORD_HASH = '$2y$04$Mailroom.generated.sauuOXXVQeqEfVpI9hsyugmB2qD00/KNLW'

/** A small PRNG (mulberry32): the same seed, the same installation. */
function random(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (below: number) => Math.floor(next() * below)
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T
  const hex = (length: number) => Array.from({ length }, () => '0123456789ABCDEF'[int(16)]).join('')
  return { next, int, pick, hex }
}

/** A one-page PDF whose text is `text` (ASCII): what the docservers hold. */
function letterPdf(text: string): Uint8Array {
  const safe = text.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, ' ')
  const stream = `BT /F1 14 Tf 72 770 Td (${safe}) Tj ET`
  const objects = [
    '',
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ]
  return new TextEncoder().encode(serializePdf(objects))
}

const FIRSTNAMES = ['Claire', 'Julien', 'Sophie', 'Mehdi', 'Anne', 'Thomas', 'Léa', 'Karim', 'Nadia', 'Paul', 'Inès']
const LASTNAMES = ['Morel', 'Fabre', 'Girard', 'Bonnet', 'Lambert', 'Fontaine', 'Chevalier', 'Roux', 'Blanc', 'Garnier']
const COMPANIES = ['Entreprise Routière du Val', 'Cabinet Notarial Lenoir', 'Association Les Tilleuls', 'SARL Élec Pro']
const SUBJECTS = [
  "Demande d'acte de naissance",
  'Nid-de-poule rue des Écoles',
  'Demande de permis de construire',
  'Invitation à la fête du quartier',
  'Facture de fournitures',
  "Demande d'aide au logement",
  'Réclamation éclairage public',
  'Demande de salle municipale',
]

/** Generates the installation; `records` letters (at least 14) over last year and the first days of `year`. */
export function generateInstallation(
  options: { seed?: number; records?: number; year?: number } = {},
): GeneratedInstallation {
  const rnd = random(options.seed ?? 2010)
  const total = Math.max(14, options.records ?? 24)
  const year = options.year ?? new Date().getFullYear()
  const files = new Map<string, Uint8Array>()

  const docserverTypes = [
    { docserver_type_id: 'DOC', docserver_type_label: 'Documents', fingerprint_mode: 'SHA512' },
    { docserver_type_id: 'CONVERT', docserver_type_label: 'Conversions', fingerprint_mode: 'SHA256' },
    { docserver_type_id: 'TNL', docserver_type_label: 'Miniatures', fingerprint_mode: 'NONE' },
  ]
  const docservers = [
    ['FASTHD_MAN', 'DOC', 'resources', 'letterbox_coll'],
    ['CONVERT_MLB', 'CONVERT', 'convert_resources', 'letterbox_coll'],
    ['TNL_MLB', 'TNL', 'thumbnails_resources', 'letterbox_coll'],
    ['FASTHD_ATTACH', 'DOC', 'attachments', 'attachments_coll'],
  ].map(([docserver_id, docserver_type_id, folder, coll_id], i) => ({
    id: i + 1,
    docserver_id,
    docserver_type_id,
    device_label: folder,
    path_template: `/opt/maarch/docservers/${folder}/`,
    coll_id,
  }))

  // Entities: serial ids from 11, so that nothing mistakes a row's position for its id.
  const entityList: [string, string, string, string | null][] = [
    ['MAIRIE', 'Mairie de Valmont', 'Direction', null],
    ['DGS', 'Direction générale des services', 'Direction', 'MAIRIE'],
    ['COURRIER', 'Service courrier', 'Service', 'DGS'],
    ['TECH', 'Services techniques', 'Direction', 'DGS'],
    ['VOIRIE', 'Voirie', 'Service', 'TECH'],
    ['URBA', 'Urbanisme', 'Service', 'TECH'],
    ['SOCIAL', 'Action sociale', 'Direction', 'DGS'],
    ['ETATCIVIL', 'État civil', 'Service', 'SOCIAL'],
    ['ELUS', 'Cabinet des élus', 'Bureau', 'MAIRIE'],
    ['ANCIEN', 'Ancien service des eaux', 'Service', 'TECH'],
  ]
  const entities = entityList.map(([entity_id, label, type, parent], i) => ({
    id: 11 + i,
    entity_id,
    entity_label: label,
    short_label: entity_id === 'MAIRIE' ? 'Mairie' : label.slice(0, 30),
    entity_full_name: entity_id === 'MAIRIE' ? 'Mairie de Valmont, Hôtel de ville' : null,
    enabled: entity_id === 'ANCIEN' ? 'N' : 'Y',
    adrs_1: entity_id === 'MAIRIE' ? '1 place de la Mairie' : null,
    zipcode: entity_id === 'MAIRIE' ? '73100' : null,
    city: entity_id === 'MAIRIE' ? 'Valmont' : null,
    country: entity_id === 'MAIRIE' ? 'France' : null,
    email: `${entity_id.toLowerCase()}@valmont.example`,
    business_id: entity_id === 'MAIRIE' ? '21730001800017' : null,
    parent_entity_id: parent,
    entity_type: type,
    external_id: {},
  }))
  const serialOf = (code: string) => entities.find((e) => e.entity_id === code)!.id
  const services = ['COURRIER', 'VOIRIE', 'URBA', 'ETATCIVIL', 'SOCIAL', 'TECH']

  const archivesClause = 'destination in (@my_entities) or exists (select 1 from users)'
  const groupList: [string, string, string, boolean, Row][] = [
    ['ADMIN', 'Administrateurs', '1=1', false, { actions: [], entities: [], keywords: [] }],
    [
      'COURRIER',
      'Opérateurs courrier',
      '1=1',
      true,
      { actions: [], entities: [String(serialOf('COURRIER'))], keywords: ['ALL_ENTITIES'] },
    ],
    [
      'AGENT',
      'Agents des services',
      'destination in (@my_entities, @subentities[@my_primary_entity])',
      true,
      { actions: [], entities: [], keywords: ['MY_ENTITIES'] },
    ],
    ['ELU', 'Élus', '1=0', false, { actions: [], entities: [], keywords: [] }],
    ['ARCHIVES', 'Archivistes', archivesClause, false, { actions: [], entities: [], keywords: [] }],
    ['WEBSERVICE', 'Outils de capture', '1=1', true, { actions: [], entities: [], keywords: ['ALL_ENTITIES'] }],
  ]
  const usergroups = groupList.map(([group_id, group_desc, , can_index, indexation_parameters], i) => ({
    id: i + 1,
    group_id,
    group_desc,
    can_index,
    indexation_parameters,
  }))
  const security = groupList.map(([group_id, , where_clause], i) => ({
    security_id: i + 1,
    group_id,
    coll_id: 'letterbox_coll',
    where_clause,
    maarch_comment: `Périmètre ${group_id}`,
  }))
  const groupId = (code: string) => usergroups.find((g) => g.group_id === code)!.id
  // What a capture deployment gives its web-service group, and the clerks' usual services.
  const servicesOf: Record<string, string[]> = {
    WEBSERVICE: [
      'add_links',
      'admin_parameters',
      'admin_users',
      'create_contacts',
      'manage_attachments',
      'update_contacts',
    ],
    AGENT: ['add_links', 'adv_search_mlb', 'create_contacts', 'update_contacts', 'view_doc_history'],
    COURRIER: ['add_links', 'create_contacts', 'manage_attachments'],
  }
  const usergroupsServices = Object.entries(servicesOf).flatMap(([group_id, services]) =>
    services.map((service_id) => ({ group_id, service_id })),
  )

  const users: Row[] = []
  const usersEntities: Row[] = []
  const usergroupContent: Row[] = []
  const addUser = (
    id: number,
    login: string,
    names: [string, string],
    groups: string[],
    memberships: string[],
    extra: Row = {},
  ) => {
    users.push({
      id,
      user_id: login,
      password: PASSWORD_HASH,
      firstname: names[0],
      lastname: names[1],
      mail: `${login}@valmont.example`,
      status: 'OK',
      mode: 'standard',
      ...extra,
    })
    for (const group of groups) usergroupContent.push({ user_id: id, group_id: groupId(group), role: null })
    for (const [i, entity] of memberships.entries())
      usersEntities.push({
        user_id: id,
        entity_id: entity,
        user_role: i === 0 ? 'Agent' : null,
        primary_entity: i === 0 ? 'Y' : 'N',
      })
  }
  addUser(1, 'superadmin', ['Super', 'ADMIN'], ['ADMIN'], ['MAIRIE'], { mode: 'root_invisible' })
  addUser(2, 'cmorel', ['Claire', 'MOREL'], ['COURRIER'], ['COURRIER'])
  addUser(3, 'pgarnier', ['Paul', 'GARNIER'], ['ELU'], ['ELUS'])
  addUser(4, 'archives', ['Inès', 'ROUX'], ['ARCHIVES'], ['DGS'])
  addUser(5, 'capture', ['Outil', 'CAPTURE'], ['WEBSERVICE'], ['COURRIER'], { mode: 'rest' })
  const agents: string[] = []
  for (let i = 0; i < 7; i++) {
    const first = rnd.pick(FIRSTNAMES)
    const last = LASTNAMES[i % LASTNAMES.length]!
    const login = `${first[0]!.toLowerCase()}${last.toLowerCase()}${i}`
    const primary = services[(i + 1) % services.length]!
    const second = i % 3 === 0 ? [services[(i + 3) % services.length]!] : []
    addUser(10 + i, login, [first, last.toUpperCase()], ['AGENT'], [primary, ...second.filter((s) => s !== primary)])
    agents.push(login)
  }
  // One agent suspended (imported disabled), one deleted (not imported): both typed records once.
  addUser(30, 'suspendu', ['Karim', 'FABRE'], ['AGENT'], ['VOIRIE'], { status: 'SPD' })
  addUser(40, 'ancien', ['Anne', 'BLANC'], ['AGENT'], ['ANCIEN'], { status: 'DEL' })
  const activeIds = users.filter((u) => u.status === 'OK').map((u) => Number(u.id))
  const staff = activeIds.filter((id) => id >= 10)
  const entitiesOf = (userId: number) =>
    usersEntities.filter((m) => m.user_id === userId).map((m) => String(m.entity_id))

  const status = [
    ['NEW', 'Nouveau courrier'],
    ['INIT', 'À qualifier'],
    ['COU', 'En cours'],
    ['ATT', 'En attente de réponse'],
    ['VAL', 'Validé'],
    ['END', 'Clos'],
    ['DEL', 'Supprimé'],
  ].map(([id, label_status], i) => ({
    identifier: i + 1,
    id,
    label_status,
    is_system: id === 'NEW' || id === 'DEL' ? 'Y' : 'N',
    img_filename: `fm-letter-status-${id!.toLowerCase()}`,
    can_be_searched: id === 'DEL' ? 'N' : 'Y',
    can_be_modified: id === 'END' ? 'N' : 'Y',
  }))
  const doctypesFirstLevel = [
    { doctypes_first_level_id: 1, doctypes_first_level_label: 'Courriers', css_style: '#1a6b8a', enabled: 'Y' },
  ]
  const doctypesSecondLevel = [
    [10, 'Demandes'],
    [11, 'Réclamations'],
    [12, 'Informations'],
  ].map(([id, label]) => ({
    doctypes_second_level_id: id,
    doctypes_second_level_label: label,
    doctypes_first_level_id: 1,
    css_style: null,
    enabled: 'Y',
  }))
  const doctypeList: [number, string, number, number][] = [
    [201, "Demande d'acte d'état civil", 10, 15],
    [202, 'Demande de travaux', 10, 30],
    [203, 'Réclamation voirie', 11, 10],
    [204, 'Invitation', 12, 21],
    [205, 'Facture', 12, 30],
    [206, 'Courrier divers', 12, 21],
    [207, 'Ancien type', 12, 21],
  ]
  const doctypes = doctypeList.map(([type_id, description, second, delay]) => ({
    coll_id: 'letterbox_coll',
    type_id,
    description,
    enabled: type_id === 207 ? 'N' : 'Y',
    doctypes_first_level_id: 1,
    doctypes_second_level_id: second,
    process_delay: delay,
    delay1: 14,
    delay2: 1,
    process_mode: type_id === 203 ? 'SVR' : 'NORMAL',
  }))
  const models: [number, string, string][] = [
    [1, 'Courrier arrivée', 'incoming'],
    [2, 'Courrier départ', 'outgoing'],
    [3, 'Note interne', 'internal'],
  ]
  const indexingModels = models.map(([id, label, category]) => ({
    id,
    label,
    category,
    default: id === 1,
    owner: 1,
    private: false,
    master: null,
    enabled: true,
    mandatory_file: false,
  }))
  const indexingModelsFields: Row[] = []
  for (const [id, , category] of models) {
    const fields: [string, boolean, string, unknown][] = [
      ['doctype', true, 'mail', null],
      ['subject', true, 'mail', null],
      ['priority', false, 'mail', 'prio_normale'],
      ['destination', false, 'process', null],
      ['documentDate', false, 'mail', null],
      [category === 'outgoing' ? 'departureDate' : 'arrivalDate', false, 'mail', null],
      [category === 'outgoing' ? 'recipients' : 'senders', false, 'contact', null],
      ['processLimitDate', false, 'process', null],
      ['indexingCustomField_1', false, 'classement', null],
    ]
    for (const [identifier, mandatory, unit, default_value] of fields)
      indexingModelsFields.push({
        id: indexingModelsFields.length + 1,
        model_id: id,
        identifier,
        mandatory,
        enabled: true,
        default_value: default_value === null ? null : JSON.stringify(default_value),
        unit,
      })
  }
  const priorities = [
    ['prio_normale', 'Normale', '#009dc5', 30, 1],
    ['prio_urgente', 'Urgente', '#ffa500', 8, 2],
    ['prio_critique', 'Très urgente', '#c51e00', 4, 3],
  ].map(([id, label, color, delays, order]) => ({
    id,
    label,
    color,
    working_days: id !== 'prio_normale',
    delays,
    order,
  }))
  const customFields = [
    { id: 1, label: 'Référence dossier', type: 'string', mode: 'form', values: [] },
    { id: 2, label: 'Canal de réception', type: 'select', mode: 'form', values: ['Courrier', 'Courriel', 'Guichet'] },
    { id: 3, label: "Date d'échéance", type: 'date', mode: 'form', values: [] },
    { id: 4, label: 'Montant', type: 'integer', mode: 'technical', values: [] },
  ]
  const tags = ['Urgent mairie', 'Travaux', 'Budget', 'Élections', 'Jeunesse', 'Sécurité'].map((label, i) => ({
    id: i + 1,
    label,
    description: null,
    parent_id: null,
  }))
  const folders = [
    { id: 1, label: `Travaux ${year}`, public: true, user_id: 2, parent_id: null, level: 0 },
    { id: 2, label: 'Voirie', public: false, user_id: 10, parent_id: 1, level: 1 },
    { id: 3, label: 'Dossiers du cabinet', public: false, user_id: 1, parent_id: null, level: 0 },
    { id: 4, label: 'Mariages', public: false, user_id: 11, parent_id: null, level: 0 },
  ]
  const entitiesFolders = [
    { id: 1, folder_id: 3, entity_id: serialOf('ELUS'), edition: false, keyword: null },
    { id: 2, folder_id: 4, entity_id: null, edition: true, keyword: 'ALL_ENTITIES' },
    { id: 3, folder_id: 2, entity_id: serialOf('VOIRIE'), edition: true, keyword: null },
  ]
  const contacts = Array.from({ length: 12 }, (_, i) => {
    const company = i % 3 === 2 ? COMPANIES[i % COMPANIES.length]! : null
    const first = company ? null : rnd.pick(FIRSTNAMES)
    const last = company ? null : rnd.pick(LASTNAMES).toUpperCase()
    return {
      id: i + 1,
      civility: company ? null : rnd.pick(['M.', 'Mme']),
      firstname: first,
      lastname: last,
      company,
      department: company ? 'Service courrier' : '',
      function: company ? null : rnd.pick(['Gérant', 'Président', '']),
      address_number: String(i + 1),
      address_street: 'rue des Bains',
      address_additional1: i % 2 === 0 ? 'Bâtiment A' : null,
      address_additional2: '',
      address_postcode: '99000',
      address_town: 'Maarch-les-Bains',
      address_country: 'France',
      email: `contact${i + 1}@example.org`,
      phone: `01 02 03 04 ${String(i + 1).padStart(2, '0')}`,
      communication_means: i === 0 ? JSON.stringify({ url: 'https://m2m.example.org' }) : null,
      notes: i === 1 ? 'Client depuis 2015' : null,
      creator: 2,
      creation_date: `${year - 1}-01-02 09:00:00`,
      modification_date: i === 2 ? `${year - 1}-03-04 10:30:00` : null,
      enabled: i !== 11,
      custom_fields: i === 3 ? JSON.stringify({ 1: 'fidèle' }) : '{}',
      external_id: i === 0 ? JSON.stringify({ m2m: '21750001600019/COURRIER' }) : '{}',
    }
  })

  // Records: most last year, the last three this year (their chrono numbers move this year's counters).
  const records: Row[] = []
  const adr: Row[] = []
  const listinstance: Row[] = []
  const resourceContacts: Row[] = []
  const resourcesTags: Row[] = []
  const resourcesFolders: Row[] = []
  const history: Row[] = []
  const attachments: Row[] = []
  const notes: Row[] = []
  const noteEntities: Row[] = []
  const facts = {
    deletedTypistRecord: 9,
    unknownTypistRecord: 10,
    recordWithoutFile: 6,
    missingConvertedRecord: 4,
    sharedFileRecords: [12, 13] as const,
    councillorRecords: [7, 8],
  }
  // This year's outgoing numbers start at 9 while its counter was left at 3 (a counter reset by hand).
  const numbers: Record<string, number> = { [`${year}D`]: 8 }
  const computed: number[] = []
  let chronoIncoming = 0
  let chronoOutgoingGiven = 0
  const pad = (n: number) => String(n).padStart(2, '0')
  for (let resId = 1; resId <= total; resId++) {
    const thisYear = resId > total - 3
    const recordYear = thisYear ? year : year - 1
    const month = thisYear ? 1 : 1 + ((resId * 11) % 12)
    const day = thisYear ? 1 : 1 + ((resId * 7) % 27)
    const at = (hour: number) => `${recordYear}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad((resId * 13) % 60)}:00`
    const category = resId === total - 1 || resId % 5 === 0 ? 'outgoing' : resId % 7 === 0 ? 'internal' : 'incoming'
    const letter = { incoming: 'A', outgoing: 'D', internal: 'I' }[category]!
    const statusId = resId === 3 ? 'INIT' : rnd.pick(['NEW', 'COU', 'ATT', 'VAL', 'END'])
    const chronoKey = `${recordYear}${letter}`
    if (statusId !== 'INIT') numbers[chronoKey] = (numbers[chronoKey] ?? 0) + 1
    const chrono = statusId === 'INIT' ? null : `MAARCH/${chronoKey}/${numbers[chronoKey]}`
    if (thisYear && category === 'incoming') chronoIncoming = numbers[chronoKey]!
    if (thisYear && category === 'outgoing') chronoOutgoingGiven = numbers[chronoKey]!
    const typist =
      resId === facts.deletedTypistRecord ? 40 : resId === facts.unknownTypistRecord ? 999 : rnd.pick(staff)
    const destination = rnd.pick(services)
    const destUser = staff.find((id) => entitiesOf(id)[0] === destination) ?? 2
    const priority = rnd.pick(priorities)
    const subject = `${rnd.pick(SUBJECTS)} (${resId})`
    let docserverId: string | null = null
    let path: string | null = null
    let filename: string | null = null
    let fingerprint: string | null = null
    let filesize: number | null = null
    if (resId !== facts.recordWithoutFile) {
      if (resId === facts.sharedFileRecords[1]) {
        const shared = records[facts.sharedFileRecords[0] - 1]!
        ;({ path, filename, fingerprint, filesize } = shared as {
          path: string
          filename: string
          fingerprint: string
          filesize: number
        })
      } else {
        const bytes = letterPdf(`Valmont, courrier ${resId}: ${subject}`)
        path = `${recordYear}#${pad(month)}#0001#`
        filename = `${rnd.hex(12)}.pdf`
        files.set(`resources/${path.replaceAll('#', '/')}${filename}`, bytes)
        filesize = bytes.length
        fingerprint = resId % 3 === 0 ? '0' : createHash('sha512').update(bytes).digest('hex')
      }
      docserverId = 'FASTHD_MAN'
      if (fingerprint === '0') computed.push(resId)
      if (resId % 2 === 0 || resId === facts.missingConvertedRecord) {
        const converted = letterPdf(`Valmont, courrier ${resId}, converti en PDF`)
        const convertedName = `${rnd.hex(12)}.pdf`
        if (resId !== facts.missingConvertedRecord)
          files.set(`convert_resources/${recordYear}/${pad(month)}/0001/${convertedName}`, converted)
        adr.push({
          res_id: resId,
          type: 'PDF',
          version: 1,
          docserver_id: 'CONVERT_MLB',
          path: `${recordYear}#${pad(month)}#0001#`,
          filename: convertedName,
          fingerprint: createHash('sha256').update(converted).digest('hex'),
        })
      }
      adr.push({
        res_id: resId,
        type: 'TNL',
        version: 1,
        docserver_id: 'TNL_MLB',
        path: `${recordYear}#${pad(month)}#0001#`,
        filename: `${rnd.hex(12)}.png`,
        fingerprint: null,
      })
    }
    const delays = Number(priority.delays)
    records.push({
      res_id: resId,
      subject,
      type_id: doctypeList[resId % 6]![0],
      format: filename ? 'pdf' : null,
      typist,
      creation_date: at(9),
      modification_date: at(16),
      doc_date: at(0),
      docserver_id: docserverId,
      path,
      filename,
      fingerprint,
      filesize,
      status: statusId,
      destination,
      priority: priority.id,
      initiator: rnd.pick(services),
      dest_user: destUser,
      confidentiality: resId % 8 === 0 ? 'Y' : 'N',
      external_id: resId % 4 === 2 ? { captureBatch: `LOT-${recordYear}-${pad(resId)}` } : {},
      departure_date: category === 'outgoing' ? at(11) : null,
      category_id: category,
      alt_identifier: chrono,
      admission_date: category === 'incoming' ? at(8) : null,
      process_limit_date: `${recordYear}-${pad(month)}-${pad(Math.min(28, day + delays))} 23:59:59`,
      closing_date: statusId === 'END' ? at(17) : null,
      model_id: { incoming: 1, outgoing: 2, internal: 3 }[category],
      version: 1,
      integrations: {},
      custom_fields:
        resId % 4 === 1
          ? {
              '1': `DOS-${recordYear}-${pad(resId)}`,
              '2': rnd.pick(['Courrier', 'Courriel', 'Guichet']),
              '3': `${recordYear}-12-31`,
            }
          : null,
      // Maarch's links between records live in the record row.
      linked_resources: resId % 6 === 2 ? [resId - 1] : [],
    })

    // Diffusion list: the processing user, then copies to agents or services.
    listinstance.push({
      res_id: resId,
      sequence: 0,
      item_id: destUser,
      item_type: 'user_id',
      item_mode: 'dest',
      added_by_user: 2,
      viewed: rnd.int(3),
      difflist_type: 'entity_id',
      process_date: null,
      process_comment: null,
      signatory: false,
      requested_signature: false,
      delegate: null,
    })
    const copies =
      resId === facts.councillorRecords[0]
        ? [['user_id', 3]]
        : resId === facts.councillorRecords[1]
          ? [['entity_id', serialOf('ELUS')]]
          : Array.from({ length: rnd.int(3) }, () =>
              rnd.next() < 0.5 ? ['user_id', rnd.pick(staff)] : ['entity_id', serialOf(rnd.pick(services))],
            )
    for (const [i, [itemType, itemId]] of copies.entries())
      listinstance.push({
        res_id: resId,
        sequence: i + 1,
        item_id: itemId,
        item_type: itemType,
        item_mode: i === 0 && resId % 3 === 1 ? 'avis' : 'cc',
        added_by_user: destUser,
        viewed: 0,
        difflist_type: 'entity_id',
        process_date: i === 0 && resId % 3 === 1 ? at(15) : null,
        process_comment: i === 0 && resId % 3 === 1 ? 'Avis favorable' : null,
        signatory: false,
        requested_signature: false,
        delegate: null,
      })
    const contact = 1 + rnd.int(11)
    if (category === 'incoming') {
      resourceContacts.push({ res_id: resId, item_id: contact, type: 'contact', mode: 'sender' })
      resourceContacts.push({ res_id: resId, item_id: serialOf(destination), type: 'entity', mode: 'recipient' })
    } else if (category === 'outgoing') {
      resourceContacts.push({ res_id: resId, item_id: destUser, type: 'user', mode: 'sender' })
      resourceContacts.push({ res_id: resId, item_id: contact, type: 'contact', mode: 'recipient' })
    } else resourceContacts.push({ res_id: resId, item_id: rnd.pick(staff), type: 'user', mode: 'recipient' })
    if (resId % 3 === 1) {
      const first = 1 + rnd.int(6)
      resourcesTags.push({ res_id: resId, tag_id: first })
      if (resId % 2 === 1) resourcesTags.push({ res_id: resId, tag_id: 1 + (first % 6) })
    }
    if (resId % 4 === 2) resourcesFolders.push({ folder_id: resId % 8 === 2 ? 1 : 2, res_id: resId })

    const actor = activeIds.includes(typist) ? typist : 1
    history.push({
      table_name: 'res_letterbox',
      record_id: String(resId),
      event_type: 'ADD',
      user_id: actor,
      event_date: at(9),
      info: `Courrier enregistré : ${subject}`,
      id_module: 'resource',
      remote_ip: `192.0.2.${resId}`,
      event_id: 'resadd',
    })
    if (resId % 2 === 1)
      history.push({
        table_name: 'res_view_letterbox',
        record_id: String(resId),
        event_type: 'UP',
        user_id: destUser,
        event_date: at(14),
        info: 'Statut mis à jour',
        id_module: 'resource',
        remote_ip: null,
        event_id: 'resup',
      })
    if (resId % 4 === 3) {
      const bytes = letterPdf(`Reponse au courrier ${resId}`)
      const attachmentPath = `${recordYear}#${pad(month)}#0001#`
      const attachmentName = `${rnd.hex(12)}.pdf`
      files.set(`attachments/${attachmentPath.replaceAll('#', '/')}${attachmentName}`, bytes)
      attachments.push({
        title: `Réponse au courrier ${resId}`,
        format: 'pdf',
        typist: destUser,
        creation_date: at(15),
        identifier: chrono,
        relation: 1,
        docserver_id: 'FASTHD_ATTACH',
        path: attachmentPath,
        filename: attachmentName,
        fingerprint: createHash('sha512').update(bytes).digest('hex'),
        filesize: bytes.length,
        // One in three was deleted in Maarch: not listed.
        status: resId % 12 === 11 ? 'DEL' : 'A_TRA',
        res_id_master: resId,
        attachment_type: 'response_project',
      })
    }
    if (resId % 5 === 1) {
      const noteId = notes.length + 1
      notes.push({
        id: noteId,
        identifier: resId,
        user_id: destUser,
        creation_date: at(15),
        note_text: `Note sur le courrier ${resId}`,
      })
      // One in two is restricted to the record's destination (and, every other time, to the DGS too).
      if (resId % 10 === 1) noteEntities.push({ note_id: noteId, item_id: destination })
      if (resId % 20 === 1) noteEntities.push({ note_id: noteId, item_id: 'DGS' })
    }
  }
  // Rows about other things than records, which the importer leaves alone.
  history.push({
    table_name: 'users',
    record_id: '2',
    event_type: 'LOGIN',
    user_id: 2,
    event_date: `${year - 1}-03-01 08:00:00`,
    info: 'Connexion',
    id_module: 'admin',
    remote_ip: '192.0.2.200',
    event_id: 'login',
  })
  const chronoOutgoing = 3
  const parameters = [
    { id: 'database_version', description: null, param_value_string: '20.10.14', param_value_int: null },
    { id: `chrono_incoming_${year}`, description: null, param_value_string: null, param_value_int: chronoIncoming + 3 },
    { id: `chrono_outgoing_${year}`, description: null, param_value_string: null, param_value_int: chronoOutgoing },
    { id: 'homepage_message', description: null, param_value_string: 'Bienvenue', param_value_int: null },
    {
      id: 'workingDays',
      description: 'Si activé (1), les délais de traitement sont calculés en jours ouvrés',
      param_value_string: null,
      param_value_int: 1,
    },
    {
      id: 'last_deposit_date',
      description: null,
      param_value_string: null,
      param_value_int: null,
      param_value_date: '2024-05-06 07:08:09',
    },
  ]

  return {
    version: '20.10.14',
    tables: {
      parameters,
      docserver_types: docserverTypes,
      docservers,
      entities,
      usergroups,
      usergroups_services: usergroupsServices,
      security,
      users,
      users_entities: usersEntities,
      usergroup_content: usergroupContent,
      status,
      doctypes_first_level: doctypesFirstLevel,
      doctypes_second_level: doctypesSecondLevel,
      doctypes,
      indexing_models: indexingModels,
      indexing_models_fields: indexingModelsFields,
      priorities,
      custom_fields: customFields,
      tags,
      folders,
      entities_folders: entitiesFolders,
      contacts,
      res_letterbox: records,
      adr_letterbox: adr,
      listinstance,
      resource_contacts: resourceContacts,
      resources_tags: resourcesTags,
      resources_folders: resourcesFolders,
      history,
      res_attachments: attachments,
      notes,
      note_entities: noteEntities,
    },
    files,
    facts: {
      password: PASSWORD,
      records: total,
      superadmin: 'superadmin',
      clerk: 'cmorel',
      councillor: 'pgarnier',
      archivist: 'archives',
      archivesClause,
      capture: 'capture',
      agents,
      deletedUserId: 40,
      unknownTypistId: 999,
      computedFingerprintRecords: computed,
      repairedRecords: [
        ...new Set([...computed, facts.missingConvertedRecord, facts.deletedTypistRecord, facts.unknownTypistRecord]),
      ].sort((a, b) => a - b),
      attachmentsListed: attachments.filter((a) => a.status !== 'DEL').length,
      notes: notes.length,
      year,
      chronoIncoming: chronoIncoming + 3,
      chronoOutgoing: Math.max(chronoOutgoing, chronoOutgoingGiven),
      create: {
        incomingModel: 1,
        outgoingModel: 2,
        doctype: 202,
        destination: serialOf('VOIRIE'),
        priority: 'prio_urgente',
        contact: 1,
        tags: [2, 3],
        folder: 1,
        status: 'NEW',
      },
      ...facts,
    },
  }
}
