import type { Actor } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { basketClauseCondition } from './basket-perimeter.js'
import { PerimeterGuard } from './perimeter-guard.js'

/**
 * Baskets widen the perimeter (20.10's getUserDataClause, mode `baskets`): a letter in one of my baskets, or in a
 * basket lent to me, is mine to read, search and find by its words, whatever my groups' clauses say.
 */
let t: TestMailroom
let bbainGroup: { id: number; groupId: string }
/** Outside every group clause of bbain (destination COU) and ddur (none): held by the basket for bbain only. */
let forBbain: number
/** The same for ddur: held by the basket when ddur's macros expand it, never by the one bbain lends. */
let forDdur: number
const BBAIN = 3
const DDUR = 6
const BASKET = 'MR53Basket'
const WORD = 'zanzibarique'
const CLAUSE = "subject like 'MR53 %' and dest_user = @user_id"

async function record(destUser: number): Promise<number> {
  const row = await t.mailroom.db
    .insertInto('res_letterbox')
    .values({
      subject: `MR53 letter for ${destUser}`,
      type_id: 101,
      typist: 1,
      category_id: 'incoming',
      model_id: 1,
      // ATT: in none of the demo's baskets (MyBasket holds NEW letters assigned to their clerk).
      status: 'ATT',
      destination: 'COU',
      dest_user: destUser,
    })
    .returning('res_id')
    .executeTakeFirstOrThrow()
  // The record's words, as the full-text indexer leaves them (migration 0019).
  await sql`update res_letterbox set fulltext_document = to_tsvector('mailroom_fr', ${WORD}) where res_id = ${row.res_id}`.execute(
    t.mailroom.db,
  )
  return row.res_id
}

beforeAll(async () => {
  t = await createTestMailroom()
  const db = t.mailroom.db
  const group = await db
    .selectFrom('usergroup_content as uc')
    .innerJoin('usergroups as g', 'g.id', 'uc.group_id')
    .select(['g.id', 'g.group_id'])
    .where('uc.user_id', '=', BBAIN)
    .orderBy('g.id')
    .executeTakeFirstOrThrow()
  bbainGroup = { id: group.id, groupId: group.group_id }
  forBbain = await record(BBAIN)
  forDdur = await record(DDUR)
  await db
    .insertInto('baskets')
    .values({ basket_id: BASKET, basket_name: 'Courriers MR53', basket_clause: CLAUSE })
    .execute()
})
afterAll(async () => t?.cleanup())

beforeEach(async () => {
  const db = t.mailroom.db
  await db.deleteFrom('groupbasket').where('basket_id', '=', BASKET).execute()
  await db.deleteFrom('users_baskets_preferences').where('basket_id', '=', BASKET).execute()
  await db.deleteFrom('redirected_baskets').where('basket_id', '=', BASKET).execute()
})

async function giveBasketToBbain(options: { preference: boolean }): Promise<void> {
  const db = t.mailroom.db
  await db
    .insertInto('groupbasket')
    .values({ group_id: bbainGroup.groupId, basket_id: BASKET })
    .onConflict((c) => c.doNothing())
    .execute()
  // Giving a basket to a group gives its members their preference rows (0026); a member without one is the case
  // 20.10's `allowed` rule leaves out.
  if (!options.preference)
    await db
      .deleteFrom('users_baskets_preferences')
      .where('user_serial_id', '=', BBAIN)
      .where('basket_id', '=', BASKET)
      .execute()
}

async function lendToDdur(): Promise<void> {
  await t.mailroom.db
    .insertInto('redirected_baskets')
    .values({ actual_user_id: DDUR, owner_user_id: BBAIN, basket_id: BASKET, group_id: bbainGroup.id })
    .execute()
}

/** What an actor may see of the two letters, by every way of reading the records (a fresh perimeter each time). */
async function seen(login: string): Promise<{ read: number[]; listed: number[]; words: number[]; criteria: number[] }> {
  const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
  const actor: Actor = await t.mailroom.auth.authenticatePassword(login, 'maarch')
  const letters = [forBbain, forDdur]
  const read = [...(await guard.allowedAmong(t.mailroom.db, actor, letters))].sort((a, b) => a - b)
  const indexed = [...(await guard.allowedAmong(t.mailroom.db, actor, letters, 'index'))].sort((a, b) => a - b)
  expect(indexed).toEqual(read)
  const listed = await t.mailroom.search.list(actor, {
    select: 'res_id',
    clause: `res_id in (${letters.join(', ')})`,
    limit: 10,
  })
  const words = await t.mailroom.search.list(actor, { select: 'res_id', clause: `fulltext('${WORD}')`, limit: 10 })
  const criteria = await t.mailroom.criteriaSearch.search(actor, { fulltext: { values: WORD } }, {})
  return {
    read,
    listed: listed.resources.map((r) => Number(r.res_id)),
    words: words.resources.map((r) => Number(r.res_id)),
    criteria: [...criteria.allResources].sort((a, b) => a - b),
  }
}

const none = { read: [], listed: [], words: [], criteria: [] }

describe('baskets widen the perimeter', () => {
  it('makes a letter of my basket readable, searchable and found by its words, and only while the basket is mine', async () => {
    expect(await seen('bbain')).toEqual(none)
    await giveBasketToBbain({ preference: true })
    const only = [forBbain]
    expect(await seen('bbain')).toEqual({ read: only, listed: only, words: only, criteria: only })
    // Removing the basket from the group removes the access.
    await t.mailroom.db.deleteFrom('groupbasket').where('basket_id', '=', BASKET).execute()
    expect(await seen('bbain')).toEqual(none)
  })

  it('counts only the baskets the user has a preference row for, as 20.10 (its `allowed`)', async () => {
    await giveBasketToBbain({ preference: false })
    expect(await seen('bbain')).toEqual(none)
  })

  it("gives a borrower the lent basket's letters with its owner's macros, until it is given back", async () => {
    await giveBasketToBbain({ preference: true })
    expect(await seen('ddur')).toEqual(none)
    await lendToDdur()
    // dest_user = @user_id is bbain's id: ddur sees bbain's letter, not the one addressed to ddur.
    const only = [forBbain]
    expect(await seen('ddur')).toEqual({ read: only, listed: only, words: only, criteria: only })
    // The owner keeps the basket too (20.10 does not take a lent basket from its owner's perimeter).
    expect((await seen('bbain')).read).toEqual(only)
    await t.mailroom.db.deleteFrom('redirected_baskets').where('basket_id', '=', BASKET).execute()
    expect(await seen('ddur')).toEqual(none)
  })

  it("takes a basket clause's sub-select (a receipt I sent), in both shapes of the perimeter", async () => {
    const db = t.mailroom.db
    await db
      .updateTable('baskets')
      .set({
        basket_clause: 'res_id in (select distinct res_id from acknowledgement_receipts where user_id = @user_id)',
      })
      .where('basket_id', '=', BASKET)
      .execute()
    try {
      await giveBasketToBbain({ preference: true })
      expect(await seen('bbain')).toEqual(none)
      await db
        .insertInto('acknowledgement_receipts')
        .values({ res_id: forDdur, type: 'simple', format: 'html', user_id: BBAIN })
        .execute()
      const only = [forDdur]
      // `seen` checks that the index shape (an array the primary key serves) reads the same letters.
      expect(await seen('bbain')).toEqual({ read: only, listed: only, words: only, criteria: only })
      const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
      const actor = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
      const indexed = sql`${(await guard.condition(db, actor, 'index'))!}`.compile(db).sql
      const { rows } = await sql<{ present: boolean }>`select
          to_regclass('res_letterbox_fulltext_perimeter') is not null as present`.execute(db)
      // Where the words index carries the perimeter (PostgreSQL with btree_gin), the basket is an array of records.
      expect(indexed).toContain(
        rows[0]?.present
          ? '("res_id" = any(array(select distinct "sub"."res_id" from "acknowledgement_receipts" as "sub"'
          : '("res_id" in (select distinct "sub"."res_id" from "acknowledgement_receipts" as "sub"',
      )
    } finally {
      await db.deleteFrom('acknowledgement_receipts').where('res_id', '=', forDdur).execute()
      await db.updateTable('baskets').set({ basket_clause: CLAUSE }).where('basket_id', '=', BASKET).execute()
    }
  })

  it('keeps the baskets the database takes beside one it refuses, and names only that one', async () => {
    // The clauses are probed together, then one by one when the whole is refused.
    const refused = 'MR53Refused'
    const db = t.mailroom.db
    await db
      .insertInto('baskets')
      .values({ basket_id: refused, basket_name: 'Refusée', basket_clause: "creation_date > 'pas une date'" })
      .execute()
    try {
      await db.insertInto('groupbasket').values({ group_id: bbainGroup.groupId, basket_id: refused }).execute()
      await giveBasketToBbain({ preference: true })
      const warnings: unknown[] = []
      const guard = new PerimeterGuard({ info() {}, warn: (o) => warnings.push(o), error() {} })
      const actor = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
      expect([...(await guard.allowedAmong(db, actor, [forBbain, forDdur]))]).toEqual([forBbain])
      expect(warnings).toMatchObject([{ basket: refused, owner: BBAIN }])
    } finally {
      await db.deleteFrom('baskets').where('basket_id', '=', refused).execute()
    }
  })

  it('builds one perimeter for the concurrent requests of one actor', async () => {
    await giveBasketToBbain({ preference: true })
    const guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    const actor = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
    const [a, b] = await Promise.all([guard.condition(t.mailroom.db, actor), guard.condition(t.mailroom.db, actor)])
    expect(a).toBe(b)
  })

  it('grants nothing for a clause the language cannot take, and logs it naming the basket', async () => {
    await t.mailroom.db
      .updateTable('baskets')
      .set({ basket_clause: "res_id in (select res_id from acknowledgement_receipts where filename <> '')" })
      .where('basket_id', '=', BASKET)
      .execute()
    try {
      await giveBasketToBbain({ preference: true })
      const warnings: unknown[] = []
      const guard = new PerimeterGuard({ info() {}, warn: (o) => warnings.push(o), error() {} })
      const actor = await t.mailroom.auth.authenticatePassword('bbain', 'maarch')
      expect([...(await guard.allowedAmong(t.mailroom.db, actor, [forBbain]))]).toEqual([])
      expect(warnings).toMatchObject([{ basket: BASKET, owner: BBAIN }])
      expect(() =>
        basketClauseCondition(
          {
            basketId: BASKET,
            basketName: 'Courriers MR53',
            clause: "res_id in (select res_id from acknowledgement_receipts where filename <> '')",
          },
          {
            userId: BBAIN,
            login: 'bbain',
            email: null,
            entities: [],
            primaryEntity: null,
            allEntities: [],
          },
        ),
      ).toThrow('unknown column "acknowledgement_receipts.filename" at position 62')
    } finally {
      await t.mailroom.db
        .updateTable('baskets')
        .set({ basket_clause: CLAUSE })
        .where('basket_id', '=', BASKET)
        .execute()
    }
  })
})
