import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** One request sent to the real Maarch Courrier 20.10 and what it answered (fixtures/maarch-20.10-answers). */
export interface MaarchExchange {
  readonly name: string
  readonly request: {
    /** Login sent with HTTP Basic (`superadmin` with its own password, every other login with `maarch`); `null`: none; `login:password` as given. */
    readonly user: string | null
    readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'
    /** Relative to `/rest`. */
    readonly path: string
    readonly query: Readonly<Record<string, string>>
    /** JSON body; a string was sent as is (a body that does not parse). */
    readonly body: unknown
  }
  readonly response: {
    readonly status: number
    readonly contentType: string | null
    readonly body: unknown
  }
  /**
   * What Maarch's database held after the exchange (baskets-*.json: actions and locks), read with psql: one letter's
   * rows (`res_letterbox` columns an action changes, `listinstance`, `res_mark_as_read`, `basket_persistent_mode`,
   * `notes`, `history`), or such rows keyed by letter id.
   */
  readonly database?: MaarchLetterRows | Readonly<Record<string, MaarchLetterRows>>
}

/** One letter's rows in Maarch 20.10's database, as the basket recorder reads them after an action or a lock. */
export interface MaarchLetterRows {
  readonly res_letterbox: Readonly<Record<string, unknown>> | null
  readonly listinstance: readonly Readonly<Record<string, unknown>>[]
  readonly res_mark_as_read: readonly Readonly<Record<string, unknown>>[]
  readonly basket_persistent_mode: readonly Readonly<Record<string, unknown>>[]
  readonly notes: readonly Readonly<Record<string, unknown>>[]
  readonly history: readonly Readonly<Record<string, unknown>>[]
}

const answersFolder = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'maarch-20.10-answers')

/** The recorded exchanges of one fixture file (`'contacts-create.json'`), in the order they were sent. */
export function readMaarchExchanges(file: string): readonly MaarchExchange[] {
  return JSON.parse(readFileSync(join(answersFolder, file), 'utf8')) as MaarchExchange[]
}

/** The exchange of `file` named `name`; throws when the fixture has none, so a renamed exchange fails its test. */
export function maarchExchange(file: string, name: string): MaarchExchange {
  const found = readMaarchExchanges(file).find((exchange) => exchange.name === name)
  if (!found) throw new Error(`${file} has no exchange named "${name}"`)
  return found
}

/**
 * The serial ids of the database the basket fixtures were recorded on (users, groups, baskets, entities, the actions
 * the recorder added, the letters it filed, the lent basket) and each clerk's basket counts before and after the
 * actions: a replay maps them onto its own database.
 */
export function readMaarchBasketIds(): Readonly<Record<string, unknown>> {
  return JSON.parse(readFileSync(join(answersFolder, 'baskets-ids.json'), 'utf8')) as Record<string, unknown>
}

/** The Basic credentials the recorder sent for `user` (`null`: none). */
export function maarchCredentials(user: string | null): string | null {
  if (user === null) return null
  if (user.includes(':')) return user
  return `${user}:${user === 'superadmin' ? 'superadmin' : 'maarch'}`
}

/** The exchange's path and query as a Mailroom URL path (`/rest/...?...`). */
export function maarchRequestPath(exchange: MaarchExchange): string {
  const query = new URLSearchParams(exchange.request.query).toString()
  return `/rest${exchange.request.path}${query ? `?${query}` : ''}`
}
