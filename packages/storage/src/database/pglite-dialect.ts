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

/**
 * Kysely dialect for embedded PGlite. PGlite is one connection, so the driver hands it out to one
 * holder at a time: a transaction keeps it until COMMIT/ROLLBACK and every other query waits its turn.
 */
export class PgliteDialect implements Dialect {
  readonly #pglite: PGlite

  constructor(pglite: PGlite) {
    this.#pglite = pglite
  }

  createAdapter(): DialectAdapter {
    return new PostgresAdapter()
  }

  createDriver(): Driver {
    return new PgliteDriver(this.#pglite)
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
  #queue: Promise<void> = Promise.resolve()

  constructor(pglite: PGlite) {
    this.#pglite = pglite
    this.#connection = new PgliteConnection(pglite)
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
    await previous
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
    release?.()
  }

  async destroy(): Promise<void> {
    await this.#queue
    if (!this.#pglite.closed) await this.#pglite.close()
  }
}

class PgliteConnection implements DatabaseConnection {
  readonly #pglite: PGlite
  release: (() => void) | undefined

  constructor(pglite: PGlite) {
    this.#pglite = pglite
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.#pglite.query<R>(compiledQuery.sql, compiledQuery.parameters as unknown[], {
      rowMode: 'object',
    })
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
