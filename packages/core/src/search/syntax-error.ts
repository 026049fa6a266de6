import type { SearchSyntaxProblem } from '../errors/catalogue/search.js'
import { fail } from '../errors/domain-error.js'

/** Which request field a search text came from; it picks the error message prefix. */
export type SearchPart = 'clause' | 'select' | 'orderBy'

const CODES = {
  clause: 'SEARCH_CLAUSE_SYNTAX',
  select: 'SEARCH_SELECT_SYNTAX',
  orderBy: 'SEARCH_ORDER_BY_SYNTAX',
} as const

/** 1-based position in code points of the UTF-16 `index` of `source`, as a person counts characters. */
export function characterPosition(source: string, index: number): number {
  let position = 1
  for (let i = 0; i < index && i < source.length; i++) {
    const code = source.charCodeAt(i)
    // A surrogate pair is one character: count only its high half.
    if (code >= 0xdc00 && code <= 0xdfff && i > 0) {
      const previous = source.charCodeAt(i - 1)
      if (previous >= 0xd800 && previous <= 0xdbff) continue
    }
    position++
  }
  return position
}

/** Throws the bad-request DomainError of `part` describing `problem` at UTF-16 `index` of `source`. */
export function syntaxError(
  part: SearchPart,
  source: string,
  problem: SearchSyntaxProblem,
  token?: string,
  index?: number,
): never {
  const detail = {
    problem,
    ...(token === undefined ? {} : { token }),
    ...(index === undefined ? {} : { position: characterPosition(source, index) }),
  }
  return fail(CODES[part], detail)
}

/** Size of `text` in UTF-8 bytes, without allocating an encoded copy. */
export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i++
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}
