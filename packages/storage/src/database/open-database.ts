import { mkdirSync } from 'node:fs'
import { PGlite } from '@electric-sql/pglite'
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { fail } from '@mailroom/core'
import { Kysely, PostgresDialect, sql } from 'kysely'
import pg from 'pg'
import { PgliteDialect } from './pglite-dialect.js'
import { PgliteWatchdog } from './pglite-watchdog.js'
import { preparingPool } from './prepared-statements.js'
import type { Database } from './schema.js'
import { SESSION_SETTINGS_SQL } from './session-settings.js'

/** Where the data lives: an external PostgreSQL server or an embedded PGlite directory. */
export type DatabaseTarget =
  | {
      readonly kind: 'postgres'
      readonly url: string
      readonly poolSize?: number
      readonly statementTimeoutMs?: number
      /** Run repeated statements as named prepared statements (default true; false behind a pooler that cannot keep them). */
      readonly preparedStatements?: boolean
    }
  | {
      readonly kind: 'pglite'
      readonly dataDir: string
      /**
       * A copy of another PGlite database to start from (the tarball of PGlite's `dumpDataDir`), for a new
       * in-memory or empty `dataDir`: a database prepared once (migrated, loaded) is opened many times.
       */
      readonly loadDataDir?: Blob
      /**
       * How long the one connection may be held with no statement finishing before waiting callers are refused
       * with DATABASE_UNRESPONSIVE (503) and readiness fails (default 15 s, PostgreSQL's statement timeout here).
       */
      readonly stallTimeoutMs?: number
    }

/** An open database: the kysely instance plus what the driver needs to be closed and probed. */
export interface MailroomDatabase {
  readonly db: Kysely<Database>
  readonly kind: DatabaseTarget['kind']
  /** Resolves when a trivial query answers; rejects otherwise. */
  ping(): Promise<void>
  close(): Promise<void>
  /** The connection pool's state, where the driver keeps one (pg); absent for PGlite and a caller's kysely. */
  poolStatistics?(): PoolStatistics
}

/** Connections of a pg pool: opened, checked out, idle, and callers waiting for one. */
export interface PoolStatistics {
  readonly size: number
  readonly inUse: number
  readonly idle: number
  readonly waiting: number
}

/** What pg.Pool counts (read when present, so a caller's pool of another kind is simply not measured). */
interface CountingPool {
  readonly totalCount: number
  readonly idleCount: number
  readonly waitingCount: number
}

function countingPool(pool: unknown): CountingPool | undefined {
  const candidate = pool as Partial<CountingPool>
  return typeof candidate.totalCount === 'number' &&
    typeof candidate.idleCount === 'number' &&
    typeof candidate.waitingCount === 'number'
    ? (candidate as CountingPool)
    : undefined
}

function poolStatisticsOf(pool: CountingPool): PoolStatistics {
  return {
    size: pool.totalCount,
    inUse: pool.totalCount - pool.idleCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
  }
}

const INT8_OID = 20
const NUMERIC_OID = 1700

/** Opens the database of a target. int8 and numeric come back as JS numbers on both drivers. */
export async function openDatabase(target: DatabaseTarget): Promise<MailroomDatabase> {
  if (target.kind === 'postgres') return openPostgres(target)
  return openPglite(target)
}

/** pg type parsing Mailroom relies on: int8 and numeric as JS numbers. */
export const MAILROOM_PG_TYPES = {
  getTypeParser: (oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8_OID || oid === NUMERIC_OID) return (value: string) => Number(value)
    return pg.types.getTypeParser(oid, format)
  },
}

/** The part of a pg.Pool that Mailroom uses. */
export interface PgPoolLike {
  connect(): Promise<pg.PoolClient>
  end(): Promise<void>
}

/**
 * Uses a pool owned by the embedding service. Queries go through with Mailroom's type parsing (set per
 * query, so the service's own parsing of int8 and numeric is left untouched); closing Mailroom does not
 * end the pool.
 */
export function databaseFromPool(pool: PgPoolLike): MailroomDatabase {
  const typedPool = {
    async connect() {
      const client = await pool.connect()
      if (client.listenerCount('error') === 0) client.on('error', () => {})
      const query = client.query.bind(client) as (...args: unknown[]) => unknown
      const typed = Object.create(client) as pg.PoolClient
      ;(typed as unknown as { query: unknown }).query = (text: unknown, values?: unknown) =>
        typeof text === 'string' ? query({ text, values, types: MAILROOM_PG_TYPES }) : query(text, values)
      typed.release = (err?: Error | boolean) => client.release(err)
      return typed
    },
    end: async () => {},
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: typedPool }) })
  const counting = countingPool(pool)
  return {
    db,
    kind: 'postgres',
    ping: async () => void (await sql`select 1`.execute(db)),
    close: () => db.destroy(),
    ...(counting ? { poolStatistics: () => poolStatisticsOf(counting) } : {}),
  }
}

/**
 * Uses a kysely instance owned by the embedding service. Its driver must return int8 and numeric as
 * numbers (pass MAILROOM_PG_TYPES to pg, or PGlite parsers); closing Mailroom does not destroy it.
 */
export function databaseFromKysely(db: Kysely<any>, kind: 'postgres' | 'pglite' = 'postgres'): MailroomDatabase {
  const typed = db as Kysely<Database>
  return { db: typed, kind, ping: async () => void (await sql`select 1`.execute(typed)), close: async () => {} }
}

/** Reads a connection string: postgres:// URLs are PostgreSQL, anything else a PGlite directory or memory://. */
export function targetFromString(value: string): DatabaseTarget {
  return /^postgres(ql)?:\/\//i.test(value) ? { kind: 'postgres', url: value } : { kind: 'pglite', dataDir: value }
}

function openPostgres(target: Extract<DatabaseTarget, { kind: 'postgres' }>): MailroomDatabase {
  const types = MAILROOM_PG_TYPES
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
  // A client losing its server must not crash the process, whether idle in the pool (pool 'error') or
  // checked out between two queries of a transaction (client 'error', which nothing else listens to): the
  // failure surfaces as the next query's rejection, and the next checkout reconnects.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
    // Queued ahead of whatever the caller runs on the new client; the settings only speed searches up, so a
    // server that refuses them (a pooler's restrictions) still serves.
    client.query(SESSION_SETTINGS_SQL).catch(() => {})
  })
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: target.preparedStatements === false ? pool : preparingPool(pool) }),
  })
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
    poolStatistics: () => poolStatisticsOf(pool),
  }
}

/**
 * The extensions an embedded database is opened with: pg_trgm serves the substring match of POST /rest/search by
 * chrono (migration 0015), unaccent folds accents in full-text search (0016). Not btree_gin (0023, the perimeter's
 * columns in the records' words index): with it loaded, PGlite 0.5.16 stopped answering within seconds of a search
 * property test (a trivial select never returned), so the embedded database keeps 0019's index of the words alone.
 * Whoever opens a Mailroom PGlite directory opens it with these.
 */
export const PGLITE_EXTENSIONS = { pg_trgm, unaccent }

async function openPglite({
  dataDir,
  loadDataDir,
  stallTimeoutMs,
}: Extract<DatabaseTarget, { kind: 'pglite' }>): Promise<MailroomDatabase> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true })
  const pglite = await PGlite.create(dataDir, {
    extensions: PGLITE_EXTENSIONS,
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: { [INT8_OID]: (value: string) => Number(value), [NUMERIC_OID]: (value: string) => Number(value) },
  })
  await pglite.query(SESSION_SETTINGS_SQL)
  const watchdog = new PgliteWatchdog(stallTimeoutMs)
  const db = new Kysely<Database>({ dialect: new PgliteDialect(pglite, watchdog) })
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      // A stalled engine fails readiness at once, not after a probe's wait in its queue.
      if (watchdog.stalled()) fail('DATABASE_UNRESPONSIVE')
      await sql`select 1`.execute(db)
    },
    close: () => db.destroy(),
  }
}
