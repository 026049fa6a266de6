import { type Kysely, sql } from 'kysely'

/**
 * A group's members see the baskets given to it: Maarch 20.10 writes a `users_baskets_preferences` row (shown, no
 * colour of their own) for each member when a basket is given to a group and for each of the group's baskets when a
 * user joins it, and removes a member's rows of that group when they leave it. The home page and the perimeter
 * only count baskets with such a row, so without them a clerk of an organisation set up through the document, the
 * administration routes or the demo would see no basket at all. Triggers keep the rule whichever way the rows come
 * (organisation apply, user administration, import); the import then sets the source's own preferences over them.
 */
const UP = [
  `create function basket_preferences_of_new_group_basket() returns trigger language plpgsql as $$
  begin
    insert into users_baskets_preferences (user_serial_id, group_serial_id, basket_id, display)
      select member.user_id, grp.id, new.basket_id, true
      from usergroups grp join usergroup_content member on member.group_id = grp.id
      where grp.group_id = new.group_id
      on conflict (user_serial_id, group_serial_id, basket_id) do nothing;
    return null;
  end $$`,
  `create trigger groupbasket_member_preferences after insert on groupbasket
    for each row execute function basket_preferences_of_new_group_basket()`,
  `create function basket_preferences_of_new_member() returns trigger language plpgsql as $$
  begin
    insert into users_baskets_preferences (user_serial_id, group_serial_id, basket_id, display)
      select new.user_id, grp.id, given.basket_id, true
      from usergroups grp join groupbasket given on given.group_id = grp.group_id
      where grp.id = new.group_id
      on conflict (user_serial_id, group_serial_id, basket_id) do nothing;
    return null;
  end $$`,
  `create trigger usergroup_content_basket_preferences after insert on usergroup_content
    for each row execute function basket_preferences_of_new_member()`,
  `create function basket_preferences_of_leaving_member() returns trigger language plpgsql as $$
  begin
    delete from users_baskets_preferences
      where user_serial_id = old.user_id and group_serial_id = old.group_id;
    return null;
  end $$`,
  `create trigger usergroup_content_leaving_basket_preferences after delete on usergroup_content
    for each row execute function basket_preferences_of_leaving_member()`,
  `insert into users_baskets_preferences (user_serial_id, group_serial_id, basket_id, display)
    select member.user_id, grp.id, given.basket_id, true
    from groupbasket given
    join usergroups grp on grp.group_id = given.group_id
    join usergroup_content member on member.group_id = grp.id
    on conflict (user_serial_id, group_serial_id, basket_id) do nothing`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger usergroup_content_leaving_basket_preferences on usergroup_content').execute(db)
  await sql.raw('drop trigger usergroup_content_basket_preferences on usergroup_content').execute(db)
  await sql.raw('drop trigger groupbasket_member_preferences on groupbasket').execute(db)
  await sql.raw('drop function basket_preferences_of_leaving_member()').execute(db)
  await sql.raw('drop function basket_preferences_of_new_member()').execute(db)
  await sql.raw('drop function basket_preferences_of_new_group_basket()').execute(db)
}
