import { isDomainError } from '@mailroom/core'
import fc from 'fast-check'
import { type Expression, type SqlBool, sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { PerimeterGuard } from '../perimeter/perimeter-guard.js'
import { basketSelection, basketSelectionOfUser } from './basket-selection.js'

let t: TestMailroom
let guard: PerimeterGuard
const mine: number[] = []

beforeAll(async () => {
  t = await createTestMailroom()
  guard = new PerimeterGuard({ info() {}, warn() {}, error() {} })
  let n = 0
  for (const destination of ['PJS', 'DGS', 'DRH', 'COU', null])
    for (const status of ['NEW', 'COU', 'END']) {
      n++
      const row = await t.mailroom.db
        .insertInto('res_letterbox')
        .values({
          subject: `basket ${n}`,
          type_id: 101,
          typist: n % 2 === 0 ? 3 : 1,
          category_id: 'incoming',
          model_id: 1,
          status,
          destination,
        })
        .returning('res_id')
        .executeTakeFirstOrThrow()
      mine.push(row.res_id)
    }
})
afterAll(async () => t?.cleanup())

const context = () => ({ db: t.mailroom.db, perimeter: guard })

/** The ids among this file's records that `condition` selects. */
async function selected(condition: Expression<SqlBool>): Promise<number[]> {
  const rows = await t.mailroom.db
    .selectFrom('res_view_letterbox')
    .select('res_id')
    .where(condition)
    .where('res_id', 'in', mine)
    .orderBy('res_id')
    .execute()
  return rows.map((r) => Number(r.res_id))
}

async function expected(where: string): Promise<number[]> {
  const { rows } = await sql<{ res_id: number }>`select res_id from res_view_letterbox where ${sql.raw(where)}
    and res_id = any(${sql.val(mine)}::bigint[]) order by res_id`.execute(t.mailroom.db)
  return rows.map((r) => Number(r.res_id))
}

const basket = (clause: string) => ({ basketId: 'MyBasket', basketName: 'Mes courriers', clause })

describe('basketSelection', () => {
  it('expands the macros for the basket’s owner', async () => {
    const clause = "status = 'NEW' and destination in (@my_entities)"
    const bbain = (await t.mailroom.auth.authenticatePassword('bbain', 'maarch'))!
    expect(await selected(await basketSelection(context(), basket(clause), bbain))).toEqual(
      await expected("status = 'NEW' and destination in ('PJS')"),
    )
    // The same basket, owned by bblier (DGS), holds bblier's letters: the owner decides, not the reader.
    expect(await selected(await basketSelectionOfUser(context(), basket(clause), 4))).toEqual(
      await expected("status = 'NEW' and destination in ('DGS')"),
    )
    expect(await selected(await basketSelectionOfUser(context(), basket('typist = @user_id'), 3))).toEqual(
      await expected('typist = 3'),
    )
  })

  it('is the basket’s clause alone, not ANDed with the owner’s group perimeter (as 20.10)', async () => {
    // ddur's group (CONSULT) sees nothing (1=0); a basket of ddur's still holds what its clause selects.
    const ddur = (await t.mailroom.auth.authenticatePassword('ddur', 'maarch'))!
    expect(await selected(await basketSelection(context(), basket("status = 'END'"), ddur))).toEqual(
      await expected("status = 'END'"),
    )
  })

  it("takes an administrator's sub-selects, as the perimeter does (a clerk's own receipts and marks)", async () => {
    const clause = 'res_id not in (select res_id from acknowledgement_receipts) and typist = @user_id'
    expect(await selected(await basketSelectionOfUser(context(), basket(clause), 3))).toEqual(
      await expected('typist = 3'),
    )
  })

  it('holds nothing for an owner that no longer exists', async () => {
    expect(await selected(await basketSelectionOfUser(context(), basket('1=1'), 999_999))).toEqual([])
  })

  it.each([
    ['res_id in (select res_id from shippings)', 'unknown table "shippings"'],
    ['1=1; drop table users --', 'statement separators are not allowed'],
    ['nonsense_column = 1', 'unknown column'],
    ['', 'the clause is empty'],
    ['   ', 'the clause is empty'],
  ])('refuses the clause %j naming the basket, never selecting everything', async (clause, reason) => {
    const error = await basketSelectionOfUser(context(), basket(clause), 3).catch((e: unknown) => e)
    expect(isDomainError(error) && error.code).toBe('BASKET_CLAUSE_REFUSED')
    expect((error as Error).message).toContain('Basket "Mes courriers" (MyBasket) has a clause that cannot be used: ')
    expect((error as Error).message).toContain(reason)
  })

  it('either refuses a hostile clause or compiles it to a query that runs (property)', async () => {
    const bbain = (await t.mailroom.auth.authenticatePassword('bbain', 'maarch'))!
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc.constantFrom(
            "status = '\u0000'",
            "destination in (@my_entities, '\u0000x')",
            'res_id = 99999999999999999999',
          ),
        ),
        async (clause) => {
          let condition: Expression<SqlBool>
          try {
            condition = await basketSelection(context(), basket(clause), bbain)
          } catch (error) {
            expect(isDomainError(error) && error.code).toBe('BASKET_CLAUSE_REFUSED')
            return
          }
          await selected(condition).catch((error: unknown) => {
            // The database may refuse a value (a date text, a NUL); that is an error, never every record.
            expect(error).toBeInstanceOf(Error)
          })
        },
      ),
      { numRuns: 60, seed: 53 },
    )
  })
})

describe('the entity tree basket clauses are compiled against', () => {
  it('stays the same list across refreshes while no entity changes, and is a new one once one does', async () => {
    const bbain = (await t.mailroom.auth.authenticatePassword('bbain', 'maarch'))!
    const own = new PerimeterGuard({ info() {}, warn() {}, error() {} })
    const tree = async () => (await own.macroContext(t.mailroom.db, bbain)).allEntities
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const first = await tree()
      vi.setSystemTime(Date.now() + 60_000)
      // Re-read (its 5 s are over), the same rows: the same list, so what was compiled against it is kept.
      expect(await tree()).toBe(first)
      await t.mailroom.db
        .insertInto('entities')
        .values({ entity_id: 'TREE53', entity_label: 'Arbre', short_label: 'Arbre', entity_type: 'Service' })
        .execute()
      vi.setSystemTime(Date.now() + 60_000)
      const changed = await tree()
      expect(changed).not.toBe(first)
      expect(changed.map((e) => e.entityId)).toContain('TREE53')
    } finally {
      vi.useRealTimers()
      await t.mailroom.db.deleteFrom('entities').where('entity_id', '=', 'TREE53').execute()
    }
  })
})
