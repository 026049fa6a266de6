import { type Kysely, sql } from 'kysely'

/**
 * Attachments' files join the full-text queue (migration 0016): a new attachment, or one whose file changes,
 * gets a job of kind `attachment` under its master record, so an attachment's words find the record. A version
 * superseded (`OBS`) or removed (`DEL`) leaves the index: only the words of current attachments count.
 */
const UP = [
  `create function fulltext_enqueue_attachment() returns trigger language plpgsql as $$
  begin
    if new.status in ('OBS', 'DEL') then
      delete from fulltext_texts where file_kind = 'attachment' and file_id = new.res_id;
      delete from fulltext_jobs where file_kind = 'attachment' and file_id = new.res_id;
    elsif new.filename is not null and (tg_op = 'INSERT' or new.filename is distinct from old.filename
        or new.path is distinct from old.path or new.docserver_id is distinct from old.docserver_id) then
      insert into fulltext_jobs (file_kind, file_id, res_id) values ('attachment', new.res_id, new.res_id_master)
      on conflict (file_kind, file_id) do update set state = 'pending', attempts = 0, not_before = now(),
        lease_token = null, leased_by = null, lease_until = null, last_error = null, enqueued_at = now(),
        finished_at = null;
    end if;
    return null;
  end
  $$`,
  `create trigger res_attachments_fulltext after insert or update of filename, path, docserver_id, status
    on res_attachments for each row execute function fulltext_enqueue_attachment()`,
]

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('drop trigger res_attachments_fulltext on res_attachments').execute(db)
  await sql.raw('drop function fulltext_enqueue_attachment()').execute(db)
}
