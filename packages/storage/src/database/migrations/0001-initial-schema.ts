import { type Kysely, sql } from 'kysely'

/**
 * The initial schema, modelled on the reference product's tables (reference-product.md §9) so that
 * callers' clauses over res_view_letterbox keep their meaning. Timestamps are timestamptz (UTC inside).
 * Statements run one by one: PGlite's extended protocol takes a single statement per query.
 */
const STATEMENTS = [
  `create table entities (
    id serial unique,
    entity_id varchar(32) primary key,
    entity_label varchar(255) not null,
    short_label varchar(50) not null,
    entity_full_name text,
    enabled char(1) not null default 'Y',
    adrs_1 varchar(255), adrs_2 varchar(255), adrs_3 varchar(255),
    zipcode varchar(32), city varchar(255), country varchar(255), email varchar(255),
    business_id varchar(32),
    parent_entity_id varchar(32) references entities(entity_id),
    entity_type varchar(64) not null,
    ldap_id varchar(255), archival_agency varchar(255), archival_agreement varchar(255),
    producer_service varchar(255),
    external_id jsonb not null default '{}'
  )`,
  `create table users (
    id serial unique,
    user_id varchar(128) primary key,
    firstname varchar(255), lastname varchar(255), mail varchar(255),
    password varchar(255) not null,
    status varchar(10) not null default 'OK',
    mode varchar(16) not null default 'standard' check (mode in ('standard', 'rest', 'root_visible', 'root_invisible')),
    failed_authentication integer not null default 0,
    locked_until timestamptz,
    refresh_token jsonb not null default '[]',
    service_token_id varchar(64)
  )`,
  `create unique index users_login_lower on users (lower(user_id))`,
  `create table users_entities (
    user_id integer not null references users(id),
    entity_id varchar(32) not null references entities(entity_id),
    user_role varchar(255),
    primary_entity char(1) not null default 'N',
    primary key (user_id, entity_id)
  )`,
  `create table usergroups (
    id serial unique,
    group_id varchar(32) primary key,
    group_desc varchar(255),
    can_index boolean not null default false,
    indexation_parameters jsonb not null default '{"actions":[],"entities":[],"keywords":[]}'
  )`,
  `create table usergroup_content (
    user_id integer not null references users(id),
    group_id integer not null references usergroups(id),
    role varchar(255),
    primary key (user_id, group_id)
  )`,
  `create table security (
    security_id bigserial primary key,
    group_id varchar(32) not null references usergroups(group_id),
    coll_id varchar(32) not null default 'letterbox_coll',
    where_clause text not null,
    maarch_comment text
  )`,
  `create table status (
    identifier serial unique,
    id varchar(10) primary key,
    label_status varchar(50) not null,
    is_system char(1) not null default 'Y',
    img_filename varchar(255),
    maarch_module varchar(255) not null default 'apps',
    can_be_searched char(1) not null default 'Y',
    can_be_modified char(1) not null default 'Y',
    is_closing boolean not null default false
  )`,
  `create table doctypes_first_level (
    doctypes_first_level_id serial primary key,
    doctypes_first_level_label varchar(255) not null,
    css_style varchar(255),
    enabled char(1) not null default 'Y'
  )`,
  `create table doctypes_second_level (
    doctypes_second_level_id serial primary key,
    doctypes_second_level_label varchar(255) not null,
    doctypes_first_level_id integer not null references doctypes_first_level(doctypes_first_level_id),
    css_style varchar(255),
    enabled char(1) not null default 'Y'
  )`,
  `create table doctypes (
    type_id serial primary key,
    description varchar(255) not null,
    enabled char(1) not null default 'Y',
    doctypes_first_level_id integer not null references doctypes_first_level(doctypes_first_level_id),
    doctypes_second_level_id integer not null references doctypes_second_level(doctypes_second_level_id),
    process_delay integer not null default 21,
    process_mode varchar(8) not null default 'NORMAL'
  )`,
  `create table indexing_models (
    id serial primary key,
    label varchar(255) not null,
    category varchar(255) not null,
    "default" boolean not null default false,
    owner integer,
    private boolean not null default false,
    master integer,
    enabled boolean not null default true,
    mandatory_file boolean not null default false
  )`,
  `create table indexing_models_fields (
    id serial primary key,
    model_id integer not null references indexing_models(id),
    identifier text not null,
    mandatory boolean not null default false,
    enabled boolean not null default true,
    default_value jsonb,
    unit text
  )`,
  `create table priorities (
    id varchar(16) primary key,
    label varchar(128) not null,
    color varchar(128) not null default '#009dc5',
    working_days boolean not null default false,
    delays integer,
    "order" integer
  )`,
  `create table docserver_types (
    docserver_type_id varchar(32) primary key,
    docserver_type_label varchar(255),
    enabled char(1) not null default 'Y',
    fingerprint_mode varchar(32) not null default 'SHA256'
  )`,
  `create table docservers (
    id serial unique,
    docserver_id varchar(32) primary key,
    docserver_type_id varchar(32) not null references docserver_types(docserver_type_id),
    device_label varchar(255),
    is_readonly char(1) not null default 'N',
    size_limit_number bigint not null default 0,
    actual_size_number bigint not null default 0,
    path_template varchar(255) not null,
    creation_date timestamptz not null default now(),
    coll_id varchar(32) not null default 'letterbox_coll'
  )`,
  `create table res_letterbox (
    res_id bigint generated by default as identity (start with 1) primary key,
    subject text,
    type_id bigint not null references doctypes(type_id),
    format varchar(50),
    typist integer not null,
    creation_date timestamptz not null default now(),
    modification_date timestamptz not null default now(),
    doc_date timestamptz,
    docserver_id varchar(32),
    path varchar(255),
    filename varchar(255),
    fingerprint varchar(255),
    filesize bigint,
    status varchar(10) references status(id),
    destination varchar(50),
    work_batch bigint,
    origin varchar(50),
    priority varchar(16),
    policy_id varchar(32),
    cycle_id varchar(32),
    initiator varchar(50),
    dest_user integer,
    locker_user_id integer,
    locker_time timestamptz,
    confidentiality char(1),
    fulltext_result varchar(10),
    external_id jsonb not null default '{}',
    departure_date timestamptz,
    opinion_limit_date timestamptz,
    barcode text,
    category_id varchar(32) not null,
    alt_identifier varchar(255),
    admission_date timestamptz,
    process_limit_date timestamptz,
    closing_date timestamptz,
    alarm1_date timestamptz,
    alarm2_date timestamptz,
    flag_alarm1 char(1) not null default 'N',
    flag_alarm2 char(1) not null default 'N',
    model_id integer not null,
    version integer not null default 1,
    integrations jsonb not null default '{}',
    custom_fields jsonb not null default '{}',
    linked_resources jsonb not null default '[]',
    retention_frozen boolean not null default false,
    binding boolean
  )`,
  `create unique index res_letterbox_alt_identifier_unique on res_letterbox (alt_identifier) where alt_identifier is not null`,
  `create index res_letterbox_status on res_letterbox (status)`,
  `create index res_letterbox_destination on res_letterbox (destination)`,
  `create index res_letterbox_creation_date on res_letterbox (creation_date)`,
  `create index res_letterbox_typist on res_letterbox (typist)`,
  `create index res_letterbox_category on res_letterbox (category_id)`,
  `create index res_letterbox_custom_fields on res_letterbox using gin (custom_fields)`,
  `create index res_letterbox_external_id on res_letterbox using gin (external_id)`,
  `create table adr_letterbox (
    id serial primary key,
    res_id bigint not null references res_letterbox(res_id),
    type varchar(32) not null,
    version integer not null,
    docserver_id varchar(32) not null,
    path varchar(255) not null,
    filename varchar(255) not null,
    fingerprint varchar(255),
    filesize bigint,
    unique (res_id, type, version)
  )`,
  `create table listinstance (
    listinstance_id bigserial primary key,
    res_id bigint not null references res_letterbox(res_id),
    sequence bigint not null default 0,
    item_id integer not null,
    item_type varchar(255) not null,
    item_mode varchar(50) not null,
    added_by_user integer,
    viewed bigint,
    difflist_type varchar(50),
    process_date timestamptz,
    process_comment varchar(255),
    signatory boolean not null default false,
    requested_signature boolean not null default false,
    delegate integer
  )`,
  `create index listinstance_item on listinstance (item_type, item_id)`,
  `create index listinstance_res on listinstance (res_id)`,
  `create table contacts (
    id serial primary key,
    civility varchar(255), firstname varchar(255), lastname varchar(255), company varchar(255),
    email varchar(255), enabled boolean not null default true
  )`,
  `create table resource_contacts (
    id serial primary key,
    res_id bigint not null references res_letterbox(res_id),
    item_id integer not null,
    type varchar(32) not null,
    mode varchar(32) not null
  )`,
  `create index resource_contacts_res on resource_contacts (res_id)`,
  `create table folders (
    id serial primary key,
    label varchar(255) not null,
    public boolean not null default false,
    user_id integer not null,
    parent_id integer,
    level integer not null default 0
  )`,
  `create table entities_folders (
    id serial primary key,
    folder_id integer not null references folders(id),
    entity_id integer,
    edition boolean not null default false,
    keyword varchar(255)
  )`,
  `create table resources_folders (
    id serial primary key,
    folder_id integer not null references folders(id),
    res_id bigint not null references res_letterbox(res_id),
    unique (folder_id, res_id)
  )`,
  `create table tags (
    id serial primary key,
    label varchar(128) not null
  )`,
  `create table resources_tags (
    id serial primary key,
    res_id bigint not null references res_letterbox(res_id),
    tag_id integer not null references tags(id),
    unique (res_id, tag_id)
  )`,
  `create table custom_fields (
    id serial primary key,
    label varchar(256) not null,
    type varchar(256) not null,
    mode varchar(32) not null default 'form',
    "values" jsonb not null default '[]'
  )`,
  `create table history (
    id bigserial primary key,
    table_name varchar(32),
    record_id varchar(255),
    event_type varchar(32) not null,
    user_id integer,
    event_date timestamptz not null default now(),
    info text,
    id_module varchar(50) not null default 'admin',
    remote_ip varchar(64),
    event_id varchar(50)
  )`,
  `create index history_record on history (table_name, record_id)`,
  `create table chrono_counters (
    counter_id varchar(255) primary key,
    last_value integer not null
  )`,
  `create table auth_failures (
    subject varchar(255) primary key,
    failures integer not null default 0,
    locked_until timestamptz,
    updated_at timestamptz not null default now()
  )`,
  `create table journal_events (
    safe varchar(64) not null,
    sequence bigint not null,
    event_id varchar(128) not null unique,
    event_type varchar(64) not null,
    timestamp timestamptz not null,
    instance_name varchar(64) not null,
    org_reg_number varchar(64) not null,
    org_unit_reg_number varchar(64) not null,
    account_id varchar(128) not null,
    account_name varchar(128) not null,
    object_class varchar(64) not null,
    object_id varchar(128) not null,
    operation_result boolean not null,
    description text not null,
    info jsonb not null,
    previous_hash varchar(64),
    hash varchar(64) not null,
    primary key (safe, sequence)
  )`,
  `create index journal_events_object on journal_events (object_class, object_id)`,
  `create index journal_events_time on journal_events (safe, timestamp, event_id)`,
  `create table journal_heads (
    safe varchar(64) primary key,
    last_sequence bigint not null,
    last_hash varchar(64) not null
  )`,
  `create table journal_archives (
    archive_id varchar(128) primary key,
    safe varchar(64) not null,
    res_id bigint not null references res_letterbox(res_id),
    created_at timestamptz not null default now()
  )`,
  `create index journal_archives_res on journal_archives (res_id)`,
  // Append-only journal: the server's own role cannot rewrite history, whatever code runs.
  `create function journal_events_refuse_change() returns trigger language plpgsql as $$
  begin
    raise exception 'journal events are append-only';
  end
  $$`,
  `create trigger journal_events_append_only before update or delete on journal_events
    for each row execute function journal_events_refuse_change()`,
  `create trigger journal_events_no_truncate before truncate on journal_events
    for each statement execute function journal_events_refuse_change()`,
  `create view res_view_letterbox as
    select r.res_id, r.type_id, r.policy_id, r.cycle_id, r.format, r.typist, r.creation_date,
      r.modification_date, r.docserver_id, r.path, r.filename, r.fingerprint, r.filesize, r.status,
      r.work_batch, r.doc_date, r.external_id, r.departure_date, r.opinion_limit_date, r.barcode,
      r.initiator, r.destination, r.dest_user, r.confidentiality, r.category_id, r.alt_identifier,
      r.admission_date, r.process_limit_date, r.closing_date, r.alarm1_date, r.alarm2_date,
      r.flag_alarm1, r.flag_alarm2, r.subject, r.priority, r.locker_user_id, r.locker_time,
      r.custom_fields, r.retention_frozen, r.binding,
      d.description as type_label,
      d.doctypes_first_level_id,
      dfl.doctypes_first_level_label,
      dfl.css_style as doctype_first_level_style,
      d.doctypes_second_level_id,
      dsl.doctypes_second_level_label,
      dsl.css_style as doctype_second_level_style,
      e.entity_label,
      e.entity_type as entitytype
    from res_letterbox r
      join doctypes d on d.type_id = r.type_id
      join doctypes_first_level dfl on dfl.doctypes_first_level_id = d.doctypes_first_level_id
      join doctypes_second_level dsl on dsl.doctypes_second_level_id = d.doctypes_second_level_id
      left join entities e on e.entity_id = r.destination`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop schema public cascade').execute(db)
  await sql.raw('create schema public').execute(db)
}
