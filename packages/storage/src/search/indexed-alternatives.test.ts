import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestMailroom, type TestMailroom } from '../../../testing/src/databases/test-database.js'
import { JSON_INDEX_COLUMNS, RECORD_INDEX_COLUMNS } from './indexed-alternatives.js'

let t: TestMailroom
beforeAll(async () => {
  t = await createTestMailroom({ demo: false })
})
afterAll(async () => t?.cleanup())

describe('the indexes a basket’s ORs are written for', () => {
  it('has a btree index led by each column it counts on, and a GIN index on each JSON column', async () => {
    const { rows } = await sql<{ column_name: string; method: string }>`select a.attname as column_name,
        am.amname as method
      from pg_index i
        join pg_class c on c.oid = i.indexrelid
        join pg_am am on am.oid = c.relam
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[0]
      where i.indrelid = 'res_letterbox'::regclass`.execute(t.mailroom.db)
    const led = (method: string) => new Set(rows.filter((r) => r.method === method).map((r) => r.column_name))
    expect([...RECORD_INDEX_COLUMNS].filter((column) => !led('btree').has(column))).toEqual([])
    expect([...JSON_INDEX_COLUMNS].filter((column) => !led('gin').has(column))).toEqual([])
  })
})
