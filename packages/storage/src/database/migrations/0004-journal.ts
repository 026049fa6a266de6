import { type Kysely, sql } from 'kysely'

/**
 * Journal read paths and head protection (issue #7).
 * - `/events` pages walk archive events of one safe in (timestamp, eventId in code point order): a partial
 *   index in exactly that order makes every keyset page an index range scan, whatever the database collation.
 * - journal_heads is the chain's checkpoint: it may only move forward, so rolling a head back over deleted
 *   events takes the same trigger-disabling privilege as deleting the events themselves.
 */
const UP = [
  `create index journal_events_archive_order on journal_events (safe, timestamp, event_id collate "C")
    where object_class = 'recordsManagement/archive'`,
  `create function journal_heads_forward_only() returns trigger language plpgsql as $$
  begin
    if tg_op = 'DELETE' then
      raise exception 'journal heads cannot be deleted';
    end if;
    if new.safe <> old.safe or new.last_sequence <= old.last_sequence then
      raise exception 'journal heads only move forward';
    end if;
    return new;
  end
  $$`,
  `create trigger journal_heads_forward before update or delete on journal_heads
    for each row execute function journal_heads_forward_only()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger journal_heads_forward on journal_heads').execute(db)
  await sql.raw('drop function journal_heads_forward_only()').execute(db)
  await sql.raw('drop index journal_events_archive_order').execute(db)
}
