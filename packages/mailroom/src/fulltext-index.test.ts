import type { Actor, ExtractedText, ExtractionInput, SearchHit, TextExtractor } from '@mailroom/core'
import { DatabaseFullTextIndex } from '@mailroom/storage'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../testing/src/databases/test-database.js'
import { MemoryFullTextIndex } from '../../testing/src/fulltext/memory-fulltext-index.js'

/** Reads plain text files as they are: no tools needed. */
const PLAIN_TEXT: TextExtractor = {
  async extract(input: ExtractionInput): Promise<ExtractedText> {
    return { text: new TextDecoder().decode(input.bytes), method: 'plain', ocrPages: 0 }
  },
}

describe('an external full-text index passed to createMailroom', () => {
  let t: TestMailroom
  let cchaplin: Actor
  let bbain: Actor
  const index = new MemoryFullTextIndex()
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    t = await createTestMailroom({ fulltext: { workers: 0, extractor: PLAIN_TEXT, index } })
    cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    bbain = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
    const create = async (name: string, text: string, destination: number) => {
      const body = {
        modelId: 1,
        status: 'NEW',
        destination,
        format: 'txt',
        encodedFile: Buffer.from(text).toString('base64'),
      }
      ids[name] = (await t.mailroom.records.create(cchaplin, body)).resId
    }
    // PJS (6) is in bbain's perimeter (AGENT), DRH (4) is not; cchaplin sees every record.
    await create('roof', 'La toiture du gymnase fuit. Le gymnase est fermé.', 6)
    await create('pool', 'La piscine du gymnase rouvre en septembre.', 6)
    await create('outside', 'Le gymnase de la DRH : toiture refaite.', 4)
    expect(await t.mailroom.fulltext.drain()).toBe(3)
  }, 180_000)
  afterAll(async () => t?.cleanup())

  async function found(actor: Actor, clause: string, select = 'res_id'): Promise<Record<string, unknown>[]> {
    const { hits } = await t.mailroom.search.find(actor, { select, clause })
    const rows: Record<string, unknown>[] = []
    for await (const hit of hits as AsyncIterable<SearchHit>) rows.push(hit.record)
    return rows
  }

  it('receives the text of every extracted file', () => {
    expect(index.files()).toEqual([`resource:${ids.roof}`, `resource:${ids.pool}`, `resource:${ids.outside}`].sort())
  })

  it("answers the searches, ranked by the engine, with its excerpts, within the caller's perimeter", async () => {
    index.searches.length = 0
    // The engine ranks by occurrences: "gymnase" twice in the roof letter, once in the pool letter.
    expect(await found(bbain, "fulltext('gymnase')", 'res_id, fulltext_excerpt')).toEqual([
      { res_id: ids.roof, fulltext_excerpt: 'la toiture du **gymnase** fuit le **gymnase** est ferme' },
      { res_id: ids.pool, fulltext_excerpt: 'la piscine du **gymnase** rouvre en septembre' },
    ])
    expect(index.searches).toEqual(['gymnase'])
    // The engine proposes the DRH letter; the database keeps it out of bbain's answer, not out of cchaplin's.
    expect(await found(bbain, "fulltext('toiture')")).toEqual([{ res_id: ids.roof }])
    expect(await found(cchaplin, "fulltext('toiture')")).toEqual([{ res_id: ids.roof }, { res_id: ids.outside }])
    expect(await found(bbain, "fulltext('gymnase') and res_id <> 0", 'res_id')).toHaveLength(2)
    expect(await found(bbain, `fulltext('piscine') or res_id = ${ids.outside}`)).toEqual([{ res_id: ids.pool }])
    const criteria = await t.mailroom.criteriaSearch.search(bbain, { fulltext: { values: 'toiture' } }, {})
    expect(criteria.allResources).toEqual([ids.roof])
    expect(index.searches).toContain('toiture')
  })

  it('is the only index asked: words the database holds but the engine does not find nothing', async () => {
    await index.remove({ fileKind: 'resource', fileId: ids.pool as number })
    expect(await found(bbain, "fulltext('piscine')")).toEqual([])
    expect(await found(cchaplin, "fulltext('piscine')")).toEqual([])
    // The database's own index still holds the words: it was not asked.
    const own = await new DatabaseFullTextIndex(t.mailroom.db).search({ words: 'piscine', language: 'fr', limit: 10 })
    expect(own.map((c) => c.resId)).toEqual([ids.pool])
  })

  it('drops candidates whose file has no kept text any more, however late the engine hears of it', async () => {
    await t.mailroom.db
      .deleteFrom('fulltext_texts')
      .where('res_id', '=', ids.roof as number)
      .execute()
    expect(index.files()).toContain(`resource:${ids.roof}`)
    expect(await found(cchaplin, "fulltext('toiture')")).toEqual([{ res_id: ids.outside }])
  })
})
