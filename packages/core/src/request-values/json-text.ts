/**
 * Deepest nesting of arrays and objects a JSON request body may have. The interface's deepest body (a criteria
 * search, a record's diffusion list) nests 5 levels; what passes the bound is refused before it is parsed, so that
 * no reader of the value (JSON.parse, a recursive check, zod, the JSON columns) walks an unbounded depth.
 */
export const JSON_NESTING_LIMIT = 64

/** What a scan of JSON text found. */
export interface JsonTextScan {
  /** Whether arrays and objects nest deeper than the limit somewhere (the scan stops there). */
  readonly tooDeep: boolean
  /** Whether a string or a key holds `\u0000`, which PostgreSQL cannot store. */
  readonly hasNul: boolean
}

const QUOTE = 0x22
const OPEN_ARRAY = 0x5b
const CLOSE_ARRAY = 0x5d
const OPEN_OBJECT = 0x7b
const CLOSE_OBJECT = 0x7d

/**
 * Scans JSON text once, in a loop (no recursion, so no depth can overflow the stack), for nesting past
 * `limit` and for an escaped NUL in a string. Brackets inside strings do not count; `\\u0000` (an escaped
 * backslash before `u0000`) is text, not a NUL. Malformed text gives a meaningless but harmless answer: the
 * parser refuses it next.
 */
export function scanJsonText(text: string, limit = JSON_NESTING_LIMIT): JsonTextScan {
  // The next quote and the next backslash at or after i: each found once and reused, so that the scan stays
  // linear however many strings and escapes the text has.
  const next = (what: string, from: number) => {
    const at = text.indexOf(what, from)
    return at === -1 ? Number.POSITIVE_INFINITY : at
  }
  let quote = -1
  let backslash = -1
  let depth = 0
  let hasNul = false
  let i = 0
  while (i < text.length) {
    const code = text.charCodeAt(i)
    i += 1
    if (code === QUOTE) {
      // Inside a string: from backslash to backslash up to its closing quote.
      for (;;) {
        if (quote < i) quote = next('"', i)
        if (backslash < i) backslash = next('\\', i)
        if (quote === Number.POSITIVE_INFINITY) return { tooDeep: false, hasNul }
        if (quote < backslash) break
        if (text.startsWith('u0000', backslash + 1)) hasNul = true
        i = backslash + 2
      }
      i = quote + 1
    } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1
      if (depth > limit) return { tooDeep: true, hasNul }
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1
  }
  return { tooDeep: false, hasNul }
}
