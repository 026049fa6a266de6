/** The seed of the full-text benchmarks: the text of every record, loaded in SQL. */
import pg from 'pg'

/** Distinct words of the seeded letters ("motNNNN"). */
export const FULLTEXT_VOCABULARY = 5000

/** A word every tenth letter holds (a common word: its matches are ten times those of the others). */
export const FREQUENT_WORD = 'gymnase'

/**
 * One text per record that has no file yet (the records of million-records.ts): sixty words from a
 * vocabulary of 5,000 ("motNNNN"), each drawn by hashing the record and the word's position, so that each word
 * is in about 1.2 % of the letters (an arithmetic draw, `res_id * k * 7919 % 5000`, gave positions k sharing
 * factors with 5,000 only a few words: some words were in 5 % of the letters, others in 0.5 %), "gymnase" in
 * every tenth letter, indexed as the extraction queue would index them (`mailroom_fr`). The GIN indexes are dropped for
 * the load and rebuilt: the texts' own, and the records' words (`res_letterbox.fulltext_document`, migration 0019,
 * with the perimeter's columns since 0023),
 * which the texts' trigger fills in one set-based update at the end of the insert. On a database at a schema
 * before 0019 there is no such column: the migration fills it from the texts when Mailroom opens the database.
 * Returns how many texts were written.
 */
export async function seedFulltextTexts(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query("set statement_timeout = 0; set maintenance_work_mem = '512MB'; set synchronous_commit = off")
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where schemaname = 'public'
       and (tablename = 'fulltext_texts' and indexname not like '%_pkey'
         or indexname in ('res_letterbox_fulltext_document', 'res_letterbox_fulltext_perimeter'))`,
    )
    for (const index of indexes.rows) await client.query(`drop index "${index.indexname}"`)
    const inserted = await client.query(
      `insert into fulltext_texts (file_kind, file_id, res_id, method, language, content, document)
       select 'resource', r.res_id, r.res_id, 'text-layer', 'fr', t.content, to_tsvector('mailroom_fr', t.content)
       from res_letterbox r
       cross join lateral (
         select case when r.res_id % 10 = 0 then 'Le gymnase : ' else '' end
           || string_agg('mot' || ((hashint8(r.res_id * 61 + k)::bigint & 2147483647) % ${FULLTEXT_VOCABULARY}), ' ') as content
         from generate_series(1, 60) k) t
       where r.filename is null
       on conflict do nothing`,
    )
    for (const index of indexes.rows) await client.query(index.indexdef)
    await client.query('vacuum analyze fulltext_texts')
    // Every record with a text was updated once (its words): the old row versions go before the benchmark reads.
    await client.query('vacuum analyze res_letterbox')
    return inserted.rowCount ?? 0
  } finally {
    await client.end()
  }
}
