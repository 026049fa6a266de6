/** The seed of the search benchmarks (search-bench.ts, criteria-search-bench.ts): records loaded in SQL. */
import pg from 'pg'

/**
 * One statement: 1M records spread over the 8 demo destinations, 500 typist ids, 8 statuses, about 4 years
 * of creation dates (about 700 a day), a unique chrono each and 100,000 distinct custom field values (REF-42
 * on 10 records, all for PE); then a diffusion-list entry on every tenth record, spread over 997 user ids
 * (so bbain is on about 100 lists, as in an organisation of that size). Record 123456 goes to PJS so the
 * chrono search finds it for bbain.
 * The secondary indexes of the migrations are dropped for the load and rebuilt from their own definitions.
 */
export async function seedMillionRecords(url: string, recordCount: number): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("set statement_timeout = 0; set maintenance_work_mem = '512MB'; set synchronous_commit = off")
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      "select indexname, indexdef from pg_indexes where schemaname = 'public' and tablename in ('res_letterbox', 'listinstance') and indexname not like '%_pkey'",
    )
    for (const index of indexes.rows) await client.query(`drop index "${index.indexname}"`)
    await client.query(
      `insert into res_letterbox (subject, type_id, typist, category_id, model_id, status, destination, creation_date,
        modification_date, alt_identifier, custom_fields, external_id, priority)
      select 'Courrier ' || g, 101 + g % 5, 1 + (g * 31) % 500, case when g % 3 = 0 then 'outgoing' else 'incoming' end, 1 + (g % 3 = 0)::int,
        (array['NEW','COU','END','VAL','ATT','INIT','EVIS','DEL'])[1 + (g / 7) % 8],
        case when g = 123456 then 'PJS' else (array['VILLE','CAB','DGS','DRH','DSI','PJS','PE','COU'])[1 + g % 8] end,
        timestamptz '2020-01-01 00:00:00+00' + g * interval '2 minutes', timestamptz '2020-01-01 00:00:00+00' + g * interval '2 minutes',
        'MAARCH/2025A/' || g,
        jsonb_build_object('1', 'REF-' || ((g * 7) % 100000), '3', (array['Courrier','Mail','Fax'])[1 + g % 3]),
        jsonb_build_object('msgid', '<' || g || '@bench.example>'),
        'poiuytre1357nbvc'
      from generate_series(1, $1::int) g`,
      [recordCount],
    )
    await client.query(
      `insert into listinstance (res_id, item_id, item_type, item_mode, sequence, difflist_type)
      select res_id, 1 + (res_id * 7919) % 997, 'user_id', 'cc', 0, 'entity_id' from res_letterbox where res_id % 10 = 0`,
    )
    for (const index of indexes.rows) await client.query(index.indexdef)
    await client.query('vacuum analyze res_letterbox')
    await client.query('vacuum analyze listinstance')
  } finally {
    await client.end()
  }
}
