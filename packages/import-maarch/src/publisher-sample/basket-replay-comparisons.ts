/**
 * What of a basket answer is compared between the real Maarch 20.10 (recorded) and Mailroom: everything, but the
 * instants (a letter filed now has another creation time than when it was recorded), kept as "an instant or null".
 */

/** The ids of the recorded installation and the clerks' counts at each stage (baskets-ids.json). */
export interface RecordedIds {
  readonly groups: Readonly<Record<string, number>>
  readonly users: Readonly<Record<string, number>>
  readonly letters: Readonly<Record<string, number>>
  readonly folder: number
  readonly addedActions: Readonly<Record<string, number>>
  readonly countsOnTheSample: Readonly<Record<string, Readonly<Record<string, number>>>>
  readonly countsWithLetters: Readonly<Record<string, Readonly<Record<string, number>>>>
  readonly countsAfterActions: Readonly<Record<string, Readonly<Record<string, number>>>>
}

interface Answer {
  readonly status: number
  readonly json?: unknown
  readonly body?: unknown
}

const bodyOf = (answer: Answer): any => ('json' in answer ? answer.json : answer.body)

/** `GET /home` as the recorder keyed it: `<group serial>/<basket code>` → count. */
export function recordedCounts(home: any): Record<string, number> {
  return Object.fromEntries(
    (home?.regroupedBaskets ?? []).flatMap((group: any) =>
      group.baskets.map((basket: any) => [`${group.groupSerialId}/${basket.basket_id}`, basket.resourceNumber]),
    ),
  )
}

/** A list's letters: status, count and every letter id in the list's order. */
export function sameLettersOf(answer: Answer): unknown {
  const body = bodyOf(answer)
  return { status: answer.status, count: body?.count, allResources: body?.allResources }
}

const INSTANT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/

/** Every instant in `value` as the word `instant`: the letters were filed at another time. */
function withoutInstants(value: unknown): unknown {
  if (typeof value === 'string') return INSTANT.test(value) ? 'instant' : value
  if (Array.isArray(value)) return value.map(withoutInstants)
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withoutInstants(item)]))
  return value
}

/**
 * A row's `integrations` as Mailroom answers it: 20.10 answers the column `json_decode`d into a PHP array, so the
 * sample's `{}` comes out as `[]` (a PHP artefact, not a behaviour: every client reads `integrations.inShipping`).
 */
function withIntegrations(row: any): any {
  return Array.isArray(row.integrations) && row.integrations.length === 0
    ? { ...row, integrations: { inShipping: false, inSignatureBook: false } }
    : row
}

/**
 * A basket list's answer, every field and every row's field, instants aside. `keyOf` gives each letter its sort
 * key: 20.10 leaves letters of equal keys in whatever order PostgreSQL's sort gives them (Mailroom breaks ties by
 * res_id), so the orders are compared as their sequences of keys, and the page's rows by id.
 */
export function comparableList(answer: Answer, keyOf: (resId: number) => unknown = (resId) => resId): unknown {
  const body = withoutInstants(bodyOf(answer)) as any
  if (answer.status !== 200 || !Array.isArray(body?.allResources)) return { status: answer.status, body }
  const resources = (body.resources as any[]).map(withIntegrations)
  return {
    status: answer.status,
    body: {
      ...body,
      allResources: (body.allResources as number[]).map(keyOf),
      letters: [...body.allResources].sort((a: number, b: number) => a - b),
      resources: resources.map((row) => keyOf(row.resId)),
    },
  }
}

/** The rows of two pages for the letters both hold (equal keys may put different letters on a page), by id. */
export function commonRows(mine: Answer, theirs: Answer): [unknown[], unknown[]] {
  const rowsOf = (answer: Answer) =>
    new Map<number, unknown>(
      ((withoutInstants(bodyOf(answer)) as any)?.resources ?? []).map((row: any) => [row.resId, withIntegrations(row)]),
    )
  const [a, b] = [rowsOf(mine), rowsOf(theirs)]
  const both = [...a.keys()].filter((resId) => b.has(resId)).sort((x, y) => x - y)
  return [both.map((resId) => a.get(resId)), both.map((resId) => b.get(resId))]
}

/** A basket's filters: each facet's values and counts (ordered as answered). */
export function comparableFilters(answer: Answer): unknown {
  return { status: answer.status, body: bodyOf(answer) }
}
