/**
 * Excerpts of long texts (issue #35), not a test. BENCH_EXCERPT_RECORDS records (default 200) in bbain's perimeter,
 * each with one long text (BENCH_EXCERPT_WORDS words, default 30,000: about 210 KB, a long report) holding
 * "gymnase" once, at a place that moves from record to record. Then, one query at a time, interleaved:
 *
 * - `POST /rest/res/list` as bbain, `fulltext('gymnase')`, res_id, subject and the excerpt, limit 20;
 * - the same without the excerpt (what the excerpts add);
 * - in SQL, the twenty excerpts of a page as Mailroom writes them (from each text's best passage, migration 0022)
 *   and as `ts_headline` gives them from the whole texts (the floor this replaces), with the ratio.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext-excerpt (after pnpm build)
 *   BENCH_EXCERPT_RECORDS, BENCH_EXCERPT_WORDS, BENCH_QUERIES (default 50), TEST_DATABASE_URL
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTestDatabase } from '@mailroom/testing'
import pg from 'pg'
import { quantile } from './bench-kit.js'
import { queryBenchMailroom } from './query-bench-mailroom.js'

const RECORDS = Number(process.env.BENCH_EXCERPT_RECORDS ?? 200)
const WORDS = Number(process.env.BENCH_EXCERPT_WORDS ?? 30_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 50)
const FILLER = ['le', 'conseil', 'municipal', 'délibère', 'sur', 'la', 'toiture', 'des', 'écoles', 'et', 'voiries']
const HEADLINE = `'StartSel=**, StopSel=**, MaxWords=35, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "'`

function longText(record: number): string {
  const at = (record * 7_919) % WORDS
  return Array.from({ length: WORDS }, (_, i) =>
    i === at ? 'gymnase' : FILLER[(i * 7 + record) % FILLER.length],
  ).join(' ')
}

async function seed(client: pg.Client): Promise<void> {
  for (let record = 0; record < RECORDS; record++) {
    const { rows } = await client.query<{ res_id: string }>(
      `insert into res_letterbox (typist, category_id, model_id, destination, status, subject)
       values (1, 'incoming', 1, 'PJS', 'NEW', $1) returning res_id`,
      [`Rapport ${record}`],
    )
    const resId = rows[0]!.res_id
    await client.query(
      `insert into fulltext_texts (file_kind, file_id, res_id, method, language, content, document)
       values ('resource', $1, $1, 'text-layer', 'fr', $2::text, to_tsvector('mailroom_fr', $2::text))`,
      [resId, longText(record)],
    )
  }
}

const summary = (values: number[]) => {
  values.sort((a, b) => a - b)
  return { p50: quantile(values, 0.5), p99: quantile(values, 0.99) }
}
const ms = (value: number) => `${value.toFixed(1)} ms`

async function main(): Promise<void> {
  console.log(`Mailroom excerpt benchmark (load average ${loadavg()[0]?.toFixed(1)})`)
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-excerpt-bench-'))
  const database = await createTestDatabase('postgres')
  const mailroom = await queryBenchMailroom(database.url as string, docserverDir)
  const client = new pg.Client({ connectionString: database.url as string })
  try {
    await client.connect()
    const started = performance.now()
    await seed(client)
    const passages = await client.query<{ n: string }>('select count(*) as n from fulltext_passages')
    console.log(
      `${RECORDS} records with a text of ${WORDS.toLocaleString('en')} words (${(longText(0).length / 1024).toFixed(0)} KB), ${passages.rows[0]!.n} passages, seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    const bbain = await mailroom.auth.authenticatePassword('bbain', 'maarch')
    const list = async (select: string) => {
      const { hits } = await mailroom.search.find(bbain, { select, clause: "fulltext('gymnase')", limit: 20 })
      for await (const _ of hits as AsyncIterable<unknown>);
    }
    const page = (await client.query<{ res_id: string }>('select res_id from fulltext_texts order by res_id limit 20'))
      .rows
    const ids = page.map((row) => row.res_id)
    const query = `websearch_to_tsquery('mailroom_fr', 'gymnase')`
    const fromPassages = () =>
      client.query(
        `select (select ts_headline('mailroom_fr', p.content, ${query}, ${HEADLINE}) from fulltext_passages p
           where p.file_kind = ft.file_kind and p.file_id = ft.file_id
           order by p.document @@ ${query} desc, ts_rank(p.document, ${query}) desc, p.seq limit 1)
         from fulltext_texts ft where ft.res_id = any($1::bigint[])`,
        [ids],
      )
    const fromWholeTexts = () =>
      client.query(
        `select ts_headline('mailroom_fr', ft.content, ${query}, ${HEADLINE}) from fulltext_texts ft
         where ft.res_id = any($1::bigint[])`,
        [ids],
      )
    const FROM_PASSAGES = "a page's twenty excerpts, from the passages"
    const FROM_WHOLE_TEXTS = "a page's twenty excerpts, from the whole texts (the floor before)"
    const kinds = {
      'POST /rest/res/list, with the excerpt': () => list('res_id, subject, fulltext_excerpt'),
      'POST /rest/res/list, without it': () => list('res_id, subject'),
      [FROM_PASSAGES]: fromPassages,
      [FROM_WHOLE_TEXTS]: fromWholeTexts,
    }
    const times = Object.fromEntries(Object.keys(kinds).map((name) => [name, [] as number[]]))
    for (let i = 0; i < 5; i++) for (const run of Object.values(kinds)) await run()
    for (let i = 0; i < QUERIES; i++) {
      for (const [name, run] of Object.entries(kinds)) {
        const before = performance.now()
        await run()
        times[name]!.push(performance.now() - before)
      }
    }
    const results = Object.fromEntries(Object.entries(times).map(([name, values]) => [name, summary(values)]))
    console.log(`\n${QUERIES} queries each, as bbain, interleaved:`)
    for (const [name, { p50, p99 }] of Object.entries(results)) console.log(`  ${name}: p50 ${ms(p50)}, p99 ${ms(p99)}`)
    console.log(
      `  excerpts from the passages / from the whole texts (p50): ${(results[FROM_PASSAGES]!.p50 / results[FROM_WHOLE_TEXTS]!.p50).toFixed(2)}`,
    )
  } finally {
    await client.end().catch(() => {})
    await mailroom.close()
    await database.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

await main()
