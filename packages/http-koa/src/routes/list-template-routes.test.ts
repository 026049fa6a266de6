import { errorMessage } from '@mailroom/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  demoAuth,
  expectSameShape,
  maarchExchange,
  startTestServer,
  type TestServer,
} from '../../../testing/src/index.js'

/*
 * What 20.10's redirect dialog reads to propose a department's assignee: GET /rest/listTemplates/entities/{entityId}
 * (the department's templates) and GET /rest/roles (the list's roles), beside the answers the real Maarch 20.10 gave
 * on its sample (maarch-20.10-answers, recorded in this repository), then attacked as a hostile clerk would.
 * Demo: superadmin 1 (root), bbain 3 (AGENT, PJS), bblier 4 (RESPONSABLE, DGS), ddur 6 (CONSULT: no privilege,
 * a perimeter of nothing, DRH); entities PJS 6, PE 7, DGS 3, DRH 4.
 */

let s: TestServer
const bbain = demoAuth('bbain')
const ddur = demoAuth('ddur')
const PE = 7
const PJS = 6
const DGS = 3
const templates = { pe: 0, peVisa: 0, bbainOwn: 0 }
const NUL = 'Request contains a NUL character, which cannot be stored'
const noEntity = { errors: errorMessage('LIST_TEMPLATE_ENTITY_NOT_FOUND') }

async function template(values: { title: string; type: string; entity_id: number; owner?: number }) {
  const row = await s.mailroom.db
    .insertInto('list_templates')
    .values({ description: values.title, owner: null, ...values })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function grant(groupId: string, privileges: string[]): Promise<void> {
  await s.mailroom.db.updateTable('usergroups').set({ privileges }).where('group_id', '=', groupId).execute()
}

const templatesOf = (entityId: number | string, query = '', auth = bbain) =>
  s.call('GET', `/rest/listTemplates/entities/${entityId}${query}`, { auth })
const rolesIn = (query: string, auth = bbain) => s.call('GET', `/rest/roles${query}`, { auth })

beforeAll(async () => {
  s = await startTestServer()
  const db = s.mailroom.db
  // PE's template as the sample has it: a clerk of the department assignee, a department in copy.
  templates.pe = await template({ title: 'Petite enfance', type: 'diffusionList', entity_id: PE })
  templates.peVisa = await template({ title: 'Visa PE', type: 'visaCircuit', entity_id: PE })
  templates.bbainOwn = await template({ title: 'Mon modèle', type: 'diffusionList', entity_id: PE, owner: 3 })
  await db
    .insertInto('list_templates_items')
    .values([
      { list_template_id: templates.pe, item_id: 4, item_type: 'user', item_mode: 'dest', sequence: 0 },
      { list_template_id: templates.pe, item_id: DGS, item_type: 'entity', item_mode: 'cc', sequence: 1 },
      { list_template_id: templates.peVisa, item_id: 4, item_type: 'user', item_mode: 'visa', sequence: 0 },
      { list_template_id: templates.peVisa, item_id: 6, item_type: 'user', item_mode: 'sign', sequence: 1 },
      { list_template_id: templates.bbainOwn, item_id: 3, item_type: 'user', item_mode: 'dest', sequence: 0 },
    ])
    .execute()
}, 180_000)
afterAll(async () => {
  await s?.close()
})

describe("a department's templates, as 20.10's redirect dialog reads them", () => {
  it('answers as 20.10 did for PE’s diffusion list: its assignee with name and department, the copy by label', async () => {
    // As bblier: bbain's own template of PE would be listed to her beside it.
    const r = await templatesOf(PE, '?type=diffusionList', demoAuth('bblier'))
    const recorded = maarchExchange('baskets-actions.json', 'the diffusion list template of PE (what the client sends)')
    expectSameShape(r, recorded.response, {
      sameValuesAt: ['listTemplates.0.type', 'listTemplates.0.items.0.item_mode', 'listTemplates.0.items.1.item_mode'],
    })
    expect(r.json).toEqual({
      listTemplates: [
        {
          id: templates.pe,
          title: 'Petite enfance',
          description: 'Petite enfance',
          type: 'diffusionList',
          entity_id: PE,
          owner: null,
          items: [
            {
              id: expect.any(Number),
              list_template_id: templates.pe,
              item_id: 4,
              item_type: 'user',
              item_mode: 'dest',
              sequence: 0,
              isValid: true,
              labelToDisplay: 'Bernard BLIER',
              descriptionToDisplay: 'Direction Générale des Services',
              hasPrivilege: true,
            },
            {
              id: expect.any(Number),
              list_template_id: templates.pe,
              item_id: DGS,
              item_type: 'entity',
              item_mode: 'cc',
              sequence: 1,
              labelToDisplay: 'Direction Générale des Services',
              descriptionToDisplay: '',
            },
          ],
        },
      ],
    })
  })

  it('gives every type without ?type (or with an empty one), the circuits by name, any other value the diffusion lists', async () => {
    const ids = async (query: string) =>
      ((await templatesOf(PE, query)).json as { listTemplates: { id: number }[] }).listTemplates.map((t) => t.id)
    const every = [templates.pe, templates.peVisa, templates.bbainOwn]
    expect(await ids('')).toEqual(every)
    expect(await ids('?type=')).toEqual(every)
    expect(await ids('?type=0')).toEqual(every)
    expect(await ids('?type=visaCircuit')).toEqual([templates.peVisa])
    expect(await ids('?type=opinionCircuit')).toEqual([])
    expect(await ids('?type=anything')).toEqual([templates.pe, templates.bbainOwn])
    // Repeated, the last one counts (as PHP reads it).
    expect(await ids('?type=diffusionList&type=visaCircuit')).toEqual([templates.peVisa])
    // A department without templates: none.
    expect((await templatesOf(PJS)).json).toEqual({ listTemplates: [] })
  })

  it('flags a circuit’s members without the privilege it needs, and a suspended member as not valid', async () => {
    const visaOf = async () =>
      ((await templatesOf(PE, '?type=visaCircuit')).json as { listTemplates: { items: object[] }[] }).listTemplates[0]!
        .items
    expect(await visaOf()).toMatchObject([
      { item_id: 4, isValid: true, hasPrivilege: false },
      { item_id: 6, isValid: true, hasPrivilege: false },
    ])
    await grant('RESPONSABLE', ['add_links', 'sign_document'])
    await s.mailroom.db.updateTable('users').set({ status: 'SPD' }).where('id', '=', 6).execute()
    try {
      expect(await visaOf()).toMatchObject([
        { item_id: 4, isValid: true, hasPrivilege: true },
        { item_id: 6, isValid: false, hasPrivilege: false, labelToDisplay: 'Dominique DUR' },
      ])
    } finally {
      await grant('RESPONSABLE', ['add_links'])
      await s.mailroom.db.updateTable('users').set({ status: 'OK' }).where('id', '=', 6).execute()
    }
  })

  it('leaves a suspended user out of a diffusion list, which then proposes no assignee', async () => {
    await s.mailroom.db.updateTable('users').set({ status: 'SPD' }).where('id', '=', 4).execute()
    try {
      const r = await templatesOf(PE, '?type=diffusionList')
      const [pe] = (r.json as { listTemplates: { id: number; items: { item_type: string }[] }[] }).listTemplates
      expect(pe!.items.map((item) => item.item_type)).toEqual(['entity'])
    } finally {
      await s.mailroom.db.updateTable('users').set({ status: 'OK' }).where('id', '=', 4).execute()
    }
  })
})

describe('GET /rest/listTemplates/entities/{entityId} as a hostile clerk meets it', () => {
  it('shows a user’s own template to them only', async () => {
    const of = async (auth: string) =>
      ((await templatesOf(PE, '', auth)).json as { listTemplates: { id: number }[] }).listTemplates.map((t) => t.id)
    expect(await of(bbain)).toContain(templates.bbainOwn)
    expect(await of(demoAuth('bblier'))).toEqual([templates.pe, templates.peVisa])
    expect(await of(demoAuth('superadmin'))).toEqual([templates.pe, templates.peVisa])
  })

  it('lets any signed-in user read a department’s templates, as 20.10 does: a clerk without privilege or perimeter too', async () => {
    // ddur (CONSULT) may see no letter and holds no privilege; PE is outside his department.
    const r = await templatesOf(PE, '?type=diffusionList', ddur)
    expect(r.status).toBe(200)
    expect((r.json as { listTemplates: { id: number }[] }).listTemplates.map((t) => t.id)).toEqual([templates.pe])
  })

  it('answers an id that names no department, or none at all, 400 Entity does not exist', async () => {
    for (const id of ['999999', '0', '-7', '7.0', '1e3', 'PE', 'abc', '2147483648', '9'.repeat(4000), '%20', 'a%2Fb']) {
      const r = await templatesOf(id)
      expect([id.slice(0, 20), r.status, r.json]).toEqual([id.slice(0, 20), 400, noEntity])
    }
    // Leading zeros name the same serial, as every numeric id Mailroom reads.
    expect((await templatesOf('007', '?type=diffusionList')).status).toBe(200)
  })

  it('refuses a NUL in the path or the query with the house’s 400', async () => {
    for (const path of [`/rest/listTemplates/entities/${PE}%00`, `/rest/listTemplates/entities/${PE}?type=visa%00`]) {
      const r = await s.call('GET', path, { auth: bbain })
      expect([path, r.status, r.json]).toEqual([path, 400, { errors: NUL }])
    }
  })

  it('asks for credentials first: 401 for no one and for a wrong password, whatever the id', async () => {
    for (const auth of [undefined, 'bbain:wrong']) {
      for (const id of [PE, 999999, 'abc']) {
        const r = await s.call('GET', `/rest/listTemplates/entities/${id}`, { auth: auth ?? null })
        expect(r.status).toBe(401)
        expect(r.json).toEqual({ errors: 'Authentication Failed' })
      }
    }
  })

  it('is served, no longer answered 501; its other methods still are (20.10 has them)', async () => {
    expect((await templatesOf(PE)).status).toBe(200)
    const put = await s.call('PUT', `/rest/listTemplates/${templates.pe}`, { auth: bbain, body: {} })
    expect(put.status).toBe(501)
  })
})

describe("a diffusion list's roles, as 20.10's redirect dialog reads them", () => {
  it('answers as 20.10 did in a redirect: every role may change', async () => {
    // The demo sets keepDiffusionRoleInOutgoingIndexation to 1, as the sample does.
    const r = await rolesIn('?context=redirect')
    const recorded = maarchExchange('letter-page-reference.json', 'bbain: roles in the redirect dialog')
    expect(r.status).toBe(recorded.response.status)
    expect(r.json).toEqual(recorded.response.body)
  })

  it('reads keepDiffusionRoleInOutgoingIndexation as PHP’s empty(): absent, null or 0 is false', async () => {
    const keep = async () => (await rolesIn('?context=redirect')).json.parameters.keepDiffusionRoleInOutgoingIndexation
    const set = (value: number | null) =>
      s.mailroom.db
        .updateTable('parameters')
        .set({ param_value_int: value })
        .where('id', '=', 'keepDiffusionRoleInOutgoingIndexation')
        .execute()
    try {
      await set(0)
      expect(await keep()).toBe(false)
      await set(null)
      expect(await keep()).toBe(false)
      await set(7)
      expect(await keep()).toBe(true)
      await s.mailroom.db.deleteFrom('parameters').where('id', '=', 'keepDiffusionRoleInOutgoingIndexation').execute()
      expect(await keep()).toBe(false)
    } finally {
      await s.mailroom.db
        .insertInto('parameters')
        .values({ id: 'keepDiffusionRoleInOutgoingIndexation', param_value_int: 1 })
        .onConflict((conflict) => conflict.column('id').doUpdateSet({ param_value_int: 1 }))
        .execute()
    }
  })

  it('says what the caller may change while indexing, processing or in the details, from their privileges', async () => {
    const canUpdate = async (context: string) =>
      ((await rolesIn(`?context=${context}`)).json as { roles: { id: string; canUpdate?: boolean }[] }).roles.map(
        (role) => [role.id, role.canUpdate],
      )
    // AGENT holds none of the update_diffusion_* privileges.
    expect(await canUpdate('process')).toEqual([
      ['dest', false],
      ['cc', false],
      ['avis', false],
    ])
    await grant('AGENT', ['update_diffusion_except_recipient_process'])
    expect(await canUpdate('process')).toEqual([
      ['dest', false],
      ['cc', true],
      ['avis', true],
    ])
    expect(await canUpdate('indexation')).toEqual([
      ['dest', false],
      ['cc', false],
      ['avis', false],
    ])
    await grant('AGENT', ['update_diffusion_indexing'])
    expect(await canUpdate('indexation')).toEqual([
      ['dest', true],
      ['cc', true],
      ['avis', true],
    ])
    await grant('AGENT', ['update_diffusion_details'])
    expect(await canUpdate('details')).toEqual([
      ['dest', true],
      ['cc', true],
      ['avis', true],
    ])
    // A root user holds every privilege.
    const root = await rolesIn('?context=process', demoAuth('superadmin'))
    expect(root.json.roles.every((role: { canUpdate: boolean }) => role.canUpdate)).toBe(true)
    await grant('AGENT', ['add_links', 'create_contacts', 'manage_attachments'])
  })

  it('leaves canUpdate out for any other context, or none, as 20.10 does', async () => {
    for (const query of [
      '',
      '?context=',
      '?context=admin',
      '?context=__proto__',
      '?context=toString',
      '?context[]=x',
    ]) {
      const r = await rolesIn(query)
      expect([query, r.status]).toEqual([query, 200])
      expect(r.json.roles).toEqual([
        { id: 'dest', label: 'Attributaire', keepInListInstance: false },
        { id: 'cc', label: 'En copie', keepInListInstance: true },
        { id: 'avis', label: 'Pour avis', keepInListInstance: false },
      ])
    }
    // Repeated, the last one counts.
    const last = await rolesIn('?context=admin&context=redirect')
    expect(last.json.roles.map((role: { canUpdate: boolean }) => role.canUpdate)).toEqual([true, true, true])
  })
})

describe('GET /rest/roles as a hostile clerk meets it', () => {
  it('gives a clerk without any privilege nothing to change but in a redirect', async () => {
    for (const context of ['indexation', 'process', 'details']) {
      const r = await rolesIn(`?context=${context}`, ddur)
      expect(r.json.roles.map((role: { canUpdate: boolean }) => role.canUpdate)).toEqual([false, false, false])
    }
  })

  it('refuses a NUL in the query, asks for credentials, and is served (no longer 501)', async () => {
    const nul = await rolesIn('?context=redirect%00')
    expect([nul.status, nul.json]).toEqual([400, { errors: NUL }])
    expect((await s.call('GET', '/rest/roles', { auth: null })).status).toBe(401)
    expect((await s.call('GET', '/rest/roles', { auth: 'ddur:wrong' })).status).toBe(401)
    const huge = await rolesIn(`?context=${'x'.repeat(4000)}`)
    expect([huge.status, huge.json.roles.length]).toEqual([200, 3])
  })
})

describe("GET /rest/entities/{id}/users: the diffusion list's assignee menu", () => {
  const CAB = 2
  const usersOf = (entityId: number | string, auth = bbain) =>
    s.call('GET', `/rest/entities/${entityId}/users`, { auth })
  const ppetit = {
    id: 5,
    user_id: 'ppetit',
    firstname: 'Patricia',
    lastname: 'PETIT',
    labelToDisplay: 'Patricia PETIT',
    descriptionToDisplay: 'Service Courrier',
  }

  it("lists the department's members with their primary department, to any signed-in user, as 20.10", async () => {
    const cab = await usersOf(CAB, ddur)
    expect([cab.status, cab.json]).toEqual([200, { users: [ppetit] }])
    const pe = await usersOf(PE)
    expect([pe.status, pe.json]).toEqual([200, { users: [] }])
  })

  it('leaves out a member absent, suspended or deleted: none may become the assignee', async () => {
    for (const status of ['ABS', 'SPD', 'DEL']) {
      await s.mailroom.db.updateTable('users').set({ status }).where('id', '=', ppetit.id).execute()
      const cab = await usersOf(CAB)
      expect([status, cab.json]).toEqual([status, { users: [] }])
    }
    await s.mailroom.db.updateTable('users').set({ status: 'OK' }).where('id', '=', ppetit.id).execute()
  })

  it("refuses an id that names no department with 400 'Entity not found', never 500", async () => {
    for (const id of ['PE', '0', '-1', '1e3', '987654', '2147483648', '99999999999999999999', 'x'.repeat(4000)]) {
      const response = await usersOf(id)
      expect([id.slice(0, 20), response.status, response.json]).toEqual([
        id.slice(0, 20),
        400,
        { errors: 'Entity not found' },
      ])
    }
    const nul = await usersOf('%00')
    expect([nul.status, nul.json]).toEqual([400, { errors: NUL }])
    expect((await s.call('GET', `/rest/entities/${CAB}/users`, { auth: 'ddur:wrong' })).status).toBe(401)
  })
})
