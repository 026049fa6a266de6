import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { answerDifferences, type MaarchExchange, shapeDifferences } from '@mailroom/testing'

/** The files the letter-page recorder wrote (scripts/record-maarch-letter-page.mjs), replayed in this order. */
export const letterPageFiles = ['letter-page-reference.json', 'letter-page-dialogs.json', 'letter-page-page.json']

/** 20.10's serial ids by code (login, group, basket, entity code), as `letter-page-ids.json` records them. */
export interface MaarchSerials {
  readonly users: Readonly<Record<string, number>>
  readonly groups: Readonly<Record<string, number>>
  readonly baskets: Readonly<Record<string, number>>
  readonly entities: Readonly<Record<string, number>>
}

/** The serial ids of the recording's database, and the letters each clerk opened (`cases`). */
export function readLetterPageIds(): MaarchSerials & { readonly cases: readonly Record<string, unknown>[] } {
  const file = new URL('../../testing/fixtures/maarch-20.10-answers/letter-page-ids.json', import.meta.url)
  return JSON.parse(readFileSync(file, 'utf8'))
}

/**
 * Cases where Mailroom does not answer as 20.10 did yet, and why: every exchange of a route (`GET /resources/{id}`),
 * or the exchanges named.
 */
export interface KnownDifference {
  readonly route?: string
  readonly exchanges?: readonly string[]
  readonly reason: string
}

/** The exchange's method and path with its ids written `{id}` (`GET /resources/{id}/items`). */
export function routeOf(exchange: MaarchExchange): string {
  return `${exchange.request.method} ${exchange.request.path.replace(/\/(\d+|abc)(?=\/|$)/g, '/{id}')}`
}

/** The entry of `list` that covers the exchange, if any. */
export function knownDifferenceOf(
  list: readonly KnownDifference[],
  exchange: MaarchExchange,
): KnownDifference | undefined {
  const route = routeOf(exchange)
  return list.find((entry) => entry.route === route || entry.exchanges?.includes(exchange.name))
}

// Values that change with the moment of the recording or of the import: compared by type only.
const MOMENT = /date|Date|_time$|Time$|^creation|^modification|^event_date$/

// Where the whole answer is data of the sample that the clerk reads as is (flags, counts, choices, ids kept by the
// import): every value is compared, moments excepted.
const WHOLE_VALUE_ROUTES = [
  /\/isAllowed$/,
  /\/items$/,
  /\/processingData$/,
  /\/fileInformation$/,
  /\/versionsInformations$/,
  /\/fields\//,
  /^\/externalSummary\//,
  /^\/externalConnectionsEnabled$/,
  /^\/contactsCustomFields$/,
  /\/isDestinationChanging$/,
  /\/checkCloseWithFieldsAction$/,
  /\/actions$/,
  /\/getRedirect$/,
  /^\/roles$/,
]

// Elsewhere, the values a clerk reads: messages, counts, labels, names, the letter's identity, the document's digest.
const VALUE_KEYS =
  /^(errors|count|resId|chrono|subject|status|title|categoryId|firstname|lastname|company|item_mode|item_id|item_type|mimeType|filename|isAllowed)$|[lL]abel/

/** The paths of the recorded answer whose values Mailroom's must repeat (see the two rules above). */
export function valuePathsOf(exchange: MaarchExchange): string[] {
  const whole = WHOLE_VALUE_ROUTES.some((pattern) => pattern.test(exchange.request.path))
  const paths: string[] = []
  const walk = (value: unknown, path: string, key: string) => {
    if (MOMENT.test(key)) return
    if (value !== null && typeof value === 'object') {
      for (const [inner, item] of Object.entries(value)) walk(item, path ? `${path}.${inner}` : inner, inner)
      return
    }
    if (whole || VALUE_KEYS.test(key)) paths.push(path)
  }
  walk(exchange.response.body, '', '')
  return paths
}

/** Lists of the answer that hold another number of items than the recorded ones (a count the clerk sees). */
export function lengthDifferences(actual: unknown, recorded: unknown, path = ''): string[] {
  if (Array.isArray(recorded)) {
    if (!Array.isArray(actual)) return []
    const here =
      actual.length === recorded.length
        ? []
        : [`${path || '(body)'}: ${actual.length} items instead of ${recorded.length}`]
    return [
      ...here,
      ...recorded.flatMap((item, index) =>
        index < actual.length ? lengthDifferences(actual[index], item, path ? `${path}.${index}` : String(index)) : [],
      ),
    ]
  }
  if (recorded === null || typeof recorded !== 'object' || actual === null || typeof actual !== 'object') return []
  return Object.entries(recorded).flatMap(([key, item]) =>
    key in actual
      ? lengthDifferences((actual as Record<string, unknown>)[key], item, path ? `${path}.${key}` : key)
      : [],
  )
}

/**
 * Mailroom's answer with the document's base64 kept as the recorder kept 20.10's (its first characters, length,
 * bytes and their sha256), so that the two are compared by digest.
 */
export function withDocumentDigest(json: unknown): unknown {
  const encoded = (json as { encodedDocument?: unknown } | null)?.encodedDocument
  if (typeof encoded !== 'string') return json
  const bytes = Buffer.from(encoded, 'base64')
  return {
    ...(json as object),
    encodedDocument: {
      truncatedBase64: {
        head: encoded.slice(0, 64),
        length: encoded.length,
        bytes: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      },
    },
  }
}

// The keys that name an item of a list, in the order they are tried: lists are compared item by item once both are
// sorted by it, so that an order of the items (entities by label or by id) is not taken for other items.
const IDENTITY_KEYS = ['serialId', 'resId', 'res_id', 'listinstance_id', 'template_id', 'doctypes_id', 'id', 'key']

function identityOf(item: unknown): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined
  const key = IDENTITY_KEYS.find((name) => name in item)
  return key === undefined ? undefined : `${key}=${JSON.stringify((item as Record<string, unknown>)[key])}`
}

/** The value with every list of identified items sorted by identity (lists of anything else left in their order). */
export function sortedByIdentity(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(sortedByIdentity)
    if (items.length === 0 || items.some((item) => identityOf(item) === undefined)) return items
    return [...items].sort((a, b) => (identityOf(a)! < identityOf(b)! ? -1 : identityOf(a)! > identityOf(b)! ? 1 : 0))
  }
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, sortedByIdentity(inner)]))
}

/**
 * How Mailroom's answer differs from 20.10's: status; the message of a `{"errors": "…"}`; else the shape, the values
 * at {@link valuePathsOf} and the lists' lengths, items paired by identity.
 */
export function letterPageDifferences(actual: { status: number; json: unknown }, exchange: MaarchExchange): string[] {
  const recorded = exchange.response
  if (actual.status !== recorded.status || typeof (recorded.body as { errors?: unknown })?.errors === 'string') {
    return answerDifferences(actual, recorded)
  }
  if (recorded.body === null || typeof recorded.body === 'string') return []
  const [mine, theirs] = [sortedByIdentity(actual.json), sortedByIdentity(recorded.body)]
  const sortedExchange = { ...exchange, response: { ...recorded, body: theirs } }
  return [
    ...shapeDifferences(mine, theirs, { sameValuesAt: valuePathsOf(sortedExchange) }),
    ...lengthDifferences(mine, theirs),
  ]
}
