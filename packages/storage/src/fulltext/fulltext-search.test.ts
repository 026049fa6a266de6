import type { Actor, SearchHit } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { hasTesseract, makeScannedLetter } from '../../../testing/src/fixtures/files/index.js'

/** Words printed on the letters, found again by OCR. */
const SCANNED =
  'Objet : réfection de la toiture du gymnase\nMadame la Directrice,\nla pluie traverse le plafond depuis février.'
const OTHER = 'Objet : concours hippique\nLe centre équestre demande une subvention pour son hippodrome.'

const tools = hasTesseract()
if (!tools) console.warn('full-text search tests skipped: run scripts/install-tesseract.sh')

describe.runIf(tools)('full-text search of scanned letters', () => {
  let t: TestMailroom
  let cchaplin: Actor
  let bbain: Actor
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    // No background workers: the test drains the queue itself, so it knows when the texts are indexed.
    t = await createTestMailroom({ fulltext: { workers: 0, language: 'fr' } })
    cchaplin = await t.mailroom.auth.authenticatePassword('cchaplin', 'maarch')
    bbain = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
    const letter = await makeScannedLetter(SCANNED)
    const other = await makeScannedLetter(OTHER)
    const create = async (name: string, bytes: Uint8Array, format: string, destination: number) => {
      const body = {
        modelId: 1,
        status: 'NEW',
        destination,
        format,
        encodedFile: Buffer.from(bytes).toString('base64'),
      }
      ids[name] = (await t.mailroom.records.create(cchaplin, body)).resId
    }
    await create('image', letter.png, 'png', 6)
    await create('scannedPdf', letter.scannedPdf, 'pdf', 6)
    // In DRH (4): outside bbain's perimeter (AGENT of PJS), inside cchaplin's (every record).
    await create('outside', other.textPdf, 'pdf', 4)
  }, 120_000)
  afterAll(async () => t?.cleanup())

  it('queues every created file in the create, and extracts them from the queue', async () => {
    expect(await t.mailroom.fulltext.status()).toMatchObject({ pending: 3, running: 0, failed: 0, indexed: 0 })
    expect(await t.mailroom.fulltext.drain()).toBe(3)
    expect(await t.mailroom.fulltext.status()).toMatchObject({ pending: 0, running: 0, failed: 0, indexed: 3 })
    const texts = await t.mailroom.db
      .selectFrom('fulltext_texts')
      .select(['res_id', 'method'])
      .orderBy('res_id')
      .execute()
    expect(texts.map((row) => [Number(row.res_id), row.method])).toEqual([
      [ids.image, 'ocr'],
      [ids.scannedPdf, 'ocr'],
      [ids.outside, 'text-layer'],
    ])
  }, 120_000)

  async function found(actor: Actor, words: string, select = 'res_id'): Promise<Record<string, unknown>[]> {
    const clause = `fulltext('${words.replaceAll("'", "''")}')`
    const { hits } = await t.mailroom.search.find(actor, { select, clause })
    const rows: Record<string, unknown>[] = []
    for await (const hit of hits as AsyncIterable<SearchHit>) rows.push(hit.record)
    return rows
  }

  it('finds the scanned image and the scanned PDF by a word printed on them, with and without accents', async () => {
    const both = [{ res_id: ids.image }, { res_id: ids.scannedPdf }]
    expect(await found(bbain, 'gymnase')).toEqual(both)
    expect(await found(bbain, 'réfection')).toEqual(both)
    expect(await found(bbain, 'refection')).toEqual(both)
    expect(await found(bbain, 'REFECTION toitures')).toEqual(both)
    expect(await found(bbain, 'fevrier')).toEqual(both)
  })

  it('gives a short excerpt with the words marked', async () => {
    const [first] = await found(bbain, 'toiture', 'res_id, fulltext_excerpt')
    expect(first?.fulltext_excerpt).toMatch(/\*\*toiture\*\*/)
    expect(String(first?.fulltext_excerpt).length).toBeLessThan(400)
  })

  it('finds nothing outside the caller’s perimeter', async () => {
    expect(await found(bbain, 'hippodrome')).toEqual([])
    expect(await found(bbain, 'équestre')).toEqual([])
    expect(await found(cchaplin, 'equestre')).toEqual([{ res_id: ids.outside }])
  })

  it("finds a record by its attachments' words, within the perimeter; a superseded version's words leave the index", async () => {
    const attach = async (resIdMaster: number, text: string, originId?: number) => {
      const { textPdf } = await makeScannedLetter(text)
      const body = {
        resIdMaster,
        type: 'simple_attachment',
        title: 'Pièce jointe',
        format: 'pdf',
        encodedFile: Buffer.from(textPdf).toString('base64'),
        ...(originId === undefined ? {} : { originId }),
      }
      return (await t.mailroom.attachments.create(cchaplin, body)).id
    }
    const reply = await attach(ids.scannedPdf!, 'Réponse : le bassin de natation rouvrira en septembre.')
    await attach(ids.outside!, 'Annexe : plan du vélodrome municipal.')
    expect(await t.mailroom.fulltext.drain()).toBe(2)
    expect(await found(bbain, 'natation')).toEqual([{ res_id: ids.scannedPdf }])
    expect(await found(bbain, 'velodrome')).toEqual([])
    expect(await found(cchaplin, 'vélodrome')).toEqual([{ res_id: ids.outside }])
    // A new version of the reply: the old one is superseded (OBS), and only the new words find the record.
    const corrected = await attach(ids.scannedPdf!, 'Réponse corrigée : la patinoire rouvrira en octobre.', reply)
    expect(await t.mailroom.fulltext.drain()).toBe(1)
    expect(await found(bbain, 'natation')).toEqual([])
    expect(await found(bbain, 'patinoire')).toEqual([{ res_id: ids.scannedPdf }])
    const criteria = async (words: string) =>
      (await t.mailroom.criteriaSearch.search(bbain, { fulltext: { values: words } }, {})).allResources
    expect(await criteria('patinoire')).toEqual([ids.scannedPdf])
    // The attachment removed: its words no longer find the record, whose own words still do.
    await t.mailroom.db.updateTable('res_attachments').set({ status: 'DEL' }).where('res_id', '=', corrected).execute()
    expect(await found(bbain, 'patinoire')).toEqual([])
    expect(await criteria('patinoire')).toEqual([])
    expect(await found(bbain, 'plafond')).toEqual([{ res_id: ids.image }, { res_id: ids.scannedPdf }])
  }, 120_000)

  it('serves the fulltext criterion of POST /rest/search, within the perimeter', async () => {
    const matches = async (actor: Actor, words: string) =>
      (await t.mailroom.criteriaSearch.search(actor, { fulltext: { values: words } }, {})).allResources
    expect(await matches(bbain, 'refection gymnase')).toEqual(expect.arrayContaining([ids.image, ids.scannedPdf]))
    expect(await matches(bbain, 'hippodrome')).toEqual([])
    expect(await matches(cchaplin, 'hippodrome')).toEqual([ids.outside])
  })

  it('reindexes from the kept text, without extracting again', async () => {
    expect(await t.mailroom.fulltext.reindex()).toEqual({ enqueued: 0, retried: 0, reindexed: 0 })
    // A record that was there before the queue (its job gone): reindex queues it; the kept text serves.
    await t.mailroom.db.deleteFrom('fulltext_jobs').where('res_id', '=', ids.image!).execute()
    expect(await t.mailroom.fulltext.reindex()).toMatchObject({ enqueued: 1 })
    const before = await t.mailroom.db
      .selectFrom('fulltext_texts')
      .select('extracted_at')
      .where('res_id', '=', ids.image!)
      .executeTakeFirstOrThrow()
    const started = Date.now()
    expect(await t.mailroom.fulltext.drain()).toBe(1)
    expect(Date.now() - started).toBeLessThan(2000)
    const after = await t.mailroom.db
      .selectFrom('fulltext_texts')
      .select('extracted_at')
      .where('res_id', '=', ids.image!)
      .executeTakeFirstOrThrow()
    expect(new Date(after.extracted_at).getTime()).toBeGreaterThanOrEqual(new Date(before.extracted_at).getTime())
    expect(await found(bbain, 'gymnase')).toHaveLength(2)
  })
})
