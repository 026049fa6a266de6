import { type Actor, type DomainError, isDomainError, type StoredBasket } from '@mailroom/core'
import fc from 'fast-check'
import { type KyselyPlugin, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { insertStandInRecord } from '../../../testing/src/maarch-answers/stand-in-records.js'
import { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import { compiledBasket, countsStatement } from './basket-selection.js'
import { kyselyBasketStore } from './kysely-basket-store.js'

/*
 * A home page's counts: every basket counted by one statement, each count what its clause alone selects, a clause
 * that cannot be used answered as its own error without failing the others.
 */

let t: TestMailroom
let guard: PerimeterGuard
let bbain: Actor
let statements = 0

/** Counts the statements the store runs (precompiled statements reach plugins' transformResult only). */
const countingPlugin: KyselyPlugin = {
  transformQuery: (args) => args.node,
  transformResult: async (args) => {
    statements++
    return args.result
  },
}

beforeAll(async () => {
  t = await createTestMailroom()
  guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
  bbain = (await t.mailroom.auth.authenticatePassword('bbain', 'maarch'))!
  let n = 0
  for (const destination of ['PJS', 'DGS', 'DRH', null])
    for (const status of ['NEW', 'COU', 'END'])
      await insertStandInRecord(t.mailroom.db, {
        subject: `count ${++n}`,
        typist: n % 2 === 0 ? 3 : 1,
        status,
        destination,
      })
})
afterAll(async () => t?.cleanup())

const store = () => kyselyBasketStore({ db: t.mailroom.db.withPlugin(countingPlugin), perimeter: guard })

let serial = 0
const basket = (clause: string): StoredBasket => {
  serial++
  return {
    id: serial,
    basketId: `B${serial}`,
    basketName: `Corbeille ${serial}`,
    clause,
    description: '',
    resOrder: '',
  }
}

/** The clause's count run alone, in SQL written by hand (`where` with bbain's macros already expanded). */
async function countWhere(where: string): Promise<number> {
  const { rows } = await sql<{
    n: number
  }>`select count(*)::int as n from res_view_letterbox where ${sql.raw(where)}`.execute(t.mailroom.db)
  return rows[0]!.n
}

const USABLE: readonly [clause: string, expanded: string][] = [
  ["status = 'NEW'", "status = 'NEW'"],
  ["status in ('NEW', 'COU') and destination in (@my_entities)", "status in ('NEW', 'COU') and destination in ('PJS')"],
  ['typist = @user_id', 'typist = 3'],
  ["destination is null or status = 'END'", "destination is null or status = 'END'"],
  ['1=0', '1=0'],
  [
    "res_id in (select res_id from listinstance where item_id = @user_id and item_mode = 'cc')",
    "res_id in (select res_id from listinstance where item_id = 3 and item_mode = 'cc')",
  ],
]

function refusal(value: number | DomainError): DomainError {
  if (typeof value === 'number' || !isDomainError(value)) throw new Error(`not a refusal: ${value}`)
  return value
}

describe('BasketStore.counts', () => {
  it('counts every basket in one statement, each as its clause alone selects', async () => {
    const toCount = USABLE.map(([clause]) => ({ basket: basket(clause), ownerUserId: bbain.id }))
    await store().counts(toCount, bbain) // reads the entity tree the macros walk: not a count
    statements = 0
    const counts = await store().counts(toCount, bbain)
    expect(statements).toBe(1)
    expect(counts).toEqual(await Promise.all(USABLE.map(([, expanded]) => countWhere(expanded))))
    expect(counts.some((n) => typeof n === 'number' && n > 0)).toBe(true)
  })

  it('answers a clause it cannot take, or one the database refuses, as that basket’s error; the others are counted', async () => {
    const cannotParse = basket(
      'res_id in (select r.res_id_master from res_attachments r inner join shippings s on true)',
    )
    const databaseRefuses = basket("creation_date > 'pas une date'")
    const counts = await store().counts(
      [
        { basket: basket("status = 'NEW'"), ownerUserId: bbain.id },
        { basket: cannotParse, ownerUserId: bbain.id },
        { basket: databaseRefuses, ownerUserId: bbain.id },
        { basket: basket('typist = @user_id'), ownerUserId: bbain.id },
      ],
      bbain,
    )
    expect(counts[0]).toBe(await countWhere("status = 'NEW'"))
    expect(counts[3]).toBe(await countWhere('typist = 3'))
    expect(refusal(counts[1]!)).toMatchObject({ code: 'BASKET_CLAUSE_REFUSED' })
    expect(refusal(counts[1]!).message).toContain(cannotParse.basketName)
    expect(refusal(counts[2]!)).toMatchObject({ code: 'BASKET_CLAUSE_REFUSED' })
    expect(refusal(counts[2]!).message).toContain(databaseRefuses.basketName)
  })

  it("counts a lent basket with its owner's clause, and a basket of a user who no longer exists as 0", async () => {
    const clause = "status in ('NEW', 'COU', 'END') and destination in (@my_entities)"
    const counts = await store().counts(
      [
        { basket: basket(clause), ownerUserId: bbain.id },
        { basket: basket(clause), ownerUserId: 4 },
        { basket: basket(clause), ownerUserId: 987_654_321 },
      ],
      bbain,
    )
    expect(counts).toEqual([await countWhere("destination = 'PJS'"), await countWhere("destination = 'DGS'"), 0])
  })

  it('compiles the statement of a set of baskets once, another for another set or order', async () => {
    const context = { db: t.mailroom.db, perimeter: guard }
    const [a, b] = await Promise.all(
      ["status = 'NEW'", 'typist = @user_id'].map((c) => compiledBasket(context, basket(c), bbain)),
    )
    const ab = countsStatement(context, [a!, b!])
    expect(countsStatement(context, [a!, b!])).toBe(ab)
    expect(countsStatement(context, [b!, a!])).not.toBe(ab)
    expect(countsStatement(context, [a!])).not.toBe(ab)
  })

  it('gives, for any baskets in any order, repeats included, what counting each alone gives', async () => {
    const alone = await Promise.all(USABLE.map(([, expanded]) => countWhere(expanded)))
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(USABLE.length - 1), { minLength: 0, maxLength: 8 }), async (picks) => {
        const counts = await store().counts(
          picks.map((i) => ({ basket: basket(USABLE[i]![0]), ownerUserId: bbain.id })),
          bbain,
        )
        expect(counts).toEqual(picks.map((i) => alone[i]))
      }),
      { numRuns: 25 },
    )
  })
})
