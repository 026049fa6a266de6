import { type Kysely, sql } from 'kysely'

/**
 * Diffusion list templates (Maarch 20.10's `list_templates` and `list_templates_items`, same columns): what a
 * department's letters are sent to by default — its assignee (`dest`), its copies (`cc`), … — which 20.10's web
 * client proposes when a letter is redirected to the department or indexed for it
 * (`GET /rest/listTemplates/entities/{entityId}`). `entity_id` is the entity's serial id, as in 20.10; a template
 * with an `owner` is that user's own. A department removed takes its templates with it, as 20.10's entity deletion
 * does; an item names a user or an entity by serial id (`item_type` user or entity), so it has no foreign key.
 */
const UP = [
  `create table list_templates (
    id serial primary key,
    title text not null,
    description text,
    type varchar(32) not null,
    entity_id integer references entities(id) on delete cascade,
    owner integer references users(id) on delete cascade
  )`,
  `create index list_templates_entity on list_templates (entity_id)`,
  `create table list_templates_items (
    id serial primary key,
    list_template_id integer not null references list_templates(id) on delete cascade,
    item_id integer not null,
    item_type varchar(32) not null check (item_type in ('user', 'entity')),
    item_mode varchar(64) not null,
    sequence integer not null
  )`,
  `create index list_templates_items_template on list_templates_items (list_template_id)`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop table list_templates_items').execute(db)
  await sql.raw('drop table list_templates').execute(db)
}
