import { type Kysely, sql } from 'kysely'

/**
 * Records by their assignee (issue 53, speed): most of the sample's clerk baskets select a clerk's own letters
 * (`dest_user = @user_id` with a status or two: MyBasket, EenvBasket, SuiviParafBasket, AR_Create…), and nothing
 * indexed `dest_user`, so at a million records each count, each list, read every letter of its statuses (about
 * 100,000 for MyBasket's four) to keep a few hundred. With the status beside it, the home page's counts and a
 * basket's list read only the clerk's letters.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists res_letterbox_dest_user_status on res_letterbox (dest_user, status)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists res_letterbox_dest_user_status`.execute(db)
}
