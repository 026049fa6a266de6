import type { PerimeterContext } from '@mailroom/core/internal'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../../testing/src/databases/test-database.js'
import { basketClauseCondition } from '../../perimeter/basket-perimeter.js'
import { PerimeterGuard } from '../../perimeter/perimeter-guard.js'
import { KyselyUserRepository } from '../../users/kysely-user-repository.js'

/**
 * The plans of baskets' counts of the shapes the publisher's sample writes, as a basket compiles them, over 20,000
 * letters spread as a service's are (eight entities, 400 clerks, ten statuses): each reads the indexes of
 * migration 0030 (and the primary key for its sets of records) rather than every letter.
 */
let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
  const db = t.mailroom.db
  await sql`insert into res_letterbox (subject, type_id, typist, category_id, model_id, status, destination, dest_user,
      process_limit_date, custom_fields)
    select 'Courrier ' || g, 101, 1, 'incoming', 1,
      (array['END', 'END', 'END', 'END', 'NEW', 'COU', 'EVIS', 'ATT', 'VAL', 'DEL'])[1 + g % 10],
      (array['VILLE', 'CAB', 'DGS', 'DRH', 'DSI', 'PJS', 'PE', 'COU'])[1 + g / 10 % 8],
      case when g % 200 = 0 then 3 else 100 + g % 400 end, now() - (g % 100) * interval '1 day',
      case when g % 1000 = 0 then '{"1": "2026-01-01"}'::jsonb else '{}'::jsonb end
    from generate_series(1, 20000) g`.execute(db)
  await sql`insert into listinstance (res_id, item_id, item_type, item_mode, sequence, difflist_type)
    select res_id, dest_user, 'user_id', 'dest', 0, 'entity_id' from res_letterbox
    union all select res_id, 3, 'user_id', 'cc', 1, 'entity_id' from res_letterbox where res_id % 100 = 0
    union all select res_id, 6, 'entity_id', 'cc', 2, 'entity_id' from res_letterbox where res_id % 50 = 0`.execute(db)
  await sql`vacuum analyze res_letterbox`.execute(db)
  await sql`vacuum analyze listinstance`.execute(db)
  const actor = await new KyselyUserRepository(db).loadActor(3)
  bbain = await new PerimeterGuard({ info() {}, warn() {}, error() {} }).macroContext(db, actor!)
})
afterAll(async () => t?.cleanup())

/** The demo clerk bbain's macros (entity PJS, PE below it), as her baskets are expanded with. */
let bbain: PerimeterContext

/** The plan of a basket's count. */
async function countPlan(clause: string): Promise<string> {
  const condition = basketClauseCondition({ basketId: 'B', basketName: 'B', clause }, bbain)
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select count(*) from res_view_letterbox
    where ${condition}`.execute(t.mailroom.db)
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}

/** Occurrences of `text` in `plan`. */
const times = (plan: string, text: string) => plan.split(text).length - 1

describe('migration 0030: the indexes of baskets', () => {
  it.each([
    {
      basket: "an entity's late letters, counted from the index alone through the view",
      clause:
        "destination in (@my_entities, @subentities[@my_primary_entity]) and status <> 'DEL' and now() > process_limit_date",
      reads: { 'Index Only Scan using res_letterbox_destination_status': 1 },
    },
    {
      basket: 'the copies a clerk and her entities receive, from the list index then by primary key',
      clause:
        "(res_id in (select res_id from listinstance where item_type = 'user_id' and item_id = @user_id and item_mode = 'cc') or res_id in (select res_id from listinstance where item_type = 'entity_id' and item_mode = 'cc' and item_id in (@my_entities_id))) and status not in ('DEL', 'END')",
      reads: {
        BitmapOr: 1,
        'Bitmap Index Scan on res_letterbox_pkey': 2,
        'Index Only Scan using listinstance_item_mode on listinstance': 2,
      },
    },
    {
      basket:
        'the opinions awaited of a clerk, her colleagues and her entities, by assignee and by destination, each asked of the list index',
      clause:
        "status = 'EVIS' and (dest_user = @user_id or dest_user in (select user_id from users_entities where entity_id in (@my_entities)) or destination in (@subentities[@my_entities])) and res_id in (select res_id from listinstance where item_mode = 'avis' and difflist_type = 'entity_id' and process_date is null and res_view_letterbox.res_id = res_id group by res_id)",
      reads: {
        BitmapOr: 1,
        'Bitmap Index Scan on res_letterbox_dest_user_status': 2,
        'Bitmap Index Scan on res_letterbox_destination_status': 1,
        'Index Only Scan using listinstance_res_mode on listinstance': 1,
      },
    },
    {
      basket: 'the letters holding a custom field, through the JSON index',
      clause: "custom_fields->>'1' is not null and custom_fields->>'1' <> ''",
      reads: { 'Bitmap Index Scan on res_letterbox_custom_fields': 1 },
    },
  ])('$basket', async ({ clause, reads }) => {
    const plan = await countPlan(clause)
    expect(Object.fromEntries(Object.keys(reads).map((text) => [text, times(plan, text)])), plan).toEqual(reads)
    expect(plan).not.toContain('Seq Scan on res_letterbox')
  })
})
