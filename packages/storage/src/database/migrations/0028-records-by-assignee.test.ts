import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../../testing/src/databases/test-database.js'

/** A clerk's basket (`status in (…) and dest_user = @user_id`) is read through the assignee's index. */
let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
})
afterAll(async () => t?.cleanup())

describe('migration 0028: records by their assignee', () => {
  it("counts a clerk's open letters from the (dest_user, status) index", async () => {
    const db = t.mailroom.db
    await db.transaction().execute(async (trx) => {
      // The test database is too small for the planner to prefer an index on its own.
      await sql`set local enable_seqscan = off`.execute(trx)
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select count(*) from res_view_letterbox
        where status in ('NEW', 'COU', 'STDBY', 'ENVDONE') and dest_user = 3`.execute(trx)
      expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('res_letterbox_dest_user_status')
    })
  })
})
