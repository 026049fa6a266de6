import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { kyselyListTemplateStore } from './kysely-list-template-store.js'

/*
 * The organisation document's listTemplates section on both databases: applied as rows under the serial ids of
 * what they name, members in their order, read back as written, rewritten on a change; a prune that would leave
 * a template naming what it removes refused, nothing written. Demo: bbain 3 (PJS), bblier 4 (DGS); PE is entity 7.
 */

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom()
}, 120_000)
afterAll(async () => t?.cleanup())

const PE = 7
const template = (members: { type: 'user' | 'entity'; id: string; mode: string }[]) => ({
  id: 40,
  title: 'Petite Enfance',
  type: 'diffusionList' as const,
  entity: 'PE',
  members,
})

describe('listTemplates applied from the organisation document', () => {
  it('are stored under the serial ids of what they name, in order, and exported as written', async () => {
    const admin = t.mailroom.organisation
    const members = [
      { type: 'user' as const, id: 'BBlier', mode: 'dest' },
      { type: 'entity' as const, id: 'PJS', mode: 'cc' },
      { type: 'user' as const, id: 'bbain', mode: 'avis' },
    ]
    const applied = await admin.apply({ version: 1, listTemplates: [template(members)] })
    expect(applied.lines).toEqual(['listTemplates: +1 ~0 -0 (added: 40)'])
    const [stored] = await kyselyListTemplateStore(t.mailroom.db).templatesOfEntity(PE, null, 3)
    expect(stored).toMatchObject({ id: 40, entityId: PE, owner: null, type: 'diffusionList' })
    expect(stored!.items.map((item) => [item.itemType, item.itemId, item.itemMode, item.sequence])).toEqual([
      ['user', 4, 'dest', 0],
      ['entity', 6, 'cc', 1],
      ['user', 3, 'avis', 2],
    ])
    const exported = (await admin.export()).listTemplates
    expect(exported).toEqual([
      {
        ...template(members.map((m) => (m.id === 'BBlier' ? { ...m, id: 'bblier' } : m))),
        description: null,
        owner: null,
      },
    ])
    // Changed: the members are written anew; a new template's id goes on from the largest.
    await admin.apply({ version: 1, listTemplates: [template([{ type: 'user', id: 'bbain', mode: 'dest' }])] })
    const [changed] = await kyselyListTemplateStore(t.mailroom.db).templatesOfEntity(PE, null, 3)
    expect(changed!.items.map((item) => [item.itemId, item.itemMode, item.sequence])).toEqual([[3, 'dest', 0]])
    const next = await t.mailroom.db
      .insertInto('list_templates')
      .values({ title: 'x', type: 'diffusionList' })
      .returning('id')
      .executeTakeFirstOrThrow()
    expect(next.id).toBeGreaterThan(40)
    await t.mailroom.db.deleteFrom('list_templates').where('id', '=', next.id).execute()
  })

  it('refuses a prune of a user a stored template names, and writes nothing', async () => {
    const admin = t.mailroom.organisation
    const users = (await admin.export()).users!.filter((u) => u.login !== 'bbain')
    await expect(admin.apply({ version: 1, users }, { prune: true })).rejects.toThrow(
      'cannot remove "bbain": template 40 names it (dest)',
    )
    expect((await admin.export()).users!.some((u) => u.login === 'bbain')).toBe(true)
  })

  it('keeps a template whose owner the same prune removes, when the document gives it another owner', async () => {
    const admin = t.mailroom.organisation
    const retiring = {
      login: 'retiring',
      firstname: 'Ret',
      lastname: 'Iring',
      mode: 'standard' as const,
      enabled: true,
      groups: [],
      entities: [],
    }
    const own = { ...template([{ type: 'user', id: 'bbain', mode: 'dest' }]), id: 41, title: 'Mine', owner: 'retiring' }
    const before = await admin.export()
    await admin.apply({
      version: 1,
      users: [...before.users!, retiring],
      listTemplates: [...before.listTemplates!, own],
    })
    // The user's removal cascades to the template it owns; the template, still in the document, is written anew.
    const after = await admin.export()
    const kept = { ...own, owner: 'bblier' }
    const applied = await admin.apply(
      {
        ...after,
        users: after.users!.filter((u) => u.login !== 'retiring'),
        listTemplates: [...before.listTemplates!, kept],
      },
      { prune: true },
    )
    expect(applied.lines).toContain('listTemplates: +0 ~1 -0 (changed: 41)')
    const exported = await admin.export()
    expect(exported.users!.some((u) => u.login === 'retiring')).toBe(false)
    expect(exported.listTemplates!.find((l) => l.id === 41)).toEqual({ ...kept, description: null })
  })
})
