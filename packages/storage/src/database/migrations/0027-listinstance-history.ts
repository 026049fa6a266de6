import { type Kysely, sql } from 'kysely'

/**
 * The diffusion lists a letter had before each change (Maarch 20.10's `listinstance_history` and
 * `listinstance_history_details`, same columns): when a redirect replaces the list, 20.10 writes one history row
 * (who, when) and, in its details, each item of the list as it was. `GET /rest/resources/{resId}/listInstance`
 * answers `hasHistory` from the details. A record removed takes its history with it.
 */
const UP = [
  `create table listinstance_history (
    listinstance_history_id bigserial primary key,
    coll_id varchar(50) not null default 'letterbox_coll',
    res_id bigint not null references res_letterbox(res_id) on delete cascade,
    user_id integer not null,
    updated_date timestamptz not null default now()
  )`,
  `create index listinstance_history_res on listinstance_history (res_id)`,
  `create table listinstance_history_details (
    listinstance_history_details_id bigserial primary key,
    listinstance_history_id bigint not null references listinstance_history(listinstance_history_id) on delete cascade,
    coll_id varchar(50) not null default 'letterbox_coll',
    res_id bigint not null,
    listinstance_type varchar(50) default 'DOC',
    sequence bigint not null,
    item_id integer,
    item_type varchar(255) not null,
    item_mode varchar(50) not null,
    added_by_user integer,
    visible varchar(1) not null default 'Y',
    viewed bigint,
    difflist_type varchar(50),
    process_date timestamptz,
    process_comment varchar(255),
    requested_signature boolean default false,
    signatory boolean default false
  )`,
  `create index listinstance_history_details_history on listinstance_history_details (listinstance_history_id)`,
  `create index listinstance_history_details_res on listinstance_history_details (res_id, difflist_type)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table listinstance_history_details').execute(db)
  await sql.raw('drop table listinstance_history').execute(db)
}
