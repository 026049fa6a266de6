import { randomBytes } from 'node:crypto'
import { postgresAdminUrl } from '@mailroom/testing'
import pg from 'pg'

/** A Maarch source database: where the importer reads from, and how to remove it. */
export interface SourceDatabase {
  readonly url: string
  drop(): Promise<void>
}

/**
 * Runs `use` on a client of the test server's admin database. The importer reads its source over
 * PostgreSQL's protocol (node-postgres), so a source always needs a PostgreSQL server, also in the PGlite
 * project; where none answers, the error says which server was tried and how `npm test` finds one.
 */
async function onAdmin<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresAdminUrl() })
  try {
    await client.connect()
  } catch (error) {
    throw new Error(
      `the Maarch import tests need a PostgreSQL server for their source database and none answers at ${postgresAdminUrl()} (${String(error)}): set TEST_DATABASE_URL, or run \`npm test\`, which finds or starts one (scripts/ensure-postgres.sh)`,
    )
  }
  try {
    return await use(client)
  } finally {
    await client.end()
  }
}

/** A fresh, empty PostgreSQL database on the test server, filled by `fill` (dropped again if it fails). */
export async function createSourceDatabase(fill: (client: pg.Client) => Promise<void>): Promise<SourceDatabase> {
  const name = `maarch_src_${process.pid}_${randomBytes(4).toString('hex')}`
  await onAdmin((admin) => admin.query(`create database ${name}`))
  const url = new URL(postgresAdminUrl())
  url.pathname = `/${name}`
  const drop = () => onAdmin((admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => {})
  try {
    const client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
    try {
      await fill(client)
    } finally {
      await client.end()
    }
  } catch (error) {
    await drop()
    throw error
  }
  return { url: url.toString(), drop }
}
