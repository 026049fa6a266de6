import { isDomainError } from '@mailroom/core'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { SILENT_LOGGER } from '../logger.js'
import { isRefusedQuery, runSearch } from './run-search.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom({ demo: false })
})
afterAll(async () => t?.cleanup())

function withCode(code: string): Error {
  return Object.assign(new Error('x'), { code })
}

describe('isRefusedQuery', () => {
  it.each(['22007', '22P02', '22012', '42883', '42P18', '42804', '54001', '0A000', '57014'])(
    '%s is the caller’s doing',
    (code) => {
      expect(isRefusedQuery(withCode(code))).toBe(true)
    },
  )
  it.each(['08006', '53300', '57P01', 'XX000', '40001', '25P02'])('%s is the database’s doing', (code) => {
    expect(isRefusedQuery(withCode(code))).toBe(false)
  })
  it('recognises PGlite’s client-side parameter refusal only', () => {
    expect(isRefusedQuery(new Error('Invalid input for boolean type'))).toBe(true)
    expect(isRefusedQuery(new TypeError('Cannot read properties of undefined'))).toBe(false)
    expect(isRefusedQuery('Invalid input for boolean type')).toBe(false)
  })
})

describe('runSearch', () => {
  const context = () => ({ db: t.mailroom.db, logger: SILENT_LOGGER })

  it('turns a database refusal into 400 Request is not valid', async () => {
    const error = await runSearch(
      context(),
      async (db) => (await sql<Record<string, unknown>>`select 1 / 0 as x`.execute(db)).rows,
    ).catch((e) => e)
    expect(isDomainError(error) && [error.code, error.kind, error.message]).toEqual([
      'SEARCH_REQUEST_INVALID',
      'bad-request',
      'Request is not valid',
    ])
  })

  it('lets other failures through', async () => {
    const failure = withCode('08006')
    await expect(runSearch(context(), () => Promise.reject(failure))).rejects.toBe(failure)
  })

  it.runIf(process.env.MAILROOM_TEST_DB === 'postgres')(
    'answers 400 when the connection’s statement timeout cancels a search (PostgreSQL)',
    async () => {
      const started = Date.now()
      const error = await t.mailroom.db
        .connection()
        .execute(async (connection) => {
          await sql`set statement_timeout = 100`.execute(connection)
          try {
            return await runSearch(
              { db: connection, logger: SILENT_LOGGER },
              async (db) => (await sql<Record<string, unknown>>`select pg_sleep(120) as x`.execute(db)).rows,
            )
          } finally {
            await sql`reset statement_timeout`.execute(connection)
          }
        })
        .catch((e) => e)
      expect(isDomainError(error) && error.code).toBe('SEARCH_REQUEST_INVALID')
      // The 100 ms statement timeout stopped it, not the two-minute sleep's end (a loaded machine is slow, not that slow).
      expect(Date.now() - started).toBeLessThan(30_000)
    },
  )
})
