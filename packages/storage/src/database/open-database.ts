import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import type { Database } from './schema.js'
import { PgliteDialect } from './pglite-dialect.js'

/** Where the data lives: an external PostgreSQL server or an embedded PGlite directory. */
export type DatabaseTarget =
  | { readonly kind: 'postgres'; readonly url: string; readonly poolSize?: number; readonly statementTimeoutMs?: number }
  | { readonly kind: 'pglite'; readonly dataDir: string }

/** An open database: the kysely instance plus what the driver needs to be closed and probed. */
export interface MailroomDatabase {
  readonly db: Kysely<Database>
  readonly kind: DatabaseTarget['kind']
  /** Resolves when a trivial query answers; rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
}

const INT8_OID = 20
const NUMERIC_OID = 1700

/** Opens the database of a target. int8 and numeric come back as JS numbers on both drivers. */
export async function openDatabase(target: DatabaseTarget): Promise<MailroomDatabase> {
  if (target.kind === 'postgres') return openPostgres(target)
  return openPglite(target.dataDir)
}

function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): MailroomDatabase {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value)
      return pg.types.getTypeParser(oid, format)
    },
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: target.poolSize ?? 10,
    // Fail fast instead of queueing forever when the server is down (pg's default waits indefinitely).
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: target.statementTimeoutMs ?? 15_000,
    idle_in_transaction_session_timeout: 30_000,
    application_name: 'mailroom',
    keepAlive: true,
    types,
  } as pg.PoolConfig)
  // An idle client losing its server must not crash the process; the next checkout reconnects.
  pool.on('error', () => {})
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}

async function openPglite(dataDir: string): Promise<MailroomDatabase> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true })
  const pglite = await PGlite.create(dataDir, {
    parsers: { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) },
  })
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite) })
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}
