import { type Kysely, sql } from 'kysely'

/**
 * Indexes for the sample's baskets at a million records (issue 53, speed; docs/benchmarks.md, "Baskets and actions"):
 * - Records by destination, status and processing limit. LateMailBasket (`destination in (…) and status <> … and
 *   now() > process_limit_date`) counts tens of thousands of letters; read from the table, each was a heap page
 *   (about a second). With the status and the limit in the index the count reads the index alone (an index-only
 *   scan). The opinion baskets (`status = 'EAVIS' and (dest_user = … or destination in (…))`) read, for their
 *   `destination` alternative, only the letters of that status. `type_id` is carried because a basket's count
 *   reads the view `res_view_letterbox`, whose joins PostgreSQL removes while still asking the scan for their
 *   columns (the doctype's `type_id`; `destination` is a key): without it no index-only scan is planned through the
 *   view.
 * - Diffusion lists by item and mode, carrying the record and the processing date, in place of `(item_type,
 *   item_id)`: the copy and opinion baskets (`res_id in (select res_id from listinstance where item_type = 'user_id'
 *   and item_id = @user_id and item_mode = 'cc')`) read their letters from the index alone instead of fetching
 *   every list row naming the clerk (2,600 rows for a clerk at a million records, to keep 100). The perimeter's
 *   membership (`item_type` and `item_id`) is served by the same index.
 * - Diffusion lists by record and mode, carrying the list's type and the processing date, in place of `(res_id)`: the
 *   opinion baskets ask, for each of their candidate letters, whether an opinion is awaited or given
 *   (`res_id in (select res_id from listinstance where item_mode = 'avis' and process_date is null and
 *   res_view_letterbox.res_id = res_id …)`); each question is then answered from the index alone. Reads of a
 *   record's list are served by its first column as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists res_letterbox_destination_status
    on res_letterbox (destination, status, process_limit_date) include (type_id)`.execute(db)
  await sql`create index if not exists listinstance_item_mode
    on listinstance (item_type, item_id, item_mode) include (res_id, process_date)`.execute(db)
  await sql`drop index if exists listinstance_item`.execute(db)
  await sql`create index if not exists listinstance_res_mode
    on listinstance (res_id, item_mode) include (difflist_type, process_date)`.execute(db)
  await sql`drop index if exists listinstance_res`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists listinstance_res on listinstance (res_id)`.execute(db)
  await sql`drop index if exists listinstance_res_mode`.execute(db)
  await sql`create index if not exists listinstance_item on listinstance (item_type, item_id)`.execute(db)
  await sql`drop index if exists listinstance_item_mode`.execute(db)
  await sql`drop index if exists res_letterbox_destination_status`.execute(db)
}
