import type { ColumnType, Generated, JSONColumnType } from 'kysely'

type Timestamp = ColumnType<Date, Date | string, Date | string>
type Json<T extends object = Record<string, unknown>> = JSONColumnType<T, string, string>

/** kysely table types of the Mailroom schema (migrations/0001-initial-schema.ts is the source of truth). */
export interface EntitiesTable {
  id: Generated<number>
  entity_id: string
  entity_label: string
  short_label: string
  entity_full_name: string | null
  enabled: ColumnType<string, string | undefined, string>
  adrs_1: string | null
  adrs_2: string | null
  adrs_3: string | null
  zipcode: string | null
  city: string | null
  country: string | null
  email: string | null
  business_id: string | null
  parent_entity_id: string | null
  entity_type: string
  ldap_id: string | null
  archival_agency: string | null
  archival_agreement: string | null
  producer_service: string | null
  external_id: ColumnType<unknown, string | undefined, string>
}

export interface UsersTable {
  id: Generated<number>
  user_id: string
  firstname: string | null
  lastname: string | null
  mail: string | null
  password: string
  status: ColumnType<string, string | undefined, string>
  mode: ColumnType<string, string | undefined, string>
  failed_authentication: ColumnType<number, number | undefined, number>
  locked_until: Timestamp | null
  refresh_token: ColumnType<string[], string | undefined, string>
  service_token_id: string | null
  /** How the user signs in: standard, ldap or oidc (migration 0018). */
  authentication: ColumnType<string, string | undefined, string>
}

export interface UsersEntitiesTable {
  user_id: number
  entity_id: string
  user_role: string | null
  primary_entity: ColumnType<string, string | undefined, string>
}

export interface UsergroupsTable {
  id: Generated<number>
  group_id: string
  group_desc: string | null
  can_index: ColumnType<boolean, boolean | undefined, boolean>
  indexation_parameters: ColumnType<{ entities?: string[]; keywords?: string[] }, string | undefined, string>
  /** The right to read the digital-safe journal (migration 0008). */
  can_read_safe: ColumnType<boolean, boolean | undefined, boolean>
  /** Maarch service ids the group grants (migration 0010). */
  privileges: ColumnType<string[], string[] | undefined, string[]>
}

export interface UsergroupContentTable {
  user_id: number
  group_id: number
  role: string | null
}

export interface SecurityTable {
  security_id: Generated<number>
  group_id: string
  coll_id: ColumnType<string, string | undefined, string>
  where_clause: string
  maarch_comment: string | null
}

export interface StatusTable {
  identifier: Generated<number>
  id: string
  label_status: string
  is_system: ColumnType<string, string | undefined, string>
  img_filename: string | null
  maarch_module: ColumnType<string, string | undefined, string>
  can_be_searched: ColumnType<string, string | undefined, string>
  can_be_modified: ColumnType<string, string | undefined, string>
  is_closing: ColumnType<boolean, boolean | undefined, boolean>
}

export interface DoctypesFirstLevelTable {
  doctypes_first_level_id: Generated<number>
  doctypes_first_level_label: string
  css_style: string | null
  enabled: ColumnType<string, string | undefined, string>
}

export interface DoctypesSecondLevelTable {
  doctypes_second_level_id: Generated<number>
  doctypes_second_level_label: string
  doctypes_first_level_id: number
  css_style: string | null
  enabled: ColumnType<string, string | undefined, string>
}

export interface DoctypesTable {
  type_id: Generated<number>
  description: string
  enabled: ColumnType<string, string | undefined, string>
  doctypes_first_level_id: number
  doctypes_second_level_id: number
  process_delay: ColumnType<number, number | undefined, number>
  process_mode: ColumnType<string, string | undefined, string>
}

export interface IndexingModelsTable {
  id: Generated<number>
  label: string
  category: string
  default: ColumnType<boolean, boolean | undefined, boolean>
  owner: number | null
  private: ColumnType<boolean, boolean | undefined, boolean>
  master: number | null
  enabled: ColumnType<boolean, boolean | undefined, boolean>
  mandatory_file: ColumnType<boolean, boolean | undefined, boolean>
}

export interface IndexingModelsFieldsTable {
  id: Generated<number>
  model_id: number
  identifier: string
  mandatory: ColumnType<boolean, boolean | undefined, boolean>
  enabled: ColumnType<boolean, boolean | undefined, boolean>
  default_value: ColumnType<unknown, string | null | undefined, string | null>
  unit: string | null
}

export interface PrioritiesTable {
  id: string
  label: string
  color: ColumnType<string, string | undefined, string>
  working_days: ColumnType<boolean, boolean | undefined, boolean>
  delays: number | null
  order: number | null
}

export interface DocserverTypesTable {
  docserver_type_id: string
  docserver_type_label: string | null
  enabled: ColumnType<string, string | undefined, string>
  fingerprint_mode: ColumnType<string, string | undefined, string>
}

export interface DocserversTable {
  id: Generated<number>
  docserver_id: string
  docserver_type_id: string
  device_label: string | null
  is_readonly: ColumnType<string, string | undefined, string>
  size_limit_number: ColumnType<number, number | undefined, number>
  actual_size_number: ColumnType<number, number | undefined, number>
  path_template: string
  creation_date: ColumnType<Date, Date | string | undefined, Date | string>
  coll_id: ColumnType<string, string | undefined, string>
}

export interface ResLetterboxTable {
  res_id: Generated<number>
  subject: string | null
  type_id: number | null
  format: string | null
  typist: number
  creation_date: ColumnType<Date, Date | string | undefined, Date | string>
  modification_date: ColumnType<Date, Date | string | undefined, Date | string>
  doc_date: Timestamp | null
  docserver_id: string | null
  path: string | null
  filename: string | null
  fingerprint: string | null
  filesize: number | null
  status: string | null
  destination: string | null
  work_batch: number | null
  origin: string | null
  priority: string | null
  policy_id: string | null
  cycle_id: string | null
  initiator: string | null
  dest_user: number | null
  locker_user_id: number | null
  locker_time: Timestamp | null
  confidentiality: string | null
  fulltext_result: string | null
  external_id: ColumnType<Record<string, unknown>, string | undefined, string>
  departure_date: Timestamp | null
  opinion_limit_date: Timestamp | null
  barcode: string | null
  category_id: string
  alt_identifier: string | null
  admission_date: Timestamp | null
  process_limit_date: Timestamp | null
  closing_date: Timestamp | null
  alarm1_date: Timestamp | null
  alarm2_date: Timestamp | null
  flag_alarm1: ColumnType<string, string | undefined, string>
  flag_alarm2: ColumnType<string, string | undefined, string>
  model_id: number
  version: ColumnType<number, number | undefined, number>
  integrations: ColumnType<Record<string, unknown>, string | undefined, string>
  custom_fields: ColumnType<Record<string, unknown>, string | undefined, string>
  linked_resources: ColumnType<unknown[], string | undefined, string>
  retention_frozen: ColumnType<boolean, boolean | undefined, boolean>
  binding: boolean | null
  /** The words of every kept text of the record, kept by triggers on fulltext_texts (migration 0019); never written here. */
  fulltext_document: ColumnType<string | null, never, never>
}

export interface AdrLetterboxTable {
  id: Generated<number>
  res_id: number
  type: string
  version: number
  docserver_id: string
  path: string
  filename: string
  fingerprint: string | null
  filesize: number | null
}

export interface ListinstanceTable {
  listinstance_id: Generated<number>
  res_id: number
  sequence: ColumnType<number, number | undefined, number>
  item_id: number
  item_type: string
  item_mode: string
  added_by_user: number | null
  viewed: number | null
  difflist_type: string | null
  process_date: Timestamp | null
  process_comment: string | null
  signatory: ColumnType<boolean, boolean | undefined, boolean>
  requested_signature: ColumnType<boolean, boolean | undefined, boolean>
  delegate: number | null
}

/** The diffusion lists a letter had before each change: who changed it, when (migration 0027, 20.10's table). */
export interface ListinstanceHistoryTable {
  listinstance_history_id: Generated<number>
  coll_id: ColumnType<string, string | undefined, string>
  res_id: number
  user_id: number
  updated_date: ColumnType<Date, Date | string | undefined, Date | string>
}

/** One item of a diffusion list as it was before a change (migration 0027, 20.10's table). */
export interface ListinstanceHistoryDetailsTable {
  listinstance_history_details_id: Generated<number>
  listinstance_history_id: number
  coll_id: ColumnType<string, string | undefined, string>
  res_id: number
  listinstance_type: ColumnType<string | null, string | null | undefined, string | null>
  sequence: number
  item_id: number | null
  item_type: string
  item_mode: string
  added_by_user: number | null
  visible: ColumnType<string, string | undefined, string>
  viewed: number | null
  difflist_type: string | null
  process_date: Timestamp | null
  process_comment: string | null
  requested_signature: ColumnType<boolean | null, boolean | null | undefined, boolean | null>
  signatory: ColumnType<boolean | null, boolean | null | undefined, boolean | null>
}

/** A diffusion list template (migration 0029, 20.10's table): a department's default list, or a user's own. */
export interface ListTemplatesTable {
  id: Generated<number>
  title: string
  description: string | null
  /** diffusionList, visaCircuit or opinionCircuit. */
  type: string
  /** The entity's serial id. */
  entity_id: number | null
  /** The user whose own template this is; null: the department's. */
  owner: number | null
}

/** One member of a diffusion list template (migration 0029, 20.10's table). */
export interface ListTemplatesItemsTable {
  id: Generated<number>
  list_template_id: number
  /** A user's or an entity's serial id, as item_type says. */
  item_id: number
  item_type: 'user' | 'entity'
  /** dest, cc, avis, visa, sign, … */
  item_mode: string
  sequence: number
}

/** Contacts (migration 0012: every column of Maarch 20.10's table). */
export interface ContactsTable {
  id: Generated<number>
  civility: string | null
  firstname: string | null
  lastname: string | null
  company: string | null
  department: string | null
  function: string | null
  address_number: string | null
  address_street: string | null
  address_additional1: string | null
  address_additional2: string | null
  address_postcode: string | null
  address_town: string | null
  address_country: string | null
  email: string | null
  phone: string | null
  communication_means: ColumnType<unknown, string | null, string | null>
  notes: string | null
  creator: number | null
  creation_date: ColumnType<Date, Date | string | undefined, Date | string>
  modification_date: Timestamp | null
  enabled: ColumnType<boolean, boolean | undefined, boolean>
  custom_fields: ColumnType<unknown, string | null, string | null>
  external_id: ColumnType<unknown, string | undefined, string>
}

export interface ResourceContactsTable {
  id: Generated<number>
  res_id: number
  item_id: number
  type: string
  mode: string
}

export interface FoldersTable {
  id: Generated<number>
  label: string
  public: ColumnType<boolean, boolean | undefined, boolean>
  user_id: number
  parent_id: number | null
  level: ColumnType<number, number | undefined, number>
}

export interface EntitiesFoldersTable {
  id: Generated<number>
  folder_id: number
  entity_id: number | null
  edition: ColumnType<boolean, boolean | undefined, boolean>
  keyword: string | null
}

export interface ResourcesFoldersTable {
  id: Generated<number>
  folder_id: number
  res_id: number
}

export interface AttachmentTypesTable {
  type_id: string
  label: string
  icon: ColumnType<string, string | undefined, string>
  sign: ColumnType<boolean, boolean | undefined, boolean>
  chrono: ColumnType<boolean, boolean | undefined, boolean>
  attach_in_mail: ColumnType<boolean, boolean | undefined, boolean>
  show: ColumnType<boolean, boolean | undefined, boolean>
}

export interface ResAttachmentsTable {
  res_id: Generated<number>
  res_id_master: number
  title: string | null
  identifier: string | null
  typist: number
  status: string
  relation: ColumnType<number, number | undefined, number>
  origin_id: number | null
  origin: string | null
  attachment_type: string
  recipient_id: number | null
  recipient_type: string | null
  validation_date: Timestamp | null
  effective_date: Timestamp | null
  in_signature_book: ColumnType<boolean, boolean | undefined, boolean>
  in_send_attach: ColumnType<boolean, boolean | undefined, boolean>
  external_id: ColumnType<Record<string, unknown>, string | undefined, string>
  creation_date: ColumnType<Date, Date | string | undefined, Date | string>
  modification_date: Timestamp | null
  modified_by: number | null
  format: string
  docserver_id: string
  path: string | null
  filename: string | null
  filesize: number | null
  fingerprint: string | null
  fulltext_result: string | null
  signatory_user_serial_id: number | null
}

export interface TagsTable {
  id: Generated<number>
  label: string
}

export interface ResourcesTagsTable {
  id: Generated<number>
  res_id: number
  tag_id: number
}

/** Records a user follows (migration 0006). */
export interface UsersFollowedResourcesTable {
  id: Generated<number>
  res_id: number
  user_id: number
}

export interface CustomFieldsTable {
  id: Generated<number>
  label: string
  type: string
  mode: ColumnType<string, string | undefined, string>
  values: ColumnType<unknown[], string | undefined, string>
}

export interface HistoryTable {
  id: Generated<number>
  table_name: string | null
  record_id: string | null
  event_type: string
  user_id: number | null
  event_date: ColumnType<Date, Date | string | undefined, Date | string>
  info: string | null
  id_module: ColumnType<string, string | undefined, string>
  remote_ip: string | null
  event_id: string | null
}

/** A note on a record (migration 0013). */
export interface NotesTable {
  id: Generated<number>
  identifier: number
  user_id: number
  creation_date: ColumnType<Date, Date | string | undefined, Date | string>
  note_text: string
}

/** An entity a note is restricted to (migration 0013). */
export interface NoteEntitiesTable {
  id: Generated<number>
  note_id: number
  item_id: string
}

export interface ChronoCountersTable {
  counter_id: string
  last_value: number
}

export interface AuthFailuresTable {
  subject: string
  failures: number
  locked_until: Timestamp | null
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface JournalEventsTable {
  safe: string
  sequence: number
  event_id: string
  event_type: string
  timestamp: Timestamp
  instance_name: string
  org_reg_number: string
  org_unit_reg_number: string
  account_id: string
  account_name: string
  object_class: string
  object_id: string
  operation_result: boolean
  description: string
  info: Json<Record<string, unknown>>
  previous_hash: string | null
  hash: string
}

export interface JournalHeadsTable {
  safe: string
  last_sequence: number
  last_hash: string
}

/** The last point of a safe's chain an HTTP verification found intact (migration 0009). */
export interface JournalVerifiedPointsTable {
  safe: string
  sequence: number
  hash: string
  verified_at: Generated<Date>
}

/** An event written but not yet linked into its safe's chain (migration 0005). */
export interface JournalPendingTable {
  id: Generated<number>
  safe: string
  event_id: string
  event_type: string
  timestamp: Timestamp
  instance_name: string
  org_reg_number: string
  org_unit_reg_number: string
  account_id: string
  account_name: string
  object_class: string
  object_id: string
  operation_result: boolean
  description: string
  info: Json<Record<string, unknown>>
  created_at: ColumnType<Date, Date | string | undefined, never>
}

export interface JournalArchivesTable {
  archive_id: string
  safe: string
  res_id: number
  created_at: ColumnType<Date, Date | string | undefined, Date | string>
}

/** The view callers search (reference §9); columns as in core's search catalogue. */
export interface ResViewLetterbox {
  res_id: number
  [column: string]: unknown
}

/** One row: moved by every change of the reference tables (migration 0007). */
export interface ReferenceVersionTable {
  id: Generated<boolean>
  version: number
}

/** One row: moved by every change of who a user is or may do (migration 0008). */
export interface AccessVersionTable {
  id: Generated<boolean>
  version: number
}

/** The installation's parameters (migration 0011, Maarch's columns). */
export interface ParametersTable {
  id: string
  description: string | null
  param_value_string: string | null
  param_value_int: number | null
  param_value_date: ColumnType<Date | null, string | null, string | null>
}

/** The whole database as kysely sees it. */
export interface Database {
  entities: EntitiesTable
  users: UsersTable
  users_entities: UsersEntitiesTable
  usergroups: UsergroupsTable
  usergroup_content: UsergroupContentTable
  security: SecurityTable
  status: StatusTable
  doctypes_first_level: DoctypesFirstLevelTable
  doctypes_second_level: DoctypesSecondLevelTable
  doctypes: DoctypesTable
  indexing_models: IndexingModelsTable
  indexing_models_fields: IndexingModelsFieldsTable
  priorities: PrioritiesTable
  docserver_types: DocserverTypesTable
  docservers: DocserversTable
  res_letterbox: ResLetterboxTable
  adr_letterbox: AdrLetterboxTable
  listinstance: ListinstanceTable
  listinstance_history: ListinstanceHistoryTable
  listinstance_history_details: ListinstanceHistoryDetailsTable
  list_templates: ListTemplatesTable
  list_templates_items: ListTemplatesItemsTable
  contacts: ContactsTable
  resource_contacts: ResourceContactsTable
  folders: FoldersTable
  entities_folders: EntitiesFoldersTable
  resources_folders: ResourcesFoldersTable
  tags: TagsTable
  attachment_types: AttachmentTypesTable
  res_attachments: ResAttachmentsTable
  resources_tags: ResourcesTagsTable
  users_followed_resources: UsersFollowedResourcesTable
  reference_version: ReferenceVersionTable
  access_version: AccessVersionTable
  custom_fields: CustomFieldsTable
  parameters: ParametersTable
  history: HistoryTable
  notes: NotesTable
  note_entities: NoteEntitiesTable
  chrono_counters: ChronoCountersTable
  auth_failures: AuthFailuresTable
  journal_events: JournalEventsTable
  journal_heads: JournalHeadsTable
  journal_pending: JournalPendingTable
  journal_verified_points: JournalVerifiedPointsTable
  journal_archives: JournalArchivesTable
  fulltext_jobs: FulltextJobsTable
  import_batches: ImportBatchesTable
  fulltext_texts: FulltextTextsTable
  maarch_import_runs: MaarchImportRunsTable
  baskets: BasketsTable
  groupbasket: GroupbasketTable
  actions: ActionsTable
  actions_groupbaskets: ActionsGroupbasketsTable
  actions_categories: ActionsCategoriesTable
  groupbasket_redirect: GroupbasketRedirectTable
  users_baskets_preferences: UsersBasketsPreferencesTable
  redirected_baskets: RedirectedBasketsTable
  res_mark_as_read: ResMarkAsReadTable
  acknowledgement_receipts: AcknowledgementReceiptsTable
  basket_persistent_mode: BasketPersistentModeTable
  res_view_letterbox: ResViewLetterbox
}

/** A basket (migration 0024): a clause over the records, with its name, colour and order. */
export interface BasketsTable {
  id: Generated<number>
  coll_id: ColumnType<string, string | undefined, string>
  basket_id: string
  basket_name: string
  basket_desc: ColumnType<string, string | undefined, string>
  basket_clause: string
  is_visible: ColumnType<string, string | undefined, string>
  enabled: ColumnType<string, string | undefined, string>
  basket_order: number | null
  color: string | null
  basket_res_order: ColumnType<string, string | undefined, string>
  flag_notif: string | null
}

/** A basket given to a group (`group_id` is the group's code): its list's display and a click's event. */
export interface GroupbasketTable {
  id: Generated<number>
  group_id: string
  basket_id: string
  list_display: ColumnType<unknown, string | undefined, string>
  list_event: ColumnType<string, string | undefined, string>
  list_event_data: ColumnType<unknown, string | null | undefined, string | null>
}

export interface ActionsTable {
  id: Generated<number>
  keyword: ColumnType<string, string | undefined, string>
  label_action: string | null
  id_status: string | null
  is_system: ColumnType<string, string | undefined, string>
  action_page: string | null
  component: string | null
  history: ColumnType<string, string | undefined, string>
  parameters: ColumnType<Record<string, unknown>, string | undefined, string>
}

/** An action offered to a group in a basket, with its extra condition. */
export interface ActionsGroupbasketsTable {
  id_action: number
  where_clause: string | null
  group_id: string
  basket_id: string
  used_in_basketlist: ColumnType<string, string | undefined, string>
  used_in_action_page: ColumnType<string, string | undefined, string>
  default_action_list: ColumnType<string, string | undefined, string>
}

export interface ActionsCategoriesTable {
  action_id: number
  category_id: string
}

/** The services and people a redirect action offers a group in a basket. */
export interface GroupbasketRedirectTable {
  system_id: Generated<number>
  group_id: string
  basket_id: string
  action_id: number
  entity_id: string | null
  keyword: string | null
  redirect_mode: string
}

export interface UsersBasketsPreferencesTable {
  id: Generated<number>
  user_serial_id: number
  group_serial_id: number
  basket_id: string
  display: boolean
  color: string | null
}

/** A basket its owner lends to a colleague while away. */
export interface RedirectedBasketsTable {
  id: Generated<number>
  actual_user_id: number
  owner_user_id: number
  basket_id: string
  group_id: number
}

export interface ResMarkAsReadTable {
  res_id: number
  user_id: number
  basket_id: string
}

export interface AcknowledgementReceiptsTable {
  id: Generated<number>
  res_id: number
  type: string
  format: string
  user_id: number
  contact_id: number | null
  creation_date: ColumnType<Date, Date | string | undefined, Date | string>
  send_date: Timestamp | null
}

export interface BasketPersistentModeTable {
  res_id: number
  user_id: number
  is_persistent: string
}

/** A Maarch import run (migration 0021): its source, its snapshot's cut-off, whether it finished. */
export interface MaarchImportRunsTable {
  id: Generated<number>
  /** host:port/database of the Maarch database (no credentials). */
  source: string
  mode: 'full' | 'delta'
  /** A delta run: the cut-off it carried changes from. */
  since: Timestamp | null
  /** The source's time when the run's snapshot was taken, less its transactions still open then. */
  cutoff: ColumnType<Date, Date | string, Date | string>
  started_at: ColumnType<Date, Date | string | undefined, Date | string>
  finished_at: Timestamp | null
  counts: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>
}

/** The kinds of stored file the full-text queue extracts (migration 0016): a record's current file, an attachment. */
export type FulltextFileKind = 'resource' | 'attachment'

/** A batch of an import from another installation (migration 0020). */
export interface ImportBatchesTable {
  id: Generated<number>
  importer: string
  after_res_id: number
  last_res_id: number
  records: ColumnType<number, number | undefined, number>
  committed: ColumnType<boolean, boolean | undefined, boolean>
  /** Keys of the batch's stored files while it is not committed (JSON array), then null. */
  files: ColumnType<string[] | null, string | null | undefined, string | null>
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>
}

export interface FulltextJobsTable {
  id: Generated<number>
  file_kind: FulltextFileKind
  file_id: number
  res_id: number
  state: ColumnType<'pending' | 'running' | 'done' | 'failed', string | undefined, string>
  attempts: ColumnType<number, number | undefined, number>
  not_before: ColumnType<Date, Date | string | undefined, Date | string>
  lease_token: string | null
  leased_by: string | null
  lease_until: Timestamp | null
  last_error: string | null
  enqueued_at: ColumnType<Date, Date | string | undefined, Date | string>
  finished_at: Timestamp | null
}

export interface FulltextTextsTable {
  file_kind: FulltextFileKind
  file_id: number
  res_id: number
  fingerprint: string | null
  method: string
  ocr_pages: number
  language: string
  content: string
  document: string
  extracted_at: ColumnType<Date, Date | string | undefined, Date | string>
}
