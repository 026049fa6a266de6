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

/** A basket list's answer, every field and every row's field, instants aside. */
export function comparableList(answer: Answer): unknown {
  return { status: answer.status, body: withoutInstants(bodyOf(answer)) }
}

/** A basket's filters: each facet's values and counts (ordered as answered). */
export function comparableFilters(answer: Answer): unknown {
  return { status: answer.status, body: bodyOf(answer) }
}
