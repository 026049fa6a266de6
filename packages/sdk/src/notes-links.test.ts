import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePdf } from '../../testing/src/fixtures/files/index.js'
import { encodeBase64 } from './base64.js'
import { createClient, type MailroomClient } from './client.js'
import { MailroomApiError } from './errors.js'

let s: TestServer
let bbain: MailroomClient
let ddur: MailroomClient

beforeAll(async () => {
  s = await startTestServer()
  bbain = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
  ddur = createClient({ baseUrl: s.baseUrl, auth: { login: 'ddur', password: 'maarch' } })
})
afterAll(async () => s?.close())

/** A letter of bbain's entity (PJS), sent to bbain. */
async function createLetter(subject: string): Promise<number> {
  const { resId } = await bbain.createRecord({
    modelId: 1,
    status: 'NEW',
    subject,
    destination: 6,
    chrono: true,
    encodedFile: encodeBase64(makePdf({ pages: 1 })),
    format: 'pdf',
    diffusionList: [{ id: 3, type: 'user', mode: 'dest' }],
  })
  return resId
}

describe('sdk: notes, links and diffusion lists', () => {
  it('writes and reads notes, restricted ones included', async () => {
    const resId = await createLetter('Demande de salle')
    const { noteId } = await bbain.createNote({ resId, value: 'Rappeler le demandeur' })
    const restricted = await bbain.createNote({ resId, value: 'Pour la DRH seulement', entities: ['DRH'] })
    expect((await bbain.listNotes(resId)).notes.map((n) => n.id)).toEqual([restricted.noteId, noteId])
    expect((await bbain.listNotes(resId, { limit: 1 })).notes).toHaveLength(1)
    expect(await bbain.getNote(restricted.noteId)).toMatchObject({ identifier: resId, entities: ['DRH'] })
  })

  it('links, lists and unlinks records; refuses without add_links', async () => {
    const [a, b] = [await createLetter('Premier courrier'), await createLetter('Second courrier')]
    await bbain.linkResources(a, { linkedResources: [b] })
    expect((await bbain.listLinkedResources(b)).linkedResources.map((r) => r.resId)).toEqual([a])
    const refused = await ddur.unlinkResource(a, b).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(MailroomApiError)
    expect(refused).toMatchObject({ status: 403, message: 'Service forbidden' })
    await bbain.unlinkResource(a, b)
    expect((await bbain.listLinkedResources(a)).linkedResources).toEqual([])
  })

  it('reads the diffusion list of a record', async () => {
    const resId = await createLetter('Invitation')
    const { listInstance, hasHistory } = await bbain.getListInstance(resId)
    expect(hasHistory).toBe(false)
    expect(listInstance.map((i) => [i.item_id, i.item_type, i.item_mode])).toContainEqual(['bbain', 'user_id', 'dest'])
  })
})
