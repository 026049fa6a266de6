/**
 * A record or note id as 20.10 accepts it (`Validator::intVal()`): a positive integer, or a string of decimal
 * digits naming one; null otherwise (so each route answers its own 20.10 message). Capped to safe integers.
 */
export function positiveIntegerOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 ? value : null
  if (typeof value !== 'string' || !/^[0-9]{1,16}$/.test(value)) return null
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 1 ? n : null
}
