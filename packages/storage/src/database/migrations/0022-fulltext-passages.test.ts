import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../../testing/src/databases/test-database.js'
import { DatabaseFullTextIndex } from '../../fulltext/database-fulltext-index.js'
import { databaseFullText } from '../../search/compile-clause.js'
import { type MailroomDatabase, openDatabase } from '../open-database.js'
import { MIGRATIONS, migrateToLatest } from './index.js'

const PASSAGES = '0022-fulltext-passages'

/** Filler words of a long report: none of them is searched for. */
const FILLER = ['le', 'conseil', 'municipal', 'délibère', 'sur', 'le', 'budget', 'des', 'écoles', 'et', 'voiries']

/** `words` filler words, with `marks` put in at the given word positions. */
function report(words: number, marks: Record<number, string> = {}): string {
  return Array.from({ length: words }, (_, i) => marks[i] ?? FILLER[i % FILLER.length]).join(' ')
}

describe('migration 0022: passages of the long texts, for their excerpts', () => {
  let database: TestDatabase
  let opened: MailroomDatabase
  let db: Kysely<any>
  let resId = 0
  const index = () => new DatabaseFullTextIndex(db)

  async function put(fileId: number, text: string): Promise<void> {
    await index().put({ fileKind: 'attachment', fileId, resId, language: 'fr', text })
  }

  async function passages(fileId: number): Promise<string[]> {
    const { rows } = await sql<{ content: string }>`select content from fulltext_passages
      where file_kind = 'attachment' and file_id = ${fileId} order by seq`.execute(db)
    return rows.map((row) => row.content)
  }

  /** The excerpt the port's search writes for `words`, for the file `fileId`. */
  async function excerpt(words: string, fileId: number): Promise<string | null | undefined> {
    const found = await index().search({ words, language: 'fr', limit: 20 })
    return found.find((candidate) => candidate.fileId === fileId)?.excerpt
  }

  beforeAll(async () => {
    database = await createTestDatabase()
    opened = await openDatabase(database.target)
    db = opened.db
    await migrateToLatest(db, Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name !== PASSAGES)))
    const { rows } = await sql<{
      res_id: number
    }>`insert into res_letterbox (typist, category_id, model_id, destination)
      values (1, 'incoming', 1, 'PJS') returning res_id`.execute(db)
    resId = Number(rows[0]!.res_id)
    // Kept before the migration: a long one, whose passages the migration makes, and a short one.
    await put(1, report(9_000, { 8500: 'gymnase' }))
    await put(2, 'La toiture du gymnase fuit')
    const result = await migrateToLatest(db)
    expect(result.results?.map((r) => [r.migrationName, r.status])).toEqual([[PASSAGES, 'Success']])
  }, 120_000)

  afterAll(async () => {
    await opened?.close()
    await database?.drop()
  })

  it('cuts the long texts kept before it into passages, and leaves the short ones whole', async () => {
    const text = report(9_000, { 8500: 'gymnase' })
    const cut = await passages(1)
    expect(cut).toHaveLength(Math.ceil(text.length / 8_000))
    for (const passage of cut) expect(passage.length).toBeLessThanOrEqual(8_400)
    // Each passage is a run of the text's whole words: its first and last cut words dropped, none made up.
    for (const passage of cut) expect(text).toContain(passage)
    for (const passage of cut.slice(1)) expect(FILLER).toContain(passage.split(' ')[0])
    expect(await passages(2)).toEqual([])
  })

  it("writes a long text's excerpt from the passage holding the word, as the whole text gives it", async () => {
    const found = await excerpt('gymnase', 1)
    expect(found).toContain('**gymnase**')
    const { rows } = await sql<{ whole: string }>`select ts_headline('mailroom_fr', content,
        websearch_to_tsquery('mailroom_fr', 'gymnase'), 'StartSel=**, StopSel=**, MaxWords=35, MinWords=12,
        MaxFragments=2, FragmentDelimiter=" … "') as whole from fulltext_texts where file_id = 1`.execute(db)
    expect(found).toBe(rows[0]!.whole)
    // Written from the passage, not the whole text: a word put in the passage alone shows in the excerpt.
    await sql`update fulltext_passages set content = replace(content, 'gymnase', 'gymnase neuf')
      where file_kind = 'attachment' and file_id = 1`.execute(db)
    expect(await excerpt('gymnase', 1)).toContain('**gymnase** neuf')
    expect(await excerpt('gymnase', 2)).toContain('toiture du **gymnase** fuit')
  })

  it('finds a phrase written across the cut between two passages whole in one of them', async () => {
    // Characters 7,992 to 8,008 (from 1): across the 8,000th, where the first cut ends and the second begins.
    const before = report(2_000)
      .slice(0, 7_990)
      .replace(/\s\S*$/, '')
      .padEnd(7_990, ' ')
    const text = `${before} toiture effondrée ${report(3_000)}`
    expect(text.indexOf('toiture effondrée')).toBe(7_991)
    await put(3, text)
    expect((await passages(3)).length).toBeGreaterThan(2)
    expect(await excerpt('"toiture effondrée"', 3)).toMatch(/\*\*toiture\*\* \*\*effondrée\*\*/)
  })

  it("gives the search view's excerpt (POST /rest/res/list) from the passages too", async () => {
    const { rows } = await sql<{ excerpt: string }>`select ${databaseFullText().excerpt(['gymnase'])} as excerpt
      from res_view_letterbox where res_id = ${resId}`.execute(db)
    expect(rows[0]!.excerpt).toContain('**gymnase**')
  })

  it('cuts a text again when it changes, and drops its passages with it', async () => {
    await put(1, report(9_000, { 100: 'piscine' }))
    expect((await passages(1)).some((passage) => passage.includes('gymnase'))).toBe(false)
    expect(await excerpt('piscine', 1)).toContain('**piscine**')
    await put(1, 'Une lettre courte sur la piscine')
    expect(await passages(1)).toEqual([])
    expect(await excerpt('piscine', 1)).toContain('lettre courte sur la **piscine**')
    await put(1, report(3_000))
    expect((await passages(1)).length).toBeGreaterThan(1)
    await index().remove({ fileKind: 'attachment', fileId: 1 })
    expect(await passages(1)).toEqual([])
  })
})
