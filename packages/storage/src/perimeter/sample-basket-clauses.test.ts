import { isDomainError } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { publisherBaskets } from '../../../testing/src/fixtures/publisher-baskets.js'
import { basketClauseCondition } from './basket-perimeter.js'

/** The publisher's 24 basket clauses, compiled for a clerk and run on Mailroom's schema: the 22 taken all run. */
const sample = publisherBaskets()
if ('missing' in sample && (process.env.CI === 'true' || process.env.CI === '1'))
  throw new Error(`CI must run every test: ${sample.missing}`)
if ('missing' in sample) process.stderr.write(`the sample basket clauses are not run: ${sample.missing}\n`)
const run = 'baskets' in sample ? it : it.skip

let t: TestMailroom
beforeAll(async () => {
  if ('baskets' in sample) t = await createTestMailroom()
})
afterAll(async () => t?.cleanup())

describe("the publisher's sample basket clauses on Mailroom's schema", () => {
  run('run as SQL PostgreSQL takes, but the two refused by name', async () => {
    const baskets = 'baskets' in sample ? sample.baskets : []
    const owner = {
      userId: 3,
      login: 'bbain',
      email: null,
      entities: [{ id: 6, entityId: 'PJS' }],
      primaryEntity: { id: 6, entityId: 'PJS' },
      allEntities: [
        { id: 6, entityId: 'PJS', parentEntityId: 'VILLE', entityType: 'Service', enabled: true },
        { id: 7, entityId: 'PE', parentEntityId: 'PJS', entityType: 'Bureau', enabled: true },
      ],
    }
    const ran: string[] = []
    const refused: string[] = []
    for (const { basketId, clause } of baskets) {
      let condition: ReturnType<typeof basketClauseCondition>
      try {
        condition = basketClauseCondition({ basketId, basketName: basketId, clause }, owner)
      } catch (error) {
        if (!isDomainError(error)) throw error
        refused.push(basketId)
        continue
      }
      await sql`select count(*) from res_view_letterbox where ${condition}`.execute(t.mailroom.db)
      ran.push(basketId)
    }
    expect(refused).toEqual(['AR_AlreadySend', 'Maileva_Sended'])
    expect(ran).toHaveLength(22)
  })
})
