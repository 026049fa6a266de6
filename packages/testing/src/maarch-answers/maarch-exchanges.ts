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
