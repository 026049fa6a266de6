/**
 * Readers of loosely typed JSON values, as real clients send them (B8.4–B8.5): numeric strings for
 * integers, `""` for false, `{}` for an empty list. PHP's `empty()` decides what counts as "not provided".
 */

/** True for what PHP's empty() calls empty: absent, null, false, 0, "", "0", [] and {}. */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '' || value === '0')
    return true
  if (Array.isArray(value)) return value.length === 0
  return isPlainObject(value) && Object.keys(value).length === 0
}

/** True for a missing required parameter: absent, null or an empty string. */
export function isMissing(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
}

/** A JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** An integer from a JSON number or a numeric string (`"12"`, `" 12 "`, `"+12"`); null otherwise. */
export function readInteger(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null
  if (typeof value !== 'string' || !/^\s*[+-]?\d{1,15}\s*$/.test(value)) return null
  return Number(value.trim())
}

/**
 * A boolean flag: JSON booleans, `""` / `"0"` / `0` / `"false"` / `"N"` for false, `"1"` / `1` / `"true"` / `"Y"`
 * for true (case-insensitive). Null for anything else.
 */
export function readBoolean(value: unknown): boolean | null {
  if (typeof value === 'boolean') return value
  if (value === null || value === undefined) return false
  if (typeof value === 'number') return value === 0 ? false : value === 1 ? true : null
  if (typeof value !== 'string') return null
  const word = value.trim().toLowerCase()
  if (['', '0', 'false', 'n', 'no'].includes(word)) return false
  if (['1', 'true', 'y', 'yes'].includes(word)) return true
  return null
}

/** The elements of a list field: an array as it is, an empty object `{}` as no element, null for anything else. */
export function readList(value: unknown): readonly unknown[] | null {
  if (Array.isArray(value)) return value
  if (isPlainObject(value) && Object.keys(value).length === 0) return []
  return null
}
