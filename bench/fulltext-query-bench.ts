/**
 * Full-text query latency (issue #35's target: p99 <= 100 ms on 1,000,000 records with text, within a clerk's
 * perimeter), not a test. BENCH_TEXT_RECORDS records (default 1,000,000; the seed of million-records.ts) with
 * sixty words of text each (fulltext-records.ts), then, one query at a time, as bbain (AGENT: destinations PJS
 * and PE, about a quarter of the records, plus the diffusion lists naming bbain):
 *
 * - `POST /rest/res/list` with `fulltext('…')`: res_id, subject and the excerpt of the best 20 by rank, and of the
 *   newest 20 (`orderBy: ['res_id desc']`, as the console's search page orders);
 * - `POST /rest/search` with the `fulltext` criterion (every match's id in creation order, facets, a page of 10);
 *
 * each beside two baselines in the same run, run directly through `pg`: the bare SQL of the same match, ranked,
 * within the same perimeter, as one would write it by hand (on the records' words, the perimeter's memberships
 * read into an array; ids only, no excerpt: until 2026-11-29 a join of `fulltext_texts` and `res_letterbox`),
 * and the words alone (the tsquery on `fulltext_texts`, ranked, limit 20, no perimeter: the text
 * matching every answer pays for), with the ratios. One query in two looks for one word (about 1.2 % of the
 * letters hold it), the others for two; a last round looks for a word every tenth letter holds. A query that
 * fails (the 15 s statement timeout of a saturated machine) is counted and left out of the latencies.
 *
 *   pnpm --filter @mailroom/bench bench:fulltext-query (after pnpm build)
 *   BENCH_TEXT_RECORDS, BENCH_QUERIES (per kind, default 200), TEST_DATABASE_URL;
 *   BENCH_DATABASE_URL: a database to seed once and keep (reused when already seeded) instead of a fresh one
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SESSION_SETTINGS_SQL } from '@mailroom/storage'
import { createTestDatabase } from '@mailroom/testing'
import pg from 'pg'
import { quantile } from './bench-kit.js'
import { FREQUENT_WORD, FULLTEXT_VOCABULARY, seedFulltextTexts } from './fulltext-records.js'
import { seedMillionRecords } from './million-records.js'
import { queryBenchMailroom } from './query-bench-mailroom.js'

const TEXT_RECORDS = Number(process.env.BENCH_TEXT_RECORDS ?? 1_000_000)
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200)
const P99_TARGET_MS = 100
const WARM_UP_QUERIES = 50

/** bbain's perimeter as the floor writes it: the AGENT group's destinations, typist, diffusion lists. */
const FLOOR_PERIMETER = `(r.destination in ('PJS', 'PE') or r.typist = 3
  or r.res_id = any(array(select li.res_id from listinstance li where (li.item_type = 'user_id' and li.item_id = 3)
    or (li.item_type = 'entity_id' and li.item_id = any(array(select e.id from users_entities ue join entities e on e.entity_id = ue.entity_id where ue.user_id = 3))))))`

const ms = (value: number) => `${value.toFixed(1)} ms`

/** One word in two queries, two words in the others. */
const wordsOf = (i: number) =>
  i % 2 === 0
    ? `mot${(i * 7) % FULLTEXT_VOCABULARY}`
    : `mot${(i * 7) % FULLTEXT_VOCABULARY} mot${(i * 13 + 1) % FULLTEXT_VOCABULARY}`

interface Latencies {
  p50: number
  p99: number
}

function summary(values: number[]): Latencies {
  values.sort((a, b) => a - b)
  return { p50: quantile(values, 0.5), p99: quantile(values, 0.99) }
}

async function seeded(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  const count = async (table: string) =>
    Number((await client.query<{ n: string }>(`select count(*) as n from ${table}`)).rows[0]?.n ?? 0)
  try {
    const started = performance.now()
    if ((await count('res_letterbox')) < TEXT_RECORDS) await seedMillionRecords(url, TEXT_RECORDS)
    if ((await count('fulltext_texts')) < TEXT_RECORDS) await seedFulltextTexts(url)
    const seconds = (performance.now() - started) / 1000
    console.log(
      `${(await count('fulltext_texts')).toLocaleString('en')} records with text (${(await count('res_letterbox')).toLocaleString('en')} records)${seconds > 1 ? `, seeded in ${seconds.toFixed(0)} s` : ', seeded before'}`,
    )
  } finally {
    await client.end()
  }
}

async function measure(url: string, docserverDir: string): Promise<void> {
  const mailroom = await queryBenchMailroom(url, docserverDir)
  const client = new pg.Client({ connectionString: url })
  try {
    await seeded(url)
    await client.connect()
    // The baselines run with the session settings Mailroom's own connections get (working memory, no JIT).
    await client.query(SESSION_SETTINGS_SQL)
    const buffers = await client.query<{ shared_buffers: string }>('show shared_buffers')
    console.log(`PostgreSQL shared_buffers ${buffers.rows[0]?.shared_buffers}`)
    const bbain = await mailroom.auth.authenticatePassword('bbain', 'maarch')
    // Ranked (no ordering of the caller's), or newest first as the console's search page asks (`res_id desc`).
    const list = async (words: string, orderBy: string[] = []) => {
      const { hits } = await mailroom.search.find(bbain, {
        select: 'res_id, subject, fulltext_excerpt',
        clause: `fulltext('${words}')`,
        orderBy,
        limit: 20,
      })
      for await (const _ of hits as AsyncIterable<unknown>);
    }
    const criteria = (words: string) =>
      mailroom.criteriaSearch.search(bbain, { fulltext: { values: words } }, { limit: '10' })
    const floor = (words: string) =>
      client.query(
        `select r.res_id from res_letterbox r
         where r.fulltext_document @@ websearch_to_tsquery('mailroom_fr', $1) and ${FLOOR_PERIMETER}
         order by ts_rank_cd(r.fulltext_document, websearch_to_tsquery('mailroom_fr', $1)) desc, r.res_id limit 20`,
        [words],
      )
    const words = (text: string) =>
      client.query(
        `select res_id from fulltext_texts where document @@ websearch_to_tsquery('mailroom_fr', $1)
         order by ts_rank_cd(document, websearch_to_tsquery('mailroom_fr', $1)) desc, res_id limit 20`,
        [text],
      )
    // A server that has been answering holds its tables in its buffers: read them once into PostgreSQL's own
    // (pg_prewarm's `buffer` mode, where the extension is available; what shared_buffers cannot hold stays in the
    // OS cache, as long as the machine keeps it), so that the first queries do not measure the disk.
    await client
      .query(
        `create extension if not exists pg_prewarm;
         select pg_prewarm(c.oid::regclass, 'buffer') from pg_class c
         where c.relname in ('fulltext_texts', 'fulltext_texts_document', 'fulltext_texts_res', 'res_letterbox',
           'res_letterbox_pkey', 'res_letterbox_fulltext_perimeter', 'res_letterbox_fulltext_document', 'listinstance')`,
      )
      .catch((error: Error) => console.log(`(no prewarm: ${error.message})`))
    // Warm-up, on words the measurement does not ask: prepared plans, caches, the perimeter's entity tree, and
    // the connections' own first reads of PostgreSQL's shared buffers (with large buffers on this kind of
    // virtual machine, a new connection's first queries run 2-3 times slower, 20 or so queries long).
    for (let i = QUERIES; i < QUERIES + WARM_UP_QUERIES; i++)
      await Promise.all([list(wordsOf(i)), criteria(wordsOf(i)), floor(wordsOf(i))])
    let failures = 0
    const timed = async (times: number[], run: () => Promise<unknown>) => {
      const started = performance.now()
      try {
        await run()
        times.push(performance.now() - started)
      } catch (error) {
        if (failures++ === 0) console.log(`first failure: ${(error as Error).message}`)
      }
    }
    const rounds: { name: string; words: (i: number) => string; queries: number }[] = [
      { name: 'one or two rare words (1.2 % / 0.01 % of letters)', words: wordsOf, queries: QUERIES },
      { name: `a common word ("${FREQUENT_WORD}", 10 % of letters)`, words: () => FREQUENT_WORD, queries: 10 },
    ]
    for (const round of rounds) {
      const times = {
        list: [] as number[],
        newest: [] as number[],
        criteria: [] as number[],
        floor: [] as number[],
        words: [] as number[],
      }
      failures = 0
      // Interleaved, so that the machine's drift weighs on each alike.
      for (let i = 0; i < round.queries; i++) {
        const text = round.words(i)
        await timed(times.list, () => list(text))
        await timed(times.newest, () => list(text, ['res_id desc']))
        await timed(times.criteria, () => criteria(text))
        await timed(times.floor, () => floor(text))
        await timed(times.words, () => words(text))
      }
      const [l, n, c, f, w] = [
        summary(times.list),
        summary(times.newest),
        summary(times.criteria),
        summary(times.floor),
        summary(times.words),
      ]
      console.log(`\n${round.name}, ${round.queries} queries each, as bbain, ${failures} failed:`)
      console.log(`  bare SQL (match, perimeter, rank, limit 20): p50 ${ms(f.p50)}, p99 ${ms(f.p99)}`)
      console.log(`  the words alone (tsquery, rank, limit 20, no perimeter): p50 ${ms(w.p50)}, p99 ${ms(w.p99)}`)
      console.log(
        `  POST /rest/res/list fulltext(…) (rank, excerpt, limit 20): p50 ${ms(l.p50)}, p99 ${ms(l.p99)} (${(l.p99 / f.p99).toFixed(2)}× the bare SQL's p99, ${(l.p99 / w.p99).toFixed(2)}× the words alone)${l.p99 <= P99_TARGET_MS ? '' : `, above the ${P99_TARGET_MS} ms target`}`,
      )
      console.log(
        `  POST /rest/res/list fulltext(…) newest first (orderBy res_id desc, excerpt, limit 20): p50 ${ms(n.p50)}, p99 ${ms(n.p99)}`,
      )
      console.log(
        `  POST /rest/search fulltext (all ids, facets, page of 10): p50 ${ms(c.p50)}, p99 ${ms(c.p99)} (${(c.p99 / f.p99).toFixed(2)}× the bare SQL's p99, ${(c.p99 / w.p99).toFixed(2)}× the words alone)`,
      )
    }
  } finally {
    await client.end().catch(() => {})
    await mailroom.close()
  }
}

async function main(): Promise<void> {
  console.log(`Mailroom full-text query benchmark (load average ${(await import('node:os')).loadavg()[0]?.toFixed(1)})`)
  const docserverDir = await mkdtemp(join(tmpdir(), 'mailroom-fulltext-query-bench-'))
  const kept = process.env.BENCH_DATABASE_URL
  const database = kept === undefined ? await createTestDatabase('postgres') : null
  try {
    await measure(kept ?? (database?.url as string), docserverDir)
  } finally {
    await database?.drop()
    await rm(docserverDir, { recursive: true, force: true })
  }
}

await main()
