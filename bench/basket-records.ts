/**
 * The seed of the baskets benchmark (baskets-bench.ts): the publisher's sample baskets for the demo's AGENT group
 * (bbain's), and records loaded in SQL so that each of bbain's baskets holds what a clerk's would.
 */
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { publisherBaskets } from '../packages/testing/src/fixtures/publisher-baskets.js'

/** The statuses the sample's AGENT baskets name that the demo organisation does not define. */
const SAMPLE_STATUSES = ['STDBY', 'ENVDONE', 'EAVIS', 'EENV', 'ESIG', 'ATT_MP', 'REJ_SIGN', 'SSUITE', 'REP']

/**
 * Status by `(g * 7 + g / 500) % 20`, so that the first records, and bbain's every 500th, cover them all: 45 % closed, 5 % each of the others
 * (MyBasket's four open statuses hold 20 % of a clerk's letters).
 */
const STATUS_WHEEL = [
  ...Array<string>(9).fill('END'),
  'NEW',
  'COU',
  'STDBY',
  'ENVDONE',
  'EAVIS',
  'EENV',
  'ESIG',
  'EVIS',
  'INIT',
  'VAL',
  'DEL',
]

/**
 * Gives the AGENT group the sample's baskets the demo does not already give it (their clauses as the sample writes
 * them, its own list display); the members' preference rows follow from migration 0026's triggers. Returns the
 * baskets given, or why the sample is absent (then bbain keeps the demo's two AGENT baskets).
 */
export async function giveSampleBaskets(client: pg.Client): Promise<{ given: string[] } | { missing: string }> {
  // Beside the repository, seen from bench/dist/ (tests find it beside packages/testing/src/fixtures/).
  const sample = publisherBaskets(
    process.env.MAILROOM_MAARCH_FIXTURES ||
      fileURLToPath(new URL('../../../shared/fixtures/maarch-20.10', import.meta.url)),
  )
  if ('missing' in sample) return sample
  const given: string[] = []
  for (const [order, basket] of sample.baskets.entries()) {
    if (!basket.groups.includes('AGENT')) continue
    await client.query(
      `insert into baskets (basket_id, basket_name, basket_desc, basket_clause, basket_order)
       values ($1, $1, $1, $2, $3) on conflict (basket_id) do nothing`,
      [basket.basketId, basket.clause, 1000 + order],
    )
    await client.query(
      `insert into groupbasket (group_id, basket_id, list_display, list_event, list_event_data)
       select 'AGENT', $1, list_display, list_event, list_event_data from groupbasket
       where group_id = 'AGENT' and basket_id = 'MyBasket' on conflict (group_id, basket_id) do nothing`,
      [basket.basketId],
    )
    given.push(basket.basketId)
  }
  return { given }
}

/**
 * One statement per table, secondary indexes dropped for the load and rebuilt from their own definitions:
 * - records 1–20 and every 500th are bbain's (user 3) letters to PJS (2,020 at a million); records with
 *   g % 50 in (1, 2) go to PJS and PE for a colleague (user 5); the rest to the six other demo entities for 400
 *   other users. Statuses by STATUS_WHEEL; creation dates spread over the 4 years up to now, a processing limit 30 days
 *   later for incoming letters (so the sample's "late" basket holds most of its entities' letters, as 20.10's
 *   clause, which never leaves out closed letters, would); custom field 1 a date on every 1,000th record.
 * - diffusion lists: every letter's `dest` user; a user in copy on every 10th (bbain on about 100), an entity in copy
 *   on every 100th; an `avis` entry on every letter awaiting an opinion (bbain's on every 100th), a third of them
 *   given; bbain has read half the letters copied to her.
 */
export async function seedBasketRecords(url: string, recordCount: number): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("set statement_timeout = 0; set maintenance_work_mem = '512MB'; set synchronous_commit = off")
    const statusColumns = (
      await client.query<{ column_name: string }>(
        "select column_name from information_schema.columns where table_schema = 'public' and table_name = 'status' and column_name not in ('id', 'identifier', 'label_status')",
      )
    ).rows.map((r) => `"${r.column_name}"`)
    await client.query(
      `insert into status (id, label_status, ${statusColumns.join(', ')})
       select s.id, s.id, ${statusColumns.map((c) => `n.${c}`).join(', ')} from unnest($1::text[]) s(id), status n
       where n.id = 'NEW' on conflict (id) do nothing`,
      [SAMPLE_STATUSES],
    )
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      "select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename in ('res_letterbox', 'listinstance') and indexname not like '%_pkey'",
    )
    for (const index of indexes.rows) await client.query(`drop index "${index.indexname}"`)
    await client.query(
      `insert into res_letterbox (subject, type_id, typist, category_id, model_id, status, destination, dest_user,
        creation_date, modification_date, process_limit_date, alt_identifier, custom_fields, external_id, priority)
      select 'Courrier ' || g, 101 + g % 5, 1 + (g * 31) % 500, case when g % 3 = 0 then 'outgoing' else 'incoming' end,
        1 + (g % 3 = 0)::int, ($2::text[])[1 + (g * 7 + g / 500) % 20],
        case when mine then 'PJS' when g % 50 = 1 then 'PJS' when g % 50 = 2 then 'PE'
          else (array['VILLE','CAB','DGS','DRH','DSI','COU'])[1 + g % 6] end,
        case when mine then 3 when g % 50 in (1, 2) then 5 else 100 + g % 400 end,
        created, created, case when g % 3 <> 0 then created + interval '30 days' end,
        'MAARCH/2025A/' || g,
        case when g % 1000 = 0 then jsonb_build_object('1', to_char(date '2026-01-01' + (g / 1000) % 365, 'YYYY-MM-DD')) else '{}' end,
        jsonb_build_object('msgid', '<' || g || '@bench.example>'),
        'poiuytre1357nbvc'
      from generate_series(1, $1::int) g,
        lateral (select g <= 20 or g % 500 = 0 as mine, now() - ($1::int - g)::float8 / $1::int * interval '1460 days' as created) x`,
      [recordCount, STATUS_WHEEL],
    )
    await client.query(
      `insert into listinstance (res_id, item_id, item_type, item_mode, sequence, difflist_type, process_date)
      select res_id, coalesce(dest_user, 1), 'user_id', 'dest', 0, 'entity_id', null::timestamptz from res_letterbox
      union all
      select res_id, 1 + (res_id * 7919) % 997, 'user_id', 'cc', 1, 'entity_id', null from res_letterbox where res_id % 10 = 0
      union all
      select r.res_id, e.id, 'entity_id', 'cc', 2, 'entity_id', null from res_letterbox r
        join entities e on e.entity_id = (array['VILLE','CAB','DGS','DRH','DSI','PJS','PE','COU'])[1 + (r.res_id / 100) % 8]
        where r.res_id % 100 = 0
      union all
      select res_id, case when res_id % 100 = 0 then 3 else 100 + res_id % 400 end, 'user_id', 'avis', 3, 'entity_id',
        case when res_id % 3 = 0 then now() end from res_letterbox where status = 'EAVIS'`,
    )
    await client.query(
      `insert into res_mark_as_read (res_id, user_id, basket_id)
      select res_id, 3, 'CopyMailBasket' from listinstance where item_type = 'user_id' and item_id = 3 and item_mode = 'cc' and res_id % 20 = 0`,
    )
    for (const index of indexes.rows) await client.query(index.indexdef)
    for (const table of ['res_letterbox', 'listinstance', 'res_mark_as_read', 'status'])
      await client.query(`vacuum analyze ${table}`)
  } finally {
    await client.end()
  }
}
