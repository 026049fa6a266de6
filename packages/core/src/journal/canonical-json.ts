/** A value the canonical serialisation accepts. `undefined` object members are left out, as in JSON. */
export type CanonicalValue =
  | null
  | boolean
  | number
  | string
  | Date
  | readonly CanonicalValue[]
  | { readonly [key: string]: CanonicalValue | undefined }

/**
 * Deterministic JSON in the manner of RFC 8785 (JCS): object members sorted by UTF-16 code units, no
 * whitespace, strings and numbers as ECMAScript JSON.stringify writes them. Dates become ISO 8601 UTC strings
 * with milliseconds (`2024-01-02T03:04:05.678Z`). Non-finite numbers and invalid dates are programming errors
 * and throw a RangeError: they can never be part of a stored event.
 */
export function canonicalJson(value: CanonicalValue): string {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return value ? 'true' : 'false'
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('canonicalJson: non-finite number')
    return JSON.stringify(value)
  }
  if (typeof value === 'string') return JSON.stringify(value)
  if (value instanceof Date) {
    // toISOString throws a RangeError on an invalid date, which is what we want.
    return JSON.stringify(value.toISOString())
  }
  if (Array.isArray(value)) return `[${value.map((item: CanonicalValue) => canonicalJson(item)).join(',')}]`
  const record = value as { readonly [key: string]: CanonicalValue | undefined }
  const members: string[] = []
  // Default sort compares UTF-16 code units, which is exactly RFC 8785's member order.
  for (const key of Object.keys(record).sort()) {
    const member = record[key]
    if (member === undefined) continue
    members.push(`${JSON.stringify(key)}:${canonicalJson(member)}`)
  }
  return `{${members.join(',')}}`
}
