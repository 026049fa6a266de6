import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'
import type { MaarchImportReport } from './index.js'

let s: TestServer
let source: GeneratedSource
let report: MaarchImportReport
beforeAll(async () => {
  // Attachment 1 (record 3) gets a second version, itself superseded (OBS); attachment 2's (record 7)
  // fingerprint no longer matches its file.
  source = await createGeneratedSource({
    alter: `insert into res_attachments (res_id, title, format, typist, creation_date, identifier, relation, origin_id, docserver_id, path, filename, fingerprint, filesize, status, res_id_master, attachment_type)
              select 900, title || ' v2', format, typist, creation_date, identifier, 2, 1, docserver_id, path, filename, fingerprint, filesize, 'A_TRA', res_id_master, attachment_type from res_attachments where res_id = 1;
            update res_attachments set status = 'OBS' where res_id = 1;
            update res_attachments set fingerprint = 'abc' where res_id = 2`,
  })
  s = await startTestServer({ mailroom: { demo: false } })
  report = await importCollecting(s.mailroom, {
    from: source.url,
    docservers: { root: source.docservers },
  })
}, 180_000)
afterAll(async () => {
  await s?.close()
  await source?.drop()
})

describe("an installation's attachment versions and damaged attachment files", () => {
  it('keeps the version chain: relation, origin_id and the superseded version OBS', async () => {
    const auth = `${source.installation.facts.superadmin}:${source.installation.facts.password}`
    const v2 = await s.call('GET', '/rest/attachments/900', { auth })
    expect(v2.status).toBe(200)
    expect(v2.json).toMatchObject({ resId: 900, resIdMaster: 3, relation: 2, status: 'A_TRA' })
    const rows = await s.mailroom.db
      .selectFrom('res_attachments')
      .select(['res_id', 'status', 'relation', 'origin_id'])
      .where('res_id', 'in', [1, 900])
      .orderBy('res_id')
      .execute()
    expect(
      rows.map((r) => [Number(r.res_id), r.status, r.relation, r.origin_id === null ? null : Number(r.origin_id)]),
    ).toEqual([
      [1, 'OBS', 1, null],
      [900, 'A_TRA', 2, 1],
    ])
    expect(report.notImported.attachments).toEqual([])
  })

  it("flags the record of an attachment whose file does not match its fingerprint, as a record's own file", () => {
    const seven = report.records.flagged.find((r) => r.resId === 7)
    expect(seven?.attachments).toEqual([{ resId: 2, fingerprint: 'mismatch' }])
    expect(seven?.problems).toEqual([expect.stringMatching(/^attachment 2 fingerprint mismatch: source abc, file /)])
  })
})
