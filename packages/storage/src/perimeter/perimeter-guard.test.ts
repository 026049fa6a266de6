import fc from 'fast-check'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestMailroom,
  type TestMailroom,
  testDatabaseKind,
} from '../../../testing/src/databases/test-database.js'

let t: TestMailroom
const DESTINATIONS = ['VILLE', 'CAB', 'DGS', 'DRH', 'DSI', 'PJS', 'PE', 'COU', null] as const

/** Records: every destination × typist combination, plus diffusion-list entries on some. */
const records: {
  resId: number
  destination: string | null
  typist: number
  diffusion: { type: 'user_id' | 'entity_id'; id: number }[]
}[] = []

beforeAll(async () => {
  t = await createTestMailroom()
  const db = t.mailroom.db
  let n = 0
  for (const destination of DESTINATIONS) {
    for (const typist of [1, 3, 6]) {
      n++
      const diffusion: (typeof records)[number]['diffusion'] = []
      if (n % 4 === 0) diffusion.push({ type: 'user_id', id: 6 })
      if (n % 5 === 0) diffusion.push({ type: 'entity_id', id: 2 })
      const row = await db
        .insertInto('res_letterbox')
        .values({
          subject: `r${n}`,
          type_id: 101,
          typist,
          category_id: 'incoming',
          model_id: 1,
          status: 'NEW',
          destination,
        })
        .returning('res_id')
        .executeTakeFirstOrThrow()
      for (const d of diffusion)
        await db
          .insertInto('listinstance')
          .values({ res_id: row.res_id, item_id: d.id, item_type: d.type, item_mode: 'cc' })
          .execute()
      records.push({ resId: row.res_id, destination, typist, diffusion })
    }
  }
})
afterAll(async () => t?.cleanup())

/** The runtime contract's rule, written naively for the demo users. */
function expectedVisible(
  login: string,
  userId: number,
  entityIds: number[],
  record: (typeof records)[number],
): boolean {
  const groupGrants: Record<string, (d: string | null) => boolean> = {
    superadmin: () => true,
    cchaplin: () => true,
    ppetit: () => true,
    bbain: (d) => d === 'PJS' || d === 'PE',
    bblier: (d) => d !== null && ['DGS', 'DRH', 'DSI', 'PJS', 'PE'].includes(d),
    ddur: () => false,
  }
  return (
    groupGrants[login]!(record.destination) ||
    record.typist === userId ||
    record.diffusion.some(
      (d) => (d.type === 'user_id' && d.id === userId) || (d.type === 'entity_id' && entityIds.includes(d.id)),
    )
  )
}

const USERS: [string, number, number[]][] = [
  ['superadmin', 1, [1]],
  ['cchaplin', 2, [1]],
  ['bbain', 3, [6]],
  ['bblier', 4, [3]],
  ['ppetit', 5, [8, 2]],
  ['ddur', 6, [4]],
]

describe('PerimeterGuard', () => {
  it.each(USERS)('gives %s exactly the contract perimeter', async (login, userId, entityIds) => {
    const actor = (await t.mailroom.auth.authenticatePassword(login, login === 'superadmin' ? 'superadmin' : 'maarch'))!
    expect((t.mailroom as unknown as { perimeterGuard?: never }).perimeterGuard).toBeUndefined()
    const { PerimeterGuard } = await import('./perimeter-guard.js')
    const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    // Both shapes of the condition (probed sets; arrays beside the words index) grant the same records.
    for (const shape of ['filter', 'index'] as const) {
      const allowed = await guard.allowedAmong(
        t.mailroom.db,
        actor,
        records.map((r) => r.resId),
        shape,
      )
      for (const record of records)
        expect([shape, record.resId, allowed.has(record.resId)]).toEqual([
          shape,
          record.resId,
          expectedVisible(login, userId, entityIds, record),
        ])
    }
  })

  it('writes memberships as arrays beside the words index only where every group alternative is served by it', async () => {
    const { PerimeterGuard } = await import('./perimeter-guard.js')
    const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    const bbain = (await t.mailroom.auth.authenticatePassword('bbain', 'maarch'))!
    const text = async (actor: typeof bbain, shape: 'filter' | 'index') =>
      sql`${(await guard.condition(t.mailroom.db, actor, shape))!}`.compile(t.mailroom.db).sql
    // The embedded database has no such index (PGLITE_EXTENSIONS): every shape is the filter there.
    expect(await text(bbain, 'index')).toContain(
      testDatabaseKind() === 'postgres'
        ? '= any(array(select li.res_id from listinstance'
        : 'in (select li.res_id from listinstance',
    )
    expect(await text(bbain, 'filter')).toContain('in (select li.res_id from listinstance')
    const byStatus = {
      ...bbain,
      groups: bbain.groups.map((group) => ({ ...group, securityClause: "destination in ('PJS') or status = 'NEW'" })),
    }
    expect(await text(byStatus, 'index')).toContain('in (select li.res_id from listinstance')
    expect(await text(byStatus, 'index')).not.toContain('any(array(')
  })

  it('never grants a record outside the rule for random id lists (property)', async () => {
    const { PerimeterGuard } = await import('./perimeter-guard.js')
    const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    const actors = await Promise.all(
      USERS.map(async ([login]) =>
        t.mailroom.auth.authenticatePassword(login, login === 'superadmin' ? 'superadmin' : 'maarch'),
      ),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: USERS.length - 1 }),
        fc.array(fc.integer({ min: -5, max: records.length + 5 }), { maxLength: 30 }),
        async (u, ids) => {
          const [login, userId, entityIds] = USERS[u]!
          const allowed = await guard.allowedAmong(t.mailroom.db, actors[u]!, ids)
          for (const id of allowed) {
            const record = records.find((r) => r.resId === id)
            expect(record).toBeDefined()
            expect(ids).toContain(id)
            expect(expectedVisible(login, userId, entityIds, record!)).toBe(true)
          }
        },
      ),
      { numRuns: 100, seed: 42 },
    )
  })

  it('treats a broken group clause as granting nothing', async () => {
    const { PerimeterGuard } = await import('./perimeter-guard.js')
    const warnings: unknown[] = []
    const guard = new PerimeterGuard({ info() {}, warn: (o) => warnings.push(o), error() {} })
    const actor = await t.mailroom.auth.authenticatePassword('ddur', 'maarch')
    const broken = { ...actor, groups: [{ ...actor.groups[0]!, securityClause: '1=1; drop table users --' }] }
    const allowed = await guard.allowedAmong(
      t.mailroom.db,
      broken,
      records.map((r) => r.resId),
    )
    expect([...allowed].every((id) => expectedVisible('ddur', 6, [4], records.find((r) => r.resId === id)!))).toBe(true)
    expect(warnings.length).toBe(1)
  })

  it('reuses an actor’s condition across checks, and follows the entity tree once it is invalidated', async () => {
    const { PerimeterGuard } = await import('./perimeter-guard.js')
    const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    const db = t.mailroom.db
    // bblier's group sees DGS and every entity below it (a macro expanded against the tree).
    const bblier = await t.mailroom.auth.authenticatePassword('bblier', 'maarch')
    const condition = await guard.condition(db, bblier)
    expect(await guard.condition(db, bblier)).toBe(condition)
    await db
      .insertInto('entities')
      .values({
        entity_id: 'DRH_PAIE',
        entity_label: 'Paie',
        short_label: 'Paie',
        entity_type: 'Service',
        parent_entity_id: 'DRH',
      })
      .execute()
    const row = await db
      .insertInto('res_letterbox')
      .values({
        subject: 'paie',
        type_id: 101,
        typist: 1,
        category_id: 'incoming',
        model_id: 1,
        status: 'NEW',
        destination: 'DRH_PAIE',
      })
      .returning('res_id')
      .executeTakeFirstOrThrow()
    try {
      guard.invalidate()
      expect(await guard.allows(db, bblier, row.res_id)).toBe(true)
      expect(await guard.condition(db, bblier)).not.toBe(condition)
      // Another user's condition is their own, not bblier's cached one.
      const bbain = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
      expect(await guard.allows(db, bbain, row.res_id)).toBe(false)
    } finally {
      await db.deleteFrom('res_letterbox').where('res_id', '=', row.res_id).execute()
      await db.deleteFrom('entities').where('entity_id', '=', 'DRH_PAIE').execute()
    }
  })
})

describe('include_folders_and_followed_resources_perimeter', () => {
  it('adds the records the user follows and those in folders shared with them, as 20.10, to checks and to search', async () => {
    const { PerimeterGuard } = await import('./perimeter-guard.js')
    const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    const db = t.mailroom.db
    const ddur = (await t.mailroom.auth.authenticatePassword('ddur', 'maarch'))!
    const widened = {
      ...ddur,
      groups: ddur.groups.map((g) => ({
        ...g,
        privileges: [...(g.privileges ?? []), 'include_folders_and_followed_resources_perimeter'],
      })),
    }
    const record = async (subject: string) =>
      Number(
        (
          await db
            .insertInto('res_letterbox')
            .values({
              subject,
              type_id: 101,
              typist: 1,
              category_id: 'incoming',
              model_id: 1,
              status: 'NEW',
              destination: 'VILLE',
            })
            .returning('res_id')
            .executeTakeFirstOrThrow()
        ).res_id,
      )
    const folder = async (owner: number, share: { entity?: number; keyword?: string } | null, resId: number) => {
      const f = await db
        .insertInto('folders')
        .values({ label: `f${resId}`, user_id: owner, public: false })
        .returning('id')
        .executeTakeFirstOrThrow()
      if (share)
        await db
          .insertInto('entities_folders')
          .values({ folder_id: f.id, entity_id: share.entity ?? null, keyword: share.keyword ?? null })
          .execute()
      await db.insertInto('resources_folders').values({ folder_id: f.id, res_id: resId }).execute()
    }
    const followed = await record('followed')
    const ownFolder = await record('own folder')
    const entityFolder = await record('shared with DRH')
    const everyone = await record('shared with every entity')
    const otherFolder = await record('shared with PJS')
    const privateFolder = await record("another's private folder")
    await db.insertInto('users_followed_resources').values({ user_id: 6, res_id: followed }).execute()
    await folder(6, null, ownFolder)
    await folder(1, { entity: 4 }, entityFolder)
    await folder(1, { keyword: 'ALL_ENTITIES' }, everyone)
    await folder(1, { entity: 6 }, otherFolder)
    await folder(1, null, privateFolder)
    const all = [followed, ownFolder, entityFolder, everyone, otherFolder, privateFolder]
    const seen = [followed, ownFolder, entityFolder, everyone]

    expect([...(await guard.allowedAmong(db, widened, all))].sort((a, b) => a - b)).toEqual(seen)
    expect([...(await guard.allowedAmong(db, widened, all, 'index'))].sort((a, b) => a - b)).toEqual(seen)
    // Without the privilege (ddur's groups grant nothing): none of them.
    expect([...(await guard.allowedAmong(db, ddur, all))]).toEqual([])
    const searched = await t.mailroom.criteriaSearch.search(widened, { resId: { values: { start: followed } } }, {})
    expect([...searched.allResources].sort((a, b) => a - b)).toEqual(seen)
    const unprivileged = await t.mailroom.criteriaSearch.search(ddur, { resId: { values: { start: followed } } }, {})
    expect(unprivileged.allResources).toEqual([])
  })
})
