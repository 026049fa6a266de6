import { type Kysely, sql } from 'kysely'

/**
 * Baskets and actions (Maarch 20.10's tables of the same names and columns, so an installation's rows carry over
 * as they are). A basket is a clause over the records; a group is given baskets (`groupbasket`, with the list's
 * display and the click's event); actions are offered per group and basket (`actions_groupbaskets`, with an extra
 * condition each), restricted to categories (`actions_categories`), with redirect choices
 * (`groupbasket_redirect`). Members' display preferences (`users_baskets_preferences`) and baskets lent to a
 * colleague (`redirected_baskets`) keep 20.10's integer user and group ids. `res_mark_as_read`,
 * `acknowledgement_receipts` and `basket_persistent_mode` exist because real basket clauses name them in
 * sub-selects (docs/architecture.md, "Baskets and actions"). A record's lock is `res_letterbox.locker_user_id`
 * and `locker_time` (0001).
 */
const UP = [
  `create table baskets (
    id serial primary key,
    coll_id varchar(32) not null default 'letterbox_coll',
    basket_id varchar(32) not null unique,
    basket_name varchar(255) not null,
    basket_desc varchar(255) not null default '',
    basket_clause text not null,
    is_visible char(1) not null default 'Y',
    enabled char(1) not null default 'Y',
    basket_order integer,
    color varchar(16),
    basket_res_order varchar(255) not null default 'res_id desc',
    flag_notif varchar(1)
  )`,
  `create table groupbasket (
    id serial primary key,
    group_id varchar(32) not null,
    basket_id varchar(32) not null references baskets(basket_id) on delete cascade on update cascade,
    list_display jsonb not null default '[]',
    list_event varchar(255) not null default 'documentDetails',
    list_event_data jsonb,
    unique (group_id, basket_id)
  )`,
  `create index groupbasket_basket on groupbasket (basket_id)`,
  `create table actions (
    id serial primary key,
    keyword varchar(32) not null default '',
    label_action varchar(255),
    id_status varchar(10),
    is_system char(1) not null default 'N',
    action_page varchar(255),
    component varchar(128),
    history char(1) not null default 'N',
    parameters jsonb not null default '{}'
  )`,
  `create table actions_groupbaskets (
    id_action integer not null references actions(id) on delete cascade,
    where_clause text,
    group_id varchar(32) not null,
    basket_id varchar(32) not null references baskets(basket_id) on delete cascade on update cascade,
    used_in_basketlist char(1) not null default 'Y',
    used_in_action_page char(1) not null default 'Y',
    default_action_list char(1) not null default 'N',
    primary key (id_action, group_id, basket_id)
  )`,
  `create index actions_groupbaskets_group_basket on actions_groupbaskets (group_id, basket_id)`,
  `create table actions_categories (
    action_id integer not null references actions(id) on delete cascade,
    category_id varchar(255) not null,
    primary key (action_id, category_id)
  )`,
  `create table groupbasket_redirect (
    system_id serial primary key,
    group_id varchar(32) not null,
    basket_id varchar(32) not null references baskets(basket_id) on delete cascade on update cascade,
    action_id integer not null references actions(id) on delete cascade,
    entity_id varchar(32),
    keyword varchar(255),
    redirect_mode varchar(32) not null
  )`,
  `create index groupbasket_redirect_action on groupbasket_redirect (group_id, basket_id, action_id)`,
  `create table users_baskets_preferences (
    id serial primary key,
    user_serial_id integer not null,
    group_serial_id integer not null,
    basket_id varchar(32) not null,
    display boolean not null,
    color varchar(16),
    unique (user_serial_id, group_serial_id, basket_id)
  )`,
  `create table redirected_baskets (
    id serial primary key,
    actual_user_id integer not null,
    owner_user_id integer not null,
    basket_id varchar(255) not null,
    group_id integer not null,
    unique (owner_user_id, basket_id, group_id)
  )`,
  `create index redirected_baskets_actual on redirected_baskets (actual_user_id)`,
  `create table res_mark_as_read (
    res_id bigint not null,
    user_id integer not null,
    basket_id varchar(32) not null,
    unique (res_id, user_id, basket_id)
  )`,
  `create table acknowledgement_receipts (
    id serial primary key,
    res_id bigint not null,
    type varchar(16) not null,
    format varchar(8) not null,
    user_id integer not null,
    contact_id integer,
    creation_date timestamptz not null default now(),
    send_date timestamptz
  )`,
  `create index acknowledgement_receipts_res on acknowledgement_receipts (res_id)`,
  `create table basket_persistent_mode (
    res_id bigint not null,
    user_id integer not null,
    is_persistent varchar(1) not null,
    unique (res_id, user_id)
  )`,
  `create index res_letterbox_locker on res_letterbox (locker_user_id) where locker_user_id is not null`,
]

const TABLES = [
  'basket_persistent_mode',
  'acknowledgement_receipts',
  'res_mark_as_read',
  'redirected_baskets',
  'users_baskets_preferences',
  'groupbasket_redirect',
  'actions_categories',
  'actions_groupbaskets',
  'actions',
  'groupbasket',
  'baskets',
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop index if exists res_letterbox_locker').execute(db)
  for (const table of TABLES) await sql.raw(`drop table ${table}`).execute(db)
}
