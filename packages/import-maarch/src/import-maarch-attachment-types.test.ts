import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CUSTOM_ENTREPRISE_XML } from '../test/entreprise-xml.js'
import { createGeneratedSource, type GeneratedSource } from '../test/generated-source.js'
import { importCollecting } from '../test/import-helpers.js'

let s: TestServer
let source: GeneratedSource
let folder: string
beforeAll(async () => {
  // One attachment of a type the installation's list does not name (a type removed from entreprise.xml since).
  source = await createGeneratedSource({
    alter: `update res_attachments set attachment_type = 'recommande' where res_id = 2`,
  })
  s = await startTestServer({ mailroom: { demo: false } })
  folder = await mkdtemp(join(tmpdir(), 'mailroom-entreprise-xml-'))
}, 180_000)
afterAll(async () => {
  await s?.close()
  await source?.drop()
  if (folder) await rm(folder, { recursive: true, force: true })
})

/** What a clerk's client reads: GET /rest/attachmentsTypes, as the installation's root user. */
async function attachmentTypes(): Promise<Record<string, { label: string; show: boolean; sign: boolean }>> {
  const auth = `${source.installation.facts.superadmin}:${source.installation.facts.password}`
  const r = await s.call('GET', '/rest/attachmentsTypes', { auth })
  expect(r.status).toBe(200)
  return r.json.attachmentsTypes
}

describe("an installation's attachment types", () => {
  it("are 20.10's installed ones without its entreprise.xml, plus the types its attachments use, noted", async () => {
    const report = await importCollecting(s.mailroom, {
      from: source.url,
      docservers: { root: source.docservers },
      only: 'reference',
    })
    const types = await attachmentTypes()
    expect(Object.keys(types).sort()).toEqual(
      [
        'acknowledgement_record_management',
        'incoming_mail_attachment',
        'outgoing_mail',
        'recommande',
        'reply_record_management',
        'response_project',
        'signed_response',
        'simple_attachment',
        'summary_sheet',
      ].sort(),
    )
    expect(types.response_project).toMatchObject({ label: 'Projet de réponse', show: true, sign: true })
    expect(types.recommande).toMatchObject({ label: 'recommande', show: false })
    expect(report.organisation?.notes).toContainEqual({
      section: 'attachmentTypes',
      id: 'recommande',
      message: "used by attachments but not in the installation's list: added, labelled with its id and not offered",
    })
  })

  it('are those of the entreprise.xml given, and the records import with them', async () => {
    const file = join(folder, 'entreprise.xml')
    await writeFile(file, CUSTOM_ENTREPRISE_XML)
    const report = await importCollecting(s.mailroom, {
      from: source.url,
      docservers: { root: source.docservers },
      entrepriseXml: file,
    })
    const types = await attachmentTypes()
    // The import adds and changes, never removes (an installation's organisation is merged, as every section).
    expect(types.avis_juridique).toMatchObject({ label: 'Avis juridique & conseil', show: false, sign: false })
    // The file's simple_attachment sets no attribute: 20.10 reads sign as true, where its installed file says false.
    expect(types.simple_attachment).toMatchObject({ label: 'Pièce jointe', sign: true })
    expect(types.recommande).toMatchObject({ label: 'recommande', show: false })
    expect(report.notImported.attachments).toEqual([])
    const typed = await s.mailroom.db
      .selectFrom('res_attachments')
      .select('attachment_type')
      .where('res_id', '=', 2)
      .executeTakeFirstOrThrow()
    expect(typed.attachment_type).toBe('recommande')
  })
})
