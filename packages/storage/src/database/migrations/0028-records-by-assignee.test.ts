import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../../testing/src/databases/test-database.js'

/**
 * A clerk's basket (`status in (…) and dest_user = @user_id`) is read through the assignee's index, among 20,000
 * letters shared by 400 clerks (on a handful of letters the planner may take any index: 0030's also holds the
 * status).
 */
let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
  await sql`insert into res_letterbox (subject, type_id, typist, category_id, model_id, status, destination, dest_user)
    select 'Courrier ' || g, 101, 1, 'incoming', 1, (array['END', 'NEW', 'COU', 'VAL'])[1 + g % 4],
      (array['PJS', 'PE', 'DGS'])[1 + g % 3], 100 + g % 400
    from generate_series(1, 20000) g`.execute(t.mailroom.db)
  await sql`analyze res_letterbox`.execute(t.mailroom.db)
})
afterAll(async () => t?.cleanup())

describe('migration 0028: records by their assignee', () => {
  it("counts a clerk's open letters from the (dest_user, status) index", async () => {
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select count(*) from res_view_letterbox
      where status in ('NEW', 'COU', 'STDBY', 'ENVDONE') and dest_user = 3`.execute(t.mailroom.db)
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('res_letterbox_dest_user_status')
  })
})
