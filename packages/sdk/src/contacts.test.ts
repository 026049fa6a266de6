import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type MailroomClient } from './client.js'

let s: TestServer
let capture: MailroomClient
let root: MailroomClient

beforeAll(async () => {
  s = await startTestServer()
  capture = createClient({ baseUrl: s.baseUrl, auth: { login: 'cchaplin', password: 'maarch' } })
  root = createClient({ baseUrl: s.baseUrl, auth: { login: 'superadmin', password: 'superadmin' } })
})
afterAll(async () => s?.close())

describe('sdk: contacts', () => {
  it('creates, reads, replaces and finds a contact as a capture tool does', async () => {
    const body = { lastname: 'Capture', firstname: 'Annie', email: 'annie.sdk@example.org', phone: '06 11 22 33 44' }
    const { id, warning } = await capture.createContact(body)
    expect(warning).toBe('')
    expect(await capture.getContact(id)).toMatchObject({ id, ...body, creatorLabel: 'Charlie CHAPLIN' })
    await capture.updateContact(id, { ...body, company: 'Piscine municipale' })
    expect((await capture.getContact(id)).company).toBe('Piscine municipale')
    expect((await capture.findContactByMail('ANNIE.SDK@example.org'))?.id).toBe(id)
    expect((await capture.findContactByPhone('0611223344'))?.id).toBe(id)
    expect(await capture.findContactByMail('nobody@example.org')).toBeNull()
    expect(await capture.findContactByPhone('0000')).toBeNull()
  })

  it('refuses a duplicate e-mail address unless asked, with the server error', async () => {
    const body = { lastname: 'Double', email: 'jean.dupont@example.org' }
    await expect(capture.createContact(body)).rejects.toMatchObject({ status: 409 })
    const { id } = await capture.createContact(body, { allowDuplicateMail: true })
    expect(id).toBeGreaterThan(3)
    await expect(capture.updateContact(id, { firstname: 'x' })).rejects.toMatchObject({
      status: 400,
      message: 'Body lastname or company is mandatory',
    })
  })

  it('lists contacts with search and paging (admin_contacts)', async () => {
    const page = await root.listContacts({ search: 'dupont', limit: 5, orderBy: 'lastname', order: 'desc' })
    expect(page.contacts[0]).toMatchObject({ id: 1, lastname: 'Dupont', filling: { thresholdLevel: 'third' } })
    expect(page.count).toBeGreaterThanOrEqual(1)
    await expect(capture.listContacts()).rejects.toMatchObject({ status: 403, message: 'Service forbidden' })
  })
})
