import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { kyselyListTemplateStore } from './kysely-list-template-store.js'

/*
 * The diffusion list templates' store on both databases (migration 0029's tables): a department's templates by
 * type and reader, their members in sequence with the user or entity each names, the circuit privileges of each
 * user, and a department's removal taking its templates. Demo: superadmin 1 (root), bbain 3 (AGENT, PJS),
 * bblier 4 (RESPONSABLE, DGS), ddur 6 (CONSULT, DRH); PJS is entity 6, DGS 3, DRH 4.
 */

let t: TestMailroom
const ids = { pjsList: 0, pjsVisa: 0, bbainOwn: 0, drhList: 0 }
const PJS = 6
const DGS = 3
const DRH = 4

async function template(values: { title: string; type: string; entity_id: number | null; owner?: number }) {
  const row = await t.mailroom.db
    .insertInto('list_templates')
    .values({ description: null, owner: null, ...values })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

async function items(
  listTemplateId: number,
  rows: { item_id: number; item_type: 'user' | 'entity'; item_mode: string; sequence: number }[],
) {
  await t.mailroom.db
    .insertInto('list_templates_items')
    .values(rows.map((row) => ({ list_template_id: listTemplateId, ...row })))
    .execute()
}

beforeAll(async () => {
  t = await createTestMailroom()
  ids.pjsList = await template({ title: 'Pôle Jeunesse et Sport', type: 'diffusionList', entity_id: PJS })
  // Written out of sequence: read back in it.
  await items(ids.pjsList, [
    { item_id: DGS, item_type: 'entity', item_mode: 'cc', sequence: 1 },
    { item_id: 999_999, item_type: 'user', item_mode: 'cc', sequence: 2 },
    { item_id: 3, item_type: 'user', item_mode: 'dest', sequence: 0 },
  ])
  ids.pjsVisa = await template({ title: 'Visa PJS', type: 'visaCircuit', entity_id: PJS })
  await items(ids.pjsVisa, [
    { item_id: 4, item_type: 'user', item_mode: 'visa', sequence: 0 },
    { item_id: 6, item_type: 'user', item_mode: 'visa', sequence: 1 },
    { item_id: 1, item_type: 'user', item_mode: 'sign', sequence: 2 },
  ])
  ids.bbainOwn = await template({ title: 'Mine', type: 'diffusionList', entity_id: PJS, owner: 3 })
  ids.drhList = await template({ title: 'DRH', type: 'diffusionList', entity_id: DRH })
  await t.mailroom.db
    .updateTable('usergroups')
    .set({ privileges: ['add_links', 'visa_documents', 'avis_documents'] })
    .where('group_id', '=', 'RESPONSABLE')
    .execute()
}, 120_000)
afterAll(async () => t?.cleanup())

const store = () => kyselyListTemplateStore(t.mailroom.db)

describe("a department's templates", () => {
  it('lists its own and the reader’s, by id, each member in sequence with what it names', async () => {
    const read = await store().templatesOfEntity(PJS, null, 3)
    expect(read.map((row) => [row.id, row.title, row.type, row.entityId, row.owner])).toEqual([
      [ids.pjsList, 'Pôle Jeunesse et Sport', 'diffusionList', PJS, null],
      [ids.pjsVisa, 'Visa PJS', 'visaCircuit', PJS, null],
      [ids.bbainOwn, 'Mine', 'diffusionList', PJS, 3],
    ])
    expect(read[0]!.items).toEqual([
      {
        id: expect.any(Number),
        listTemplateId: ids.pjsList,
        itemId: 3,
        itemType: 'user',
        itemMode: 'dest',
        sequence: 0,
        user: {
          firstname: 'Barbara',
          lastname: 'BAIN',
          status: 'OK',
          primaryEntityLabel: 'Pôle Jeunesse et Sport',
          circuitPrivileges: [],
        },
        entityLabel: null,
      },
      {
        id: expect.any(Number),
        listTemplateId: ids.pjsList,
        itemId: DGS,
        itemType: 'entity',
        itemMode: 'cc',
        sequence: 1,
        user: null,
        entityLabel: 'Direction Générale des Services',
      },
      // No user 999999: named, with nothing behind it (core decides what to show).
      expect.objectContaining({ itemId: 999_999, itemType: 'user', sequence: 2, user: null, entityLabel: null }),
    ])
  })

  it('never gives another user’s own template', async () => {
    const read = await store().templatesOfEntity(PJS, null, 4)
    expect(read.map((row) => row.id)).toEqual([ids.pjsList, ids.pjsVisa])
  })

  it('keeps one type when asked', async () => {
    expect((await store().templatesOfEntity(PJS, 'visaCircuit', 3)).map((row) => row.id)).toEqual([ids.pjsVisa])
    expect((await store().templatesOfEntity(PJS, 'diffusionList', 4)).map((row) => row.id)).toEqual([ids.pjsList])
    expect(await store().templatesOfEntity(PJS, 'opinionCircuit', 3)).toEqual([])
    expect((await store().templatesOfEntity(DRH, null, 3)).map((row) => row.id)).toEqual([ids.drhList])
    expect(await store().templatesOfEntity(DGS, null, 3)).toEqual([])
  })

  it("gives each user's circuit privileges through their groups, every one to a root user", async () => {
    const [visa] = await store().templatesOfEntity(PJS, 'visaCircuit', 3)
    expect(visa!.items.map((item) => [item.itemId, item.user?.circuitPrivileges])).toEqual([
      [4, ['avis_documents', 'visa_documents']],
      [6, []],
      [1, ['visa_documents', 'sign_document', 'avis_documents']],
    ])
  })
})

describe("a department's removal", () => {
  it('takes its templates and their members with it, as 20.10 does', async () => {
    const db = t.mailroom.db
    const { id } = await db
      .insertInto('entities')
      .values({ entity_id: 'TMP', entity_label: 'Temporaire', short_label: 'TMP', entity_type: 'Service' })
      .returning('id')
      .executeTakeFirstOrThrow()
    const own = await template({ title: 'Temporaire', type: 'diffusionList', entity_id: id })
    await items(own, [{ item_id: 3, item_type: 'user', item_mode: 'dest', sequence: 0 }])
    await db.deleteFrom('entities').where('id', '=', id).execute()
    expect(await db.selectFrom('list_templates').select('id').where('id', '=', own).execute()).toEqual([])
    expect(
      await db.selectFrom('list_templates_items').select('id').where('list_template_id', '=', own).execute(),
    ).toEqual([])
  })

  it('refuses a member that is neither a user nor an entity', async () => {
    await expect(
      t.mailroom.db
        .insertInto('list_templates_items')
        .values({
          list_template_id: ids.drhList,
          item_id: 1,
          item_type: 'group' as 'user',
          item_mode: 'cc',
          sequence: 0,
        })
        .execute(),
    ).rejects.toThrow(/check constraint/)
  })
})
