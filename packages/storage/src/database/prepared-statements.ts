import { createHash } from 'node:crypto'
import type pg from 'pg'

/** How many statements one connection prepares at most: the hot ones come first, the rest run unnamed. */
export const MAX_PREPARED_PER_CONNECTION = 200
/** How many distinct texts the pool counts before it starts counting afresh (bounds its memory). */
const MAX_COUNTED_TEXTS = 2_000
/** A text is prepared from its second run on: one-off statements (most searches) never take a slot. */
const RUNS_BEFORE_PREPARING = 2
/** PostgreSQL's `cached plan must not change result type` (a table under a `select *` changed). */
const FEATURE_NOT_SUPPORTED = '0A000'

interface CountedText {
  runs: number
  readonly name: string
}

/** What a connection has prepared, and whether it still may (a statement it could not reuse stops it). */
interface ConnectionState {
  readonly prepared: Set<string>
  enabled: boolean
}

/**
 * Wraps a pg pool so that parameterised statements that repeat run as named prepared statements: PostgreSQL
 * then parses a statement once per connection instead of at every run, and plans it once it has settled on
 * a generic plan. A create's two statements spent more time being parsed and planned than being executed.
 *
 * Only statements with parameters are candidates (they already use the extended protocol, so they are single
 * statements); transaction control and parameterless SQL run as before. Names derive from the text, so the
 * same text has the same name on every connection. A statement that fails because its cached plan no longer
 * fits the schema (a migration while the process runs) is run again unnamed, and that connection prepares
 * nothing more.
 */
export function preparingPool(
  pool: pg.Pool,
  options: { readonly maxPerConnection?: number } = {},
): { connect(): Promise<pg.PoolClient>; end(): Promise<void> } {
  const maxPerConnection = options.maxPerConnection ?? MAX_PREPARED_PER_CONNECTION
  const texts = new Map<string, CountedText>()
  const connections = new WeakMap<pg.PoolClient, ConnectionState>()

  const nameFor = (text: string): string | null => {
    let counted = texts.get(text)
    if (counted === undefined) {
      if (texts.size >= MAX_COUNTED_TEXTS) texts.clear()
      counted = { runs: 0, name: `mailroom_${createHash('sha256').update(text).digest('base64url').slice(0, 32)}` }
      texts.set(text, counted)
    }
    counted.runs++
    return counted.runs >= RUNS_BEFORE_PREPARING ? counted.name : null
  }

  return {
    async connect() {
      const client = await pool.connect()
      let state = connections.get(client)
      if (state === undefined) {
        state = { prepared: new Set(), enabled: true }
        connections.set(client, state)
      }
      const connection = state
      const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<pg.QueryResult>
      const wrapped = Object.create(client) as pg.PoolClient
      ;(wrapped as unknown as { query: unknown }).query = (text: unknown, values?: unknown) => {
        if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || !connection.enabled)
          return query(text, values)
        const name = nameFor(text)
        if (name === null || (!connection.prepared.has(name) && connection.prepared.size >= maxPerConnection))
          return query(text, values)
        connection.prepared.add(name)
        return query({ name, text, values }).catch((error: unknown) => {
          if ((error as { code?: unknown }).code !== FEATURE_NOT_SUPPORTED) throw error
          connection.enabled = false
          return query(text, values)
        })
      }
      wrapped.release = (err?: Error | boolean) => client.release(err)
      return wrapped
    },
    end: () => pool.end(),
  }
}
