import type { PGlite } from '@electric-sql/pglite'
import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryCompiler,
  type QueryResult,
} from 'kysely'
import { guardStackOverflow, type StackOverflowGuard, stackDepthExceeded } from './pglite-stack-guard.js'
import { PgliteWatchdog } from './pglite-watchdog.js'

/**
 * Kysely dialect for embedded PGlite. PGlite is one connection, so the driver hands it out to one
 * holder at a time: a transaction keeps it until COMMIT/ROLLBACK and every other query waits its turn, at
 * most until the watchdog finds the connection stalled. A statement that overflows the engine's stack fails
 * as on PostgreSQL (54001) and leaves the engine sound (see guardStackOverflow).
 */
export class PgliteDialect implements Dialect {
  readonly #pglite: PGlite
  readonly #watchdog: PgliteWatchdog
  readonly #stackGuard: StackOverflowGuard

  constructor(pglite: PGlite, watchdog: PgliteWatchdog = new PgliteWatchdog()) {
    this.#pglite = pglite
    this.#watchdog = watchdog
    this.#stackGuard = guardStackOverflow(pglite)
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter()
  }

  createDriver(): Driver {
    return new PgliteDriver(this.#pglite, this.#watchdog, this.#stackGuard)
  }

  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new PostgresIntrospector(db)
  }

  createQueryCompiler(): QueryCompiler {
    return new PostgresQueryCompiler()
  }
}

class PgliteDriver implements Driver {
  readonly #pglite: PGlite
  readonly #connection: PgliteConnection
  readonly #watchdog: PgliteWatchdog
  #queue: Promise<void> = Promise.resolve()

  constructor(pglite: PGlite, watchdog: PgliteWatchdog, stackGuard: StackOverflowGuard) {
    this.#pglite = pglite
    this.#watchdog = watchdog
    this.#connection = new PgliteConnection(pglite, watchdog, stackGuard)
  }

  async init(): Promise<void> {
    await this.#pglite.waitReady
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    let release!: () => void
    const turn = new Promise<void>((resolve) => {
      release = resolve
    })
    const previous = this.#queue
    this.#queue = previous.then(() => turn)
    await this.#watchdog.waitFor(previous, release)
    this.#watchdog.progressed(true)
    this.#connection.release = release
    return this.#connection
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin'))
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'))
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'))
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const holder = connection as PgliteConnection
    const release = holder.release
    holder.release = undefined
    this.#watchdog.progressed(false)
    release?.()
  }

  async destroy(): Promise<void> {
    await this.#queue
    if (!this.#pglite.closed) await this.#pglite.close()
  }
}

class PgliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite
  readonly #watchdog: PgliteWatchdog
  readonly #stackGuard: StackOverflowGuard
  release: (() => void) | undefined

  constructor(pglite: PGlite, watchdog: PgliteWatchdog, stackGuard: StackOverflowGuard) {
    this.#pglite = pglite
    this.#watchdog = watchdog
    this.#stackGuard = stackGuard
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    // An overflow of a statement run outside kysely (the session settings) is not this statement's.
    this.#stackGuard.takeOverflow()
    const result = await this.#pglite
      .query<R>(compiledQuery.sql, compiledQuery.parameters as unknown[], { rowMode: 'object' })
      .catch((error: unknown) => {
        throw this.#stackGuard.takeOverflow() ? stackDepthExceeded() : error
      })
      .finally(() => this.#watchdog.progressed())
    if (this.#stackGuard.takeOverflow()) throw stackDepthExceeded()
    const affected = result.affectedRows
    return {
      rows: result.rows,
      ...(affected !== undefined && /^\s*(insert|update|delete|merge)/i.test(compiledQuery.sql)
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    }
  }

  // biome-ignore lint/correctness/useYield: PGlite has no cursor; streaming is refused explicitly
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite does not support streaming queries; page with limit/offset instead')
  }
}
