import { type Actor, type ClauseAst, isDomainError, printClause } from '@mailroom/core'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clauseArbitrary } from '../../../testing/src/arbitraries/clause-arbitrary.js'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import {
  DEMO_USERS,
  naiveVisible,
  type SeededRecord,
  seedSearchDataset,
} from '../../../testing/src/fixtures/search-test-dataset.js'

let t: TestMailroom
let records: SeededRecord[]
let actors: Actor[]

beforeAll(async () => {
  t = await createTestMailroom()
  records = await seedSearchDataset(t.mailroom.db, t.documents)
  actors = await Promise.all(DEMO_USERS.map((u) => t.mailroom.auth.authenticatePassword(u.login, u.password)))
})
afterAll(async () => t?.cleanup())

const STATUSES = ['NEW', 'COU', 'END', 'DEL', 'VAL']
const DESTINATIONS = ['VILLE', 'CAB', 'DGS', 'DRH', 'DSI', 'PJS', 'PE', 'COU']
const str = (value: string): ClauseAst => ({ kind: 'string', value })
const num = (value: number): ClauseAst => ({ kind: 'number', value: String(value) })
const col = (name: 'status' | 'destination' | 'typist' | 'res_id' | 'subject' | 'custom_fields'): ClauseAst => ({
  kind: 'column',
  name,
})

/** Well-typed conditions over the seeded columns, so that many random searches do return rows. */
const typedCondition: fc.Arbitrary<ClauseAst> = fc.letrec<{ cond: ClauseAst }>((tie) => ({
  cond: fc.oneof(
    { maxDepth: 4, depthIdentifier: 'cond' },
    fc
      .constantFrom(...STATUSES)
      .map((s): ClauseAst => ({ kind: 'comparison', op: '=', left: col('status'), right: str(s) })),
    fc
      .array(fc.constantFrom(...DESTINATIONS), { minLength: 1, maxLength: 4 })
      .map((ds): ClauseAst => ({ kind: 'in', negated: false, operand: col('destination'), items: ds.map(str) })),
    fc
      .tuple(fc.constantFrom('<' as const, '>=' as const, '<>' as const), fc.integer({ min: 0, max: 400 }))
      .map(([op, n]): ClauseAst => ({ kind: 'comparison', op, left: col('res_id'), right: num(n) })),
    fc
      .integer({ min: 1, max: 7 })
      .map((n): ClauseAst => ({ kind: 'comparison', op: '=', left: col('typist'), right: num(n) })),
    fc.constant<ClauseAst>({ kind: 'comparison', op: '=', left: num(1), right: num(1) }),
    fc.constant<ClauseAst>({ kind: 'boolean', value: true }),
    fc.constant<ClauseAst>({ kind: 'is', negated: false, operand: col('destination'), test: 'null' }),
    fc.constant<ClauseAst>({
      kind: 'like',
      op: 'ilike',
      negated: false,
      operand: col('subject'),
      pattern: str('%courrier%'),
    }),
    fc.constantFrom('Mail', 'Courrier').map(
      (v): ClauseAst => ({
        kind: 'comparison',
        op: '=',
        left: { kind: 'json', op: '->>', operand: col('custom_fields'), key: { kind: 'string', value: '3' } },
        right: str(v),
      }),
    ),
    // Sub-selects over the diffusion lists (of records in the perimeter or not), plain and as a row value.
    fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 8 }), fc.constantFrom('user_id', 'entity_id')).map(
      ([negated, id, type]): ClauseAst => ({
        kind: 'in-select',
        negated,
        operands: [col('res_id')],
        select: {
          kind: 'select',
          table: 'listinstance',
          distinct: false,
          columns: ['res_id'],
          where: {
            kind: 'logical',
            op: 'and',
            left: { kind: 'comparison', op: '=', left: { kind: 'table-column', name: 'item_id' }, right: num(id) },
            right: { kind: 'comparison', op: '=', left: { kind: 'table-column', name: 'item_type' }, right: str(type) },
          },
          groupBy: [],
          orderBy: [],
          limit: null,
        },
      }),
    ),
    fc.integer({ min: 1, max: 8 }).map(
      (id): ClauseAst => ({
        kind: 'in-select',
        negated: false,
        operands: [col('res_id'), num(id)],
        select: {
          kind: 'select',
          table: 'listinstance',
          distinct: true,
          columns: ['res_id', 'item_id'],
          where: null,
          groupBy: [],
          orderBy: [],
          limit: null,
        },
      }),
    ),
    fc
      .tuple(fc.constantFrom('and' as const, 'or' as const), tie('cond'), tie('cond'))
      .map(([op, left, right]): ClauseAst => ({ kind: 'logical', op, left, right })),
    tie('cond').map((operand): ClauseAst => ({ kind: 'not', operand })),
  ),
})).cond

describe('search within the perimeter (property, seeded dataset)', () => {
  it('never returns a row outside the perimeter of a random demo user, and never fails with anything but 400', async () => {
    let answered = 0
    let withRows = 0
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: DEMO_USERS.length - 1 }),
        fc.oneof(
          { weight: 1, arbitrary: clauseArbitrary({ maxDepth: 3 }) },
          { weight: 1, arbitrary: clauseArbitrary({ maxDepth: 2, subqueries: true }) },
          { weight: 3, arbitrary: typedCondition },
        ),
        fc.boolean(),
        async (u, ast, tautologyTail) => {
          const user = DEMO_USERS[u]!
          const text = tautologyTail ? `${printClause(ast)} OR 1=1` : printClause(ast)
          let result: Awaited<ReturnType<typeof t.mailroom.search.list>>
          try {
            result = await t.mailroom.search.list(actors[u]!, { select: 'res_id', clause: text, limit: 1000 })
          } catch (error) {
            if (isDomainError(error) && error.kind === 'bad-request') return
            throw error
          }
          answered++
          if (result.count > 0) withRows++
          for (const resource of result.resources) {
            const record = records.find((r) => r.resId === resource.res_id)
            expect(record, `${text} returned unknown ${resource.res_id}`).toBeDefined()
            expect(naiveVisible(user, record!), `${user.login}: ${text} returned ${resource.res_id}`).toBe(true)
          }
        },
      ),
      {
        numRuns: Number(process.env.SEARCH_PROPERTY_RUNS ?? 400),
        ...(process.env.SEARCH_PROPERTY_RUNS ? {} : { seed: 20251 }),
        endOnFailure: true,
      },
    )
    expect(answered).toBeGreaterThan(100)
    expect(withRows).toBeGreaterThan(50)
  })

  it('with a tautology, each demo user gets exactly the perimeter', async () => {
    for (const [index, user] of DEMO_USERS.entries()) {
      const result = await t.mailroom.search.list(actors[index]!, {
        select: 'res_id',
        clause: '1=1 OR 1=1',
        limit: 1000,
      })
      expect(result.resources.map((r) => r.res_id)).toEqual(
        records.filter((r) => naiveVisible(user, r)).map((r) => r.resId),
      )
    }
  })
})

describe('sub-selects in a search reveal nothing outside the perimeter', () => {
  const search = (index: number, clause: string) =>
    t.mailroom.search.list(actors[index]!, { select: 'res_id', clause, limit: 1000 })
  const idsOf = async (index: number, clause: string) => (await search(index, clause)).resources.map((r) => r.res_id)

  it("answers for the perimeter's records only, whatever the sub-select reads of the others", async () => {
    const bbain = DEMO_USERS.findIndex((u) => u.login === 'bbain')
    const user = DEMO_USERS[bbain]!
    const outside = records.find((r) => !naiveVisible(user, r))!
    const inside = records.find((r) => naiveVisible(user, r))!
    // A diffusion-list row that only the outside record has: a sub-select finding it must find nothing.
    for (const record of [outside, inside])
      await t.mailroom.db
        .insertInto('listinstance')
        .values({
          res_id: record.resId,
          item_id: 4242,
          item_type: 'user_id',
          item_mode: 'cc',
          difflist_type: 'entity_id',
        })
        .execute()
    try {
      const perimeter = await idsOf(bbain, '1=1')
      expect(await idsOf(bbain, 'res_id in (select res_id from listinstance where item_id = 4242)')).toEqual([
        inside.resId,
      ])
      expect(
        await idsOf(
          bbain,
          `res_id in (select res_id from listinstance where item_id = 4242 and res_id = ${outside.resId})`,
        ),
      ).toEqual([])
      expect(await idsOf(bbain, 'res_id not in (select res_id from listinstance where item_id = 4242)')).toEqual(
        perimeter.filter((id) => id !== inside.resId),
      )
      expect(await idsOf(bbain, '(res_id, 4242) in (select res_id, item_id from listinstance)')).toEqual([inside.resId])
      // What the outside record's rows hold cannot be probed: not by the values compared with them…
      for (const probe of [
        `${outside.resId} in (select res_id from listinstance)`,
        `4242 in (select item_id from listinstance where res_id = ${outside.resId})`,
        `(typist, 4242) in (select res_id, item_id from listinstance)`,
      ])
        await expect(search(bbain, probe), probe).rejects.toThrow(/must select the record the clause is tested on/)
      // …nor by an error raised on one of them (a division by zero where item_id = 4242).
      await expect(
        search(bbain, 'res_id in (select res_id from listinstance where 1 / (item_id - 4242) = 1)'),
      ).rejects.toThrow(/may not compute values that can fail on a row/)
      // A user's own tables are for basket clauses, not searches.
      await expect(search(bbain, 'res_id in (select res_id from res_mark_as_read)')).rejects.toThrow(
        /may only be read by an administrator's clause/,
      )
    } finally {
      await t.mailroom.db.deleteFrom('listinstance').where('item_id', '=', 4242).execute()
    }
  })
})
