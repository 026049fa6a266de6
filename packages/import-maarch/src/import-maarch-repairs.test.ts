import { createTestMailroom, storedKeys, type TestMailroom } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'

let t: TestMailroom
let source: GeneratedSource
let docservers: { root: string; overrides: Record<string, string> }
let total: number
beforeAll(async () => {
  // Record 3's fingerprint no longer matches its file; record 4 names a file that is not there; record 12 has
  // a status Maarch no longer has (Maarch keeps no foreign keys).
  source = await createGeneratedSource({
    alter: `update res_letterbox set fingerprint = 'abc' where res_id = 3; update res_letterbox set filename = 'gone.pdf' where res_id = 4; update res_letterbox set status = 'GONE' where res_id = 12`,
  })
  total = source.installation.facts.records
  // The root names nothing: every file is found through the per-docserver folders.
  docservers = {
    root: '/nonexistent/maarch-docservers',
    overrides: {
      FASTHD_MAN: `${source.docservers}/resources`,
      CONVERT_MLB: `${source.docservers}/convert_resources`,
      FASTHD_ATTACH: `${source.docservers}/attachments`,
    },
  }
  t = await createTestMailroom({ demo: false })
}, 120_000)
afterAll(async () => {
  await t?.cleanup()
  await source?.drop()
})

describe('an interrupted import with damaged files', () => {
  it('stops between batches, leaving whole batches only, and the next run continues where it stopped', async () => {
    const abort = new AbortController()
    const first = await importCollecting(t.mailroom, {
      from: source.url,
      docservers,
      batchSize: 4,
      jobs: 1,
      signal: abort.signal,
      onProgress: (p) => {
        if (p.records >= 4) abort.abort()
      },
    })
    expect(first.interrupted).toBe(true)
    // The batch in flight when it stopped commits; the next one, already read, is not written.
    const done = first.records.imported.map((r) => r.resId)
    expect(done).toEqual([1, 2, 3, 4])
    expect(first.records.flagged.map((r) => r.resId)).toEqual([3, 4])
    const rows = await t.mailroom.db
      .selectFrom('res_letterbox')
      .select(['res_id', 'filename'])
      .orderBy('res_id')
      .execute()
    expect(rows.map((r) => r.res_id)).toEqual(done)
    // One stored file per record with a file, per converted PDF and per attachment: no orphan.
    const versions = await t.mailroom.db.selectFrom('adr_letterbox').select('id').execute()
    const attachments = await t.mailroom.db.selectFrom('res_attachments').select('res_id').execute()
    expect((await storedKeys(t.documents)).length).toBe(
      rows.filter((r) => r.filename !== null).length + versions.length + attachments.length,
    )

    const second = await importCollecting(t.mailroom, { from: source.url, docservers })
    expect(second.interrupted).toBe(false)
    expect(second.records.skipped.map((r) => r.resId).filter((id) => id !== 12)).toEqual(done)
    expect([...done, ...second.records.imported.map((r) => r.resId)].sort((a, b) => a - b)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1).filter((id) => id !== 12),
    )
    // The refused record is reported, and left no row and no file behind.
    expect(second.records.skipped.find((r) => r.resId === 12)?.reason).toMatch(
      /^refused by Mailroom, not imported: .*GONE/,
    )
    const after = await t.mailroom.db.selectFrom('res_letterbox').select(['res_id', 'filename']).execute()
    expect(after.some((r) => r.res_id === 12)).toBe(false)
    const allVersions = await t.mailroom.db.selectFrom('adr_letterbox').select('id').execute()
    const allAttachments = await t.mailroom.db.selectFrom('res_attachments').select('res_id').execute()
    expect((await storedKeys(t.documents)).length).toBe(
      after.filter((r) => r.filename !== null).length + allVersions.length + allAttachments.length,
    )
  })

  it('flags a fingerprint mismatch and a missing original on the record, in history and in the report', async () => {
    const first = await importCollecting(t.mailroom, { from: source.url, docservers, dryRun: true, only: 'records' })
    // A dry run over imported records: all skipped but the refused one, which it would try again.
    expect(first.records.skipped).toHaveLength(total - 1)
    expect(first.records.imported.map((r) => r.resId)).toEqual([12])
    const three = await t.mailroom.db
      .selectFrom('res_letterbox')
      .select(['external_id', 'filename', 'fingerprint'])
      .where('res_id', '=', 3)
      .executeTakeFirstOrThrow()
    expect(three.external_id).toMatchObject({ maarchImport: { flagged: true } })
    expect(JSON.stringify(three.external_id)).toContain('fingerprint mismatch: source abc')
    expect(three.filename).not.toBeNull()
    const four = await t.mailroom.db
      .selectFrom('res_letterbox')
      .select(['external_id', 'filename'])
      .where('res_id', '=', 4)
      .executeTakeFirstOrThrow()
    expect(four.filename).toBeNull()
    expect(JSON.stringify(four.external_id)).toContain('gone.pdf not found')
    const history = await t.mailroom.db
      .selectFrom('history')
      .select(['event_type', 'info'])
      .where('record_id', '=', '3')
      .where('event_type', '=', 'IMPORT')
      .execute()
    expect(history).toHaveLength(1)
    expect(history[0]!.info).toContain('fingerprint mismatch')
  })
})
