import { startTestServer, type TestServer } from '@mailroom/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, type MailroomClient } from './client.js'
import { MailroomApiError } from './errors.js'

/** A small organisation written the way a team would: YAML, defaults left out, no ids but the record-facing ones. */
const ORGANISATION = `
version: 1
entities:
  - { id: CITY, label: City of Springfield, shortLabel: City, type: Direction, businessId: "99887766500011" }
  - { id: HR, label: Human resources, shortLabel: HR, type: Service, parent: CITY }
  - { id: PAY, label: Payroll, shortLabel: Payroll, type: Office, parent: HR }
  - { id: MAIL, label: Mail room, shortLabel: Mail, type: Service, parent: CITY }
groups:
  - { id: ADMINS, label: Administrators, perimeter: "1=1", canIndex: true, indexing: { keywords: [ALL_ENTITIES] }, digitalSafe: true }
  - id: STAFF
    label: Staff
    perimeter: destination in (@my_entities, @subentities[@my_primary_entity])
    canIndex: true
    indexing: { keywords: [MY_ENTITIES, ALL_ENTITIES_BELOW] }
users:
  - { login: root, mode: root, groups: [ADMINS], entities: [{ id: CITY, primary: true }] }
  - { login: alice, firstname: Alice, groups: [STAFF], entities: [{ id: HR, primary: true }] }
statuses:
  - { id: NEW, label: New }
  - { id: END, label: Closed, closing: true }
doctypeFirstLevels: [{ id: 1, label: Letters }]
doctypeSecondLevels: [{ id: 1, label: Requests, firstLevel: 1 }]
doctypes: [{ id: 10, label: Request, secondLevel: 1 }]
indexingModels: [{ id: 1, label: Incoming, category: incoming }]
priorities: [{ id: normal, label: Normal, delays: 30, order: 1 }]
`

let s: TestServer
let root: MailroomClient
const client = (login: string, password: string) => createClient({ baseUrl: s.baseUrl, auth: { login, password } })

beforeAll(async () => {
  s = await startTestServer({ mailroom: { demo: false, passwordPolicy: { minLength: 10 } } })
})
afterAll(async () => s?.close())

describe('from an empty database to an organisation, end to end over HTTP', () => {
  it('starts empty, then the operator applies the document and sets the first root password', async () => {
    expect(await s.mailroom.organisation.listUsers()).toEqual([])
    const result = await s.mailroom.organisation.apply(ORGANISATION)
    expect(result.lines).toEqual([
      'entities: +4 ~0 -0 (added: CITY, HR, PAY, MAIL)',
      'groups: +2 ~0 -0 (added: ADMINS, STAFF)',
      'users: +2 ~0 -0 (added: root, alice)',
      'statuses: +2 ~0 -0 (added: NEW, END)',
      'doctypeFirstLevels: +1 ~0 -0 (added: 1)',
      'doctypeSecondLevels: +1 ~0 -0 (added: 1)',
      'doctypes: +1 ~0 -0 (added: 10)',
      'indexingModels: +1 ~0 -0 (added: 1)',
      'priorities: +1 ~0 -0 (added: normal)',
    ])
    await s.mailroom.organisation.setPassword('root', 'root password 1')
    root = client('root', 'root password 1')
    expect((await root.admin.listUsers()).map((u) => [u.login, u.enabled, u.primaryEntity])).toEqual([
      ['alice', true, 'HR'],
      ['root', true, 'CITY'],
    ])
  })

  it('lets the root user add users, set passwords and apply more over HTTP', async () => {
    const bob = await root.admin.addUser({
      login: 'bob',
      firstname: 'Bob',
      groups: ['STAFF'],
      entities: [{ id: 'MAIL', primary: true }],
      password: 'bob password 1',
    })
    expect(bob).toMatchObject({ login: 'bob', enabled: true, groups: ['STAFF'], primaryEntity: 'MAIL' })
    await root.admin.setPassword('alice', 'alice password 1')
    const planned = await root.admin.planOrganisation({ version: 1, tags: [{ id: 1, label: 'URGENT' }] })
    expect(planned).toEqual({
      applied: false,
      lines: ['tags: +1 ~0 -0 (added: 1)'],
      summary: { tags: { added: ['1'], changed: [], removed: [] } },
    })
    expect((await root.admin.applyOrganisation({ version: 1, tags: [{ id: 1, label: 'URGENT' }] })).applied).toBe(true)
    expect((await root.admin.applyOrganisation({ version: 1, tags: [{ id: 1, label: 'URGENT' }] })).lines).toEqual([
      'no changes',
    ])
    const [latest] = await root.admin.organisationHistory(1)
    expect(latest).toMatchObject({
      event: 'ORG_APPLY',
      author: 'root (root)',
      details: { summary: { tags: { added: ['1'] } } },
    })
    expect((await root.admin.exportOrganisation()).tags).toEqual([{ id: 1, label: 'URGENT' }])
  })

  it('lets users authenticate, index within their entities and search within their perimeter', async () => {
    const alice = client('alice', 'alice password 1')
    const bob = client('bob', 'bob password 1')
    const serials = new Map((await root.admin.exportOrganisation()).entities!.map((e) => [e.id, e.serialId!]))
    const [hr, pay, mail] = [serials.get('HR')!, serials.get('PAY')!, serials.get('MAIL')!]
    const created = async (who: MailroomClient, destination: number, subject: string) =>
      (await who.createRecord({ modelId: 1, status: 'NEW', doctype: 10, priority: 'normal', subject, destination }))
        .resId
    const hrRecord = await created(alice, hr, 'for HR')
    const payRecord = await created(alice, pay, 'for payroll')
    const mailRecord = await created(bob, mail, 'for the mail room')
    await expect(created(alice, mail, 'not mine')).rejects.toMatchObject({
      status: 400,
      message: 'Body destination is out of your indexing parameters',
    })
    const ids = async (who: MailroomClient) =>
      (await who.search({ select: 'res_id', clause: '1=1', orderBy: ['res_id'] })).resources.map((r) => r.res_id)
    expect(await ids(alice)).toEqual([hrRecord, payRecord])
    expect(await ids(bob)).toEqual([mailRecord])
    expect(await ids(root)).toEqual([hrRecord, payRecord, mailRecord])
  })

  it('refuses a disabled user at once, tokens included, and restores them when enabled', async () => {
    const tokens = await client('bob', 'bob password 1').authenticate('bob', 'bob password 1')
    const bearer = createClient({ baseUrl: s.baseUrl, auth: { token: tokens.token } })
    expect((await bearer.getEntity('MAIL')).entity_id).toBe('MAIL')
    expect((await root.admin.setEnabled('bob', false)).enabled).toBe(false)
    await expect(bearer.getEntity('MAIL')).rejects.toMatchObject({ status: 401 })
    await expect(client('bob', 'bob password 1').getEntity('MAIL')).rejects.toMatchObject({ status: 401 })
    await root.admin.setEnabled('bob', true)
    expect((await client('bob', 'bob password 1').getEntity('MAIL')).entity_id).toBe('MAIL')
  })

  it('keeps administration to root users and answers bad documents with every error and a 4xx', async () => {
    const alice = client('alice', 'alice password 1')
    await expect(alice.admin.listUsers()).rejects.toMatchObject({
      status: 403,
      message: 'Only root users may administer the organisation',
    })
    const bad = await root.admin
      .applyOrganisation({
        version: 1,
        users: [{ login: 'x', groups: ['AGNT'] }],
        groups: [{ id: 'G', label: 'G', perimeter: 'destinaton = 1' }],
      })
      .catch((e: unknown) => e)
    expect(bad).toBeInstanceOf(MailroomApiError)
    expect(bad).toMatchObject({
      status: 400,
      message:
        'Organisation document is not valid (2 errors):\ngroups[0].perimeter: unknown column "destinaton" at position 1\nusers[0].groups[0]: no group "AGNT"',
    })
    await expect(root.admin.setPassword('alice', 'short')).rejects.toMatchObject({
      status: 400,
      message: 'Password does not follow the password rules: at least 10 characters',
    })
    await expect(root.admin.setEnabled('ghost', false)).rejects.toMatchObject({
      status: 404,
      message: 'No user "ghost"',
    })
    await expect(root.admin.addUser({ login: 'ALICE' })).rejects.toMatchObject({
      status: 409,
      message: 'User "ALICE" already exists',
    })
    const refused = await root.admin
      .applyOrganisation({ version: 1, statuses: [{ id: 'END', label: 'Closed', closing: true }] }, { prune: true })
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({
      status: 409,
      message:
        'Organisation document cannot be applied, nothing was changed:\nstatuses: cannot remove "NEW": records use it',
    })
    const raw = await s.call('PUT', '/admin/users/alice/status', {
      auth: 'root:root password 1',
      body: { enabled: 'no' },
    })
    expect(raw.status).toBe(400)
    expect(raw.json.errors).toMatch(/^Organisation document is not valid \(1 error\):\nenabled: /)
  })
})
