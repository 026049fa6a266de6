/**
 * Compares an answer of Mailroom with the one the real Maarch 20.10 gave to the same request. The data of the
 * two differ (Mailroom's demo organisation against the publisher's sample; ids and dates of the moment), so
 * what must be the same is the status, the `errors` message, and the body's shape: the same keys, and values
 * of the same JSON type, recursively. Values are compared only at the paths a test names.
 */

/** The JSON type of a value as the comparison sees it. */
export function jsonType(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  return typeof value
}

export interface ShapeOptions {
  /** Paths (`resources.0.resId`, `contact.lastname`) whose values must be equal, not only of the same type. */
  readonly sameValuesAt?: readonly string[]
  /**
   * Paths whose type may differ (a value null on one side, a string on the other: a date Maarch left empty).
   * A path ending in `.*` covers everything below it.
   */
  readonly anyTypeAt?: readonly string[]
  /** Paths Mailroom may add (documented additions). */
  readonly extraKeysAt?: readonly string[]
}

/** The differences between `actual` and `expected` in shape (and values at `sameValuesAt`); empty when they match. */
export function shapeDifferences(actual: unknown, expected: unknown, options: ShapeOptions = {}): string[] {
  const differences: string[] = []
  const covered = (path: string, list: readonly string[] | undefined) =>
    (list ?? []).some((entry) => entry === path || (entry.endsWith('.*') && path.startsWith(entry.slice(0, -1))))
  const walk = (a: unknown, e: unknown, path: string) => {
    const name = path || '(body)'
    if (covered(path, options.sameValuesAt) && JSON.stringify(a) !== JSON.stringify(e)) {
      differences.push(`${name}: ${JSON.stringify(a)} instead of ${JSON.stringify(e)}`)
      return
    }
    if (covered(path, options.anyTypeAt)) return
    const [typeA, typeE] = [jsonType(a), jsonType(e)]
    if (typeA !== typeE) {
      differences.push(`${name}: ${typeA} instead of ${typeE}`)
      return
    }
    const child = (key: string) => (path ? `${path}.${key}` : key)
    if (typeE === 'array') {
      // Arrays are compared by the shape of their items, item by item; items past the recorded ones against its
      // last (the lengths differ with the data).
      const [itemsA, itemsE] = [a as unknown[], e as unknown[]]
      if (itemsE.length > 0) {
        itemsA.forEach((item, index) => {
          walk(item, itemsE[Math.min(index, itemsE.length - 1)], child(String(index)))
        })
      }
      return
    }
    if (typeE === 'object') {
      const [objectA, objectE] = [a as Record<string, unknown>, e as Record<string, unknown>]
      for (const key of Object.keys(objectE)) {
        if (!(key in objectA)) differences.push(`${child(key)}: missing`)
        else walk(objectA[key], objectE[key], child(key))
      }
      for (const key of Object.keys(objectA)) {
        if (!(key in objectE) && !covered(child(key), options.extraKeysAt))
          differences.push(`${child(key)}: not in Maarch's answer`)
      }
    }
  }
  walk(actual, expected, '')
  // One line per place: items of an array repeat the same difference.
  return [...new Set(differences)]
}

/** A response as the comparison reads it. */
export interface ComparedResponse {
  readonly status: number
  readonly json: unknown
}

/**
 * The differences between Mailroom's response and Maarch's recorded one: the status, the `errors` message of
 * an error body (exactly), the shape of any other JSON body. Empty when they match.
 */
export function answerDifferences(
  actual: ComparedResponse,
  recorded: { readonly status: number; readonly body: unknown },
  options: ShapeOptions = {},
): string[] {
  if (actual.status !== recorded.status) {
    return [
      `status ${actual.status} instead of ${recorded.status} (body ${JSON.stringify(actual.json)?.slice(0, 300)})`,
    ]
  }
  const recordedBody = recorded.body as { errors?: unknown } | null
  if (recordedBody !== null && typeof recordedBody === 'object' && 'errors' in recordedBody) {
    const actualErrors = (actual.json as { errors?: unknown } | null)?.errors
    return actualErrors === recordedBody.errors
      ? []
      : [`errors ${JSON.stringify(actualErrors)} instead of ${JSON.stringify(recordedBody.errors)}`]
  }
  if (recorded.body === null || typeof recorded.body === 'string') return []
  return shapeDifferences(actual.json, recorded.body, options)
}

/** Throws, listing every difference, when Mailroom's response does not match Maarch's recorded one. */
export function expectSameShape(
  actual: ComparedResponse,
  recorded: { readonly status: number; readonly body: unknown },
  options: ShapeOptions = {},
): void {
  const differences = answerDifferences(actual, recorded, options)
  if (differences.length > 0)
    throw new Error(`Mailroom's answer differs from Maarch 20.10's:\n${differences.join('\n')}`)
}
