import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestDatabase, type TestDatabase } from '../../../testing/src/databases/test-database.js'
import { type MailroomDatabase, openDatabase } from './open-database.js'

async function settingsOf(database: MailroomDatabase): Promise<{ jit: string; workMem: string }> {
  const { rows } = await sql<{ jit: string; work_mem: string }>`select current_setting('jit') as jit,
    current_setting('work_mem') as work_mem`.execute(database.db)
  return { jit: rows[0]!.jit, workMem: rows[0]!.work_mem }
}

describe('session settings (PGlite)', () => {
  it('turns JIT off and gives searches 32 MB of working memory', async () => {
    const database = await openDatabase({ kind: 'pglite', dataDir: 'memory://' })
    try {
      expect(await settingsOf(database)).toEqual({ jit: 'off', workMem: '32MB' })
    } finally {
      await database.close()
    }
  })
})

describe.runIf(process.env.MAILROOM_TEST_DB === 'postgres')('session settings (PostgreSQL)', () => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase('postgres')
  })
  afterAll(async () => {
    await database?.drop()
  })

  it('applies to every connection of the pool, the first statement of each included', async () => {
    const opened = await openDatabase({ kind: 'postgres', url: database.url!, poolSize: 3 })
    try {
      // Three statements at once take three connections, each fresh: each must already run with the settings.
      const seen = await Promise.all([settingsOf(opened), settingsOf(opened), settingsOf(opened)])
      expect(seen).toEqual(Array(3).fill({ jit: 'off', workMem: '32MB' }))
      expect(opened.poolStatistics?.().size).toBe(3)
    } finally {
      await opened.close()
    }
  })

  it("keeps an operator's larger working memory", async () => {
    const url = new URL(database.url!)
    url.searchParams.set('options', '-c work_mem=64MB')
    const opened = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 })
    try {
      expect(await settingsOf(opened)).toEqual({ jit: 'off', workMem: '64MB' })
    } finally {
      await opened.close()
    }
  })
})
