import { type Kysely, sql } from 'kysely'

/**
 * Notes on records (Maarch 20.10's `notes` and `note_entities`). `identifier` is the record; a note goes with
 * its record. `user_id` is the author without a foreign key, as in Maarch: an imported note keeps its author's id
 * even when that user was deleted in Maarch (the notes read shows no name then). `note_entities.item_id` names an
 * entity_id without a foreign key either: a note restricted to an entity that is later removed stays restricted
 * (to nobody but its author) instead of becoming visible to all.
 *
 * Links between records need no table: they stay in `res_letterbox.linked_resources` (jsonb array of res_id
 * strings) as in Maarch, which the import already carries (docs/architecture.md, "Notes and links").
 */
const UP = [
  `create table notes (
    id serial primary key,
    identifier bigint not null references res_letterbox(res_id) on delete cascade,
    user_id integer not null,
    creation_date timestamptz not null default now(),
    note_text text not null
  )`,
  `create index notes_identifier on notes (identifier, creation_date desc)`,
  `create table note_entities (
    id serial primary key,
    note_id integer not null references notes(id) on delete cascade,
    item_id varchar(50) not null,
    unique (note_id, item_id)
  )`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table note_entities').execute(db)
  await sql.raw('drop table notes').execute(db)
}
