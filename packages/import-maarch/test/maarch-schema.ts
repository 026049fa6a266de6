/**
 * The tables of a Maarch Courrier 20.10 database that the importer reads, and those it reports or leaves out
 * (attachments, notes), written for Mailroom's tests from the importer's queries and docs/migrating-from-maarch.md.
 * Column names and types are Maarch's (the importer reads them by name and node-postgres by type: timestamps
 * without zone, char(1) flags, jsonb); columns the importer never reads are left out. Like Maarch, no foreign
 * keys: a record may name a status or a user that is gone.
 */
export const MAARCH_SCHEMA_SQL = `
create table parameters (
  id varchar(255) primary key,
  description text,
  param_value_string text,
  param_value_int integer,
  param_value_date timestamp
);
create table docserver_types (
  docserver_type_id varchar(32) primary key,
  docserver_type_label varchar(255),
  enabled char(1) not null default 'Y',
  fingerprint_mode varchar(32)
);
create table docservers (
  id serial unique,
  docserver_id varchar(32) primary key,
  docserver_type_id varchar(32) not null,
  device_label varchar(255),
  is_readonly char(1) not null default 'N',
  path_template varchar(255) not null,
  creation_date timestamp not null default now(),
  coll_id varchar(32) not null
);
create table entities (
  id serial not null unique,
  entity_id varchar(32) primary key,
  entity_label varchar(255),
  short_label varchar(50),
  entity_full_name text,
  enabled char(1) not null default 'Y',
  adrs_1 varchar(255), adrs_2 varchar(255), adrs_3 varchar(255),
  zipcode varchar(32), city varchar(255), country varchar(255),
  email varchar(255),
  business_id varchar(32),
  parent_entity_id varchar(32),
  entity_type varchar(64),
  ldap_id varchar(255),
  producer_service varchar(255),
  external_id jsonb default '{}'
);
create table usergroups (
  id serial not null unique,
  group_id varchar(32) primary key,
  group_desc varchar(255),
  can_index boolean not null default false,
  indexation_parameters jsonb not null default '{"actions": [], "entities": [], "keywords": []}'
);
create table usergroups_services (
  group_id varchar(32) not null,
  service_id varchar(64) not null,
  primary key (group_id, service_id)
);
create table security (
  security_id serial primary key,
  group_id varchar(32) not null,
  coll_id varchar(32) not null,
  where_clause text,
  maarch_comment text
);
create table users (
  id serial not null unique,
  user_id varchar(128) primary key,
  password varchar(255),
  firstname varchar(255),
  lastname varchar(255),
  mail varchar(255),
  status varchar(10) not null default 'OK',
  mode varchar(32) not null default 'standard'
);
create table users_entities (
  user_id integer not null,
  entity_id varchar(32) not null,
  user_role varchar(255),
  primary_entity char(1) not null default 'N',
  primary key (user_id, entity_id)
);
create table usergroup_content (
  user_id integer not null,
  group_id integer not null,
  role varchar(255),
  primary key (user_id, group_id)
);
create table status (
  identifier serial,
  id varchar(10) primary key,
  label_status varchar(50) not null,
  is_system char(1) not null default 'Y',
  img_filename varchar(255),
  maarch_module varchar(255) not null default 'apps',
  can_be_searched char(1) not null default 'Y',
  can_be_modified char(1) not null default 'Y'
);
create table doctypes_first_level (
  doctypes_first_level_id integer primary key,
  doctypes_first_level_label varchar(255) not null,
  css_style varchar(255),
  enabled char(1) not null default 'Y'
);
create table doctypes_second_level (
  doctypes_second_level_id integer primary key,
  doctypes_second_level_label varchar(255) not null,
  doctypes_first_level_id integer not null,
  css_style varchar(255),
  enabled char(1) not null default 'Y'
);
create table doctypes (
  coll_id varchar(32) not null default '',
  type_id integer primary key,
  description varchar(255) not null,
  enabled char(1) not null default 'Y',
  doctypes_first_level_id integer,
  doctypes_second_level_id integer,
  process_delay integer not null,
  delay1 integer not null,
  delay2 integer not null,
  process_mode varchar(256) not null
);
create table indexing_models (
  id serial primary key,
  label varchar(256) not null,
  category varchar(256) not null,
  "default" boolean not null,
  owner integer not null,
  private boolean not null,
  master integer,
  enabled boolean not null default true,
  mandatory_file boolean not null default false
);
create table indexing_models_fields (
  id serial primary key,
  model_id integer not null,
  identifier text not null,
  mandatory boolean not null,
  enabled boolean not null default true,
  default_value json,
  unit text not null
);
create table priorities (
  id varchar(16) primary key,
  label varchar(128) not null,
  color varchar(128) not null,
  working_days boolean not null,
  delays integer,
  "order" integer
);
create table custom_fields (
  id serial primary key,
  label varchar(256) not null unique,
  type varchar(256) not null,
  mode varchar(32) not null default 'form',
  values jsonb
);
create table tags (
  id serial primary key,
  label varchar(128) not null,
  description text,
  parent_id integer
);
create table folders (
  id serial primary key,
  label varchar(255) not null,
  public boolean not null,
  user_id integer not null,
  parent_id integer,
  level integer not null
);
create table entities_folders (
  id serial primary key,
  folder_id integer not null,
  entity_id integer,
  edition boolean not null,
  keyword varchar(255)
);
create table contacts (
  id serial primary key,
  civility varchar(256),
  firstname varchar(256),
  lastname varchar(256),
  company varchar(256),
  department varchar(256),
  function varchar(256),
  address_number varchar(256),
  address_street varchar(256),
  address_additional1 varchar(256),
  address_additional2 varchar(256),
  address_postcode varchar(256),
  address_town varchar(256),
  address_country varchar(256),
  email varchar(256),
  phone varchar(256),
  communication_means jsonb,
  notes text,
  creator integer not null,
  creation_date timestamp not null default now(),
  modification_date timestamp,
  enabled boolean not null default true,
  custom_fields jsonb default '{}',
  external_id jsonb default '{}'
);
create table list_templates (
  id serial primary key,
  title text not null,
  description text,
  type varchar(32) not null,
  entity_id integer,
  owner integer
);
create table list_templates_items (
  id serial primary key,
  list_template_id integer not null,
  item_id integer not null,
  item_type varchar(32) not null,
  item_mode varchar(64) not null,
  sequence integer not null
);
create table res_letterbox (
  res_id bigserial primary key,
  subject text,
  type_id bigint not null,
  format varchar(50),
  typist integer not null,
  creation_date timestamp not null,
  modification_date timestamp default now(),
  doc_date timestamp,
  docserver_id varchar(32),
  path varchar(255),
  filename varchar(255),
  fingerprint varchar(255),
  filesize bigint,
  status varchar(10),
  destination varchar(50),
  work_batch bigint,
  origin varchar(50),
  priority varchar(16),
  policy_id varchar(32),
  cycle_id varchar(32),
  initiator varchar(50),
  dest_user integer,
  locker_user_id integer,
  locker_time timestamp,
  confidentiality char(1),
  fulltext_result varchar(10),
  external_id jsonb default '{}',
  departure_date timestamp,
  opinion_limit_date timestamp,
  barcode text,
  category_id varchar(32) not null,
  alt_identifier varchar(255),
  admission_date timestamp,
  process_limit_date timestamp,
  closing_date timestamp,
  alarm1_date timestamp,
  alarm2_date timestamp,
  flag_alarm1 char(1) default 'N',
  flag_alarm2 char(1) default 'N',
  model_id integer not null,
  version integer not null,
  integrations jsonb not null default '{}',
  custom_fields jsonb,
  linked_resources jsonb not null default '[]',
  retention_frozen boolean not null default false,
  binding boolean
);
create table adr_letterbox (
  id serial primary key,
  res_id bigint not null,
  type varchar(32) not null,
  version integer not null,
  docserver_id varchar(32) not null,
  path varchar(255) not null,
  filename varchar(255) not null,
  fingerprint varchar(255),
  unique (res_id, type, version)
);
create table listinstance (
  listinstance_id bigserial primary key,
  res_id bigint not null,
  sequence bigint not null,
  item_id integer,
  item_type varchar(255) not null,
  item_mode varchar(50) not null,
  added_by_user integer,
  viewed bigint,
  difflist_type varchar(50),
  process_date timestamp,
  process_comment varchar(255),
  signatory boolean default false,
  requested_signature boolean default false,
  delegate integer
);
create table resource_contacts (
  id serial primary key,
  res_id integer not null,
  item_id integer not null,
  type varchar(32) not null,
  mode varchar(32) not null
);
create table resources_tags (
  id serial primary key,
  res_id integer not null,
  tag_id integer not null,
  unique (res_id, tag_id)
);
create table resources_folders (
  id serial primary key,
  folder_id integer not null,
  res_id integer not null,
  unique (folder_id, res_id)
);
create table history (
  id bigserial primary key,
  table_name varchar(32),
  record_id varchar(255),
  event_type varchar(32) not null,
  user_id integer,
  event_date timestamp not null,
  info text,
  id_module varchar(50) not null default 'admin',
  remote_ip varchar(32),
  event_id varchar(50)
);
create table res_attachments (
  res_id bigserial primary key,
  title varchar(255),
  format varchar(50) not null,
  typist integer,
  creation_date timestamp not null,
  identifier varchar(255),
  relation bigint,
  docserver_id varchar(32) not null,
  path varchar(255),
  filename varchar(255),
  fingerprint varchar(255),
  filesize bigint,
  status varchar(10),
  validation_date timestamp,
  effective_date timestamp,
  modification_date timestamp default now(),
  modified_by integer,
  origin varchar(50),
  res_id_master bigint,
  origin_id integer,
  attachment_type varchar(255),
  recipient_id integer,
  recipient_type varchar(256),
  in_signature_book boolean default false,
  in_send_attach boolean default false,
  signatory_user_serial_id int,
  fulltext_result varchar(10),
  external_id jsonb default '{}'
);
create table notes (
  id serial primary key,
  identifier bigint not null,
  user_id integer not null,
  creation_date timestamp not null,
  note_text text not null
);
create table note_entities (
  id serial primary key,
  note_id integer not null,
  item_id varchar(50)
);
`
