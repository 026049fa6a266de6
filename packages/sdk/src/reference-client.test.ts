import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type MailroomClient } from './client.js'
import { MailroomApiError } from './errors.js'

let s: TestServer
let cchaplin: MailroomClient
let bbain: MailroomClient

beforeAll(async () => {
  s = await startTestServer()
  cchaplin = createClient({ baseUrl: s.baseUrl, auth: { login: 'cchaplin', password: 'maarch' } })
  bbain = createClient({ baseUrl: s.baseUrl, auth: { login: 'bbain', password: 'maarch' } })
})
afterAll(async () => s?.close())

describe('sdk: reference data', () => {
  it('reads what the capture client reads first: entities, a document type and workingDays', async () => {
    const entities = await cchaplin.listEntities()
    expect(entities.find((e) => e.id === 'VILLE')).toMatchObject({ parent: '#', allowed: true })
    const { doctype } = await cchaplin.getDoctype(101)
    expect(doctype).toMatchObject({ type_id: 101, process_delay: 21, enabled: true })
    expect((await cchaplin.getDoctype(99999)).doctype).toEqual([])
    expect(await cchaplin.getParameter('workingDays')).toMatchObject({ id: 'workingDays', param_value_int: 1 })
  })

  it('lists the tree and the lists a form offers', async () => {
    expect((await cchaplin.getDoctypeTree()).some((node) => node.id === 101)).toBe(true)
    expect((await cchaplin.listStatuses()).map((status) => status.id)).toContain('NEW')
    expect((await cchaplin.listPriorities()).length).toBeGreaterThan(0)
    const models = await cchaplin.listIndexingModels()
    expect(await cchaplin.getIndexingModel(models[0]!.id)).toMatchObject({ id: models[0]!.id, fields: [] })
    expect((await cchaplin.listCustomFields()).length).toBeGreaterThan(0)
    expect((await cchaplin.listTags()).map((tag) => tag.label)).toContain('URGENT')
    expect((await cchaplin.listFolders()).map((folder) => folder.label)).toContain('Marchés publics')
  })

  it('applies the privileges: users and parameters for admin_users and admin_parameters only', async () => {
    expect((await cchaplin.listUsers()).users.map((user) => user.user_id)).toContain('bbain')
    await expect(bbain.listUsers()).rejects.toMatchObject({ status: 403, message: 'Service forbidden' })
    await expect(bbain.getParameter('workingDays')).rejects.toBeInstanceOf(MailroomApiError)
    expect((await bbain.listParameters()).map((p) => p.id)).toContain('traffic_record_summary_sheet')
    expect((await cchaplin.listParameters()).length).toBeGreaterThan(20)
  })

  it("reads the caller's profile with the privileges of its groups", async () => {
    const profile = await cchaplin.getCurrentUserProfile()
    expect(profile).toMatchObject({ user_id: 'cchaplin', mode: 'rest', baskets: [] })
    expect(profile.privileges).toContain('admin_parameters')
    expect(profile.groups.map((group) => group.group_id)).toContain('WEBSERVICE')
  })
})
