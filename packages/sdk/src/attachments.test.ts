import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../testing/src/fixtures/files/index.js'
import { decodeBase64, encodeBase64 } from './base64.js'
import { createClient, type MailroomClient } from './client.js'
import { MailroomApiError } from './errors.js'

let s: TestServer
let cchaplin: MailroomClient
const pdf = makePdf({ pages: 1 })

beforeAll(async () => {
  s = await startTestServer()
  cchaplin = createClient({ baseUrl: s.baseUrl, auth: { login: 'cchaplin', password: 'maarch' } })
})
afterAll(async () => s?.close())

describe('sdk: attachments', () => {
  it('lists types, adds an attachment and a new version, reads them and their files', async () => {
    const { attachmentsTypes } = await cchaplin.getAttachmentTypes()
    expect(attachmentsTypes.response_project).toMatchObject({ label: 'Projet de réponse', chrono: true })
    const { resId } = await cchaplin.createRecord({
      modelId: 1,
      status: 'NEW',
      subject: 'Lettre',
      encodedFile: encodeBase64(pdf),
      format: 'pdf',
    })
    const encodedFile = encodeBase64(pdf)
    const { id } = await cchaplin.createAttachment({
      resIdMaster: resId,
      type: 'response_project',
      title: 'Projet',
      encodedFile,
      format: 'pdf',
    })
    const version = await cchaplin.createAttachment({
      resIdMaster: resId,
      originId: id,
      type: 'response_project',
      title: 'Projet v2',
      encodedFile,
      format: 'pdf',
    })
    const { attachments } = await cchaplin.getRecordAttachments(resId, { limit: 10 })
    expect(attachments.map((a) => a.resId)).toEqual([version.id])
    const read = await cchaplin.getAttachment(version.id)
    expect(read).toMatchObject({ relation: 2, originId: id, versions: [{ resId: id, relation: 1 }] })
    const original = await cchaplin.getAttachmentOriginalContent(version.id, { mode: 'base64' })
    expect(decodeBase64(original.encodedDocument)).toEqual(pdf)
    expect(original.filename).toBe('Projet v2_V2.pdf')
    const bytes = await cchaplin.getAttachmentOriginalContent(id)
    expect(bytes).toEqual(pdf)
    const content = await cchaplin.getAttachmentContent(version.id)
    expect(new TextDecoder().decode(content.subarray(0, 5))).toBe('%PDF-')
    const base64 = await cchaplin.getAttachmentContent(version.id, { mode: 'base64' })
    expect(base64).toMatchObject({ originalFormat: 'pdf', mimeType: 'application/pdf', signatoryId: null })
  })

  it('throws the typed error of a refused attachment', async () => {
    const error = await cchaplin
      .createAttachment({ resIdMaster: 1, type: 'nope', encodedFile: encodeBase64(pdf), format: 'pdf' })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MailroomApiError)
    expect(error).toMatchObject({ status: 400 })
    await expect(cchaplin.getAttachment(999999)).rejects.toMatchObject({
      status: 400,
      message: 'Attachment does not exist',
    })
  })
})
