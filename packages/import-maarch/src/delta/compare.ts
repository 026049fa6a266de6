/** Comparing what the source has with what Mailroom holds, whatever types each database gave. */

/** A value in one comparable form: dates as their time, JSON with its keys sorted, numbers and text as text. */
export function canonical(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (value instanceof Date) return `date:${value.getTime()}`
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return value
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object' && !(value instanceof Date))
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
    )
  return value instanceof Date ? value.toISOString() : value
}

/** A JSON column's value parsed (the source's rows give it as text once mapped). */
export function parsedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null
  try {
    return JSON.parse(value)
  } catch {
    return value
  }
}

/** Whether two column values are the same: a date against its text by its time, a JSON column by its content. */
export function sameValue(a: unknown, b: unknown, json = false): boolean {
  if (json) return canonical(sortKeys(parsedJson(a))) === canonical(sortKeys(parsedJson(b)))
  if (a instanceof Date || b instanceof Date) {
    if ((a ?? null) === null || (b ?? null) === null) return (a ?? null) === (b ?? null)
    return new Date(a as Date | string).getTime() === new Date(b as Date | string).getTime()
  }
  return canonical(a) === canonical(b)
}

/** The keys of `wanted` whose value differs in `held` (JSON columns compared by content). */
export function changedColumns(
  wanted: Readonly<Record<string, unknown>>,
  held: Readonly<Record<string, unknown>>,
  jsonColumns: ReadonlySet<string>,
): string[] {
  return Object.keys(wanted).filter(
    (key) => wanted[key] !== undefined && !sameValue(wanted[key], held[key], jsonColumns.has(key)),
  )
}

/** Rows as comparable lines, each with only the columns the source's rows have. */
export function rowKeys(rows: readonly object[], columns: readonly string[]): string[] {
  return rows.map((row) => columns.map((column) => canonical((row as Record<string, unknown>)[column])).join('\u0000'))
}

/** Whether two lists hold the same items, in any order. */
export function sameItems(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  const x = [...a].sort()
  const y = [...b].sort()
  return x.every((item, i) => item === y[i])
}

/** The items of `wanted` that `held` does not have (a multiset difference: a line twice needs two). */
export function missingItems<T>(wanted: readonly T[], wantedKeys: readonly string[], heldKeys: readonly string[]): T[] {
  const held = new Map<string, number>()
  for (const key of heldKeys) held.set(key, (held.get(key) ?? 0) + 1)
  return wanted.filter((_, i) => {
    const key = wantedKeys[i] ?? ''
    const left = held.get(key) ?? 0
    if (left > 0) {
      held.set(key, left - 1)
      return false
    }
    return true
  })
}
