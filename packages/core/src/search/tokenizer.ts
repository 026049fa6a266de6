import { MAX_CLAUSE_BYTES, MAX_TEXT_VALUES } from './limits.js'
import { type SearchPart, syntaxError, utf8Length } from './syntax-error.js'

/** Lexical classes of the search language. */
export type TokenKind = 'ident' | 'string' | 'number' | 'symbol' | 'macro' | 'eof'

/** One token: `text` is the source slice, `value` its meaning (lower-cased name, string contents, symbol). */
export interface Token {
  readonly kind: TokenKind
  readonly text: string
  readonly value: string
  /** UTF-16 index of the first character in the source. */
  readonly start: number
}

/** Symbols, longest first so that `->>` wins over `->` and `<=` over `<`. */
const SYMBOLS = [
  '->>',
  '->',
  '::',
  '||',
  '<>',
  '!=',
  '<=',
  '>=',
  '=',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '(',
  ')',
  ',',
  '.',
  '[',
  ']',
] as const

const WHITESPACE = new Set([' ', '\t', '\n', '\r', '\f'])

function isIdentStart(c: string): boolean {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_'
}
function isIdentPart(c: string): boolean {
  return isIdentStart(c) || isDigit(c)
}
function isDigit(c: string): boolean {
  return c >= '0' && c <= '9'
}

/** True when `value` has a NUL or an unpaired surrogate, which PostgreSQL text cannot hold. */
function hasForbiddenCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i)
    if (code === 0) return true
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true
      i++
    } else if (code >= 0xdc00 && code <= 0xdfff) return true
  }
  return false
}

/**
 * Splits a search text into tokens, refusing up front everything the language never allows:
 * comments, statement separators, quoted identifiers, parameters and any unknown character.
 */
export function tokenize(source: string, part: SearchPart): Token[] {
  if (utf8Length(source) > MAX_CLAUSE_BYTES) syntaxError(part, source, 'too-long')
  const tokens: Token[] = []
  let i = 0
  while (i < source.length) {
    const c = source[i] as string
    if (WHITESPACE.has(c)) {
      i++
      continue
    }
    const start = i
    const two = source.slice(i, i + 2)
    if (two === '--' || two === '/*') syntaxError(part, source, 'comment', two, start)
    if (c === ';') syntaxError(part, source, 'semicolon', c, start)
    if (c === '"') syntaxError(part, source, 'quoted-identifier', c, start)
    if (c === '$') syntaxError(part, source, 'parameter', c, start)
    if (c === "'") {
      let value = ''
      i++
      for (;;) {
        const quote = source.indexOf("'", i)
        if (quote < 0) syntaxError(part, source, 'unterminated-string', source.slice(start), start)
        value += source.slice(i, quote)
        if (source[quote + 1] === "'") {
          value += "'"
          i = quote + 2
        } else {
          i = quote + 1
          break
        }
      }
      const text = source.slice(start, i)
      if (hasForbiddenCharacter(value)) syntaxError(part, source, 'forbidden-string-character', text, start)
      tokens.push({ kind: 'string', text, value, start })
      continue
    }
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? ''))) {
      while (isDigit(source[i] ?? '')) i++
      if (source[i] === '.') {
        i++
        while (isDigit(source[i] ?? '')) i++
      }
      if (
        (source[i] === 'e' || source[i] === 'E') &&
        (isDigit(source[i + 1] ?? '') ||
          ((source[i + 1] === '+' || source[i + 1] === '-') && isDigit(source[i + 2] ?? '')))
      ) {
        i += 2
        while (isDigit(source[i] ?? '')) i++
      }
      // PostgreSQL refuses `12abc` and `1.2.3`: so do we, rather than guessing a split.
      if (isIdentPart(source[i] ?? '') || source[i] === '.') {
        let end = i
        while (isIdentPart(source[end] ?? '') || source[end] === '.') end++
        syntaxError(part, source, 'malformed-number', source.slice(start, end), start)
      }
      const text = source.slice(start, i)
      tokens.push({ kind: 'number', text, value: text, start })
      continue
    }
    if (isIdentStart(c)) {
      while (isIdentPart(source[i] ?? '')) i++
      const text = source.slice(start, i)
      tokens.push({ kind: 'ident', text, value: text.toLowerCase(), start })
      continue
    }
    if (c === '@') {
      if (!isIdentStart(source[i + 1] ?? '')) syntaxError(part, source, 'unexpected-character', c, start)
      i++
      while (isIdentPart(source[i] ?? '')) i++
      const text = source.slice(start, i)
      tokens.push({ kind: 'macro', text, value: text.slice(1).toLowerCase(), start })
      continue
    }
    const symbol = SYMBOLS.find((s) => source.startsWith(s, i))
    if (symbol === undefined) {
      const code = source.codePointAt(i) ?? 0
      syntaxError(part, source, 'unexpected-character', String.fromCodePoint(code), start)
    }
    i += symbol.length
    tokens.push({ kind: 'symbol', text: symbol, value: symbol, start })
  }
  tokens.push({ kind: 'eof', text: '', value: '', start: source.length })
  refuseTooManyValues(tokens, source, part)
  return tokens
}

/** Each literal becomes a bound parameter: refuses a text with more than the protocol leaves room for. */
function refuseTooManyValues(tokens: readonly Token[], source: string, part: SearchPart): void {
  let values = 0
  for (const token of tokens) {
    if (token.kind !== 'string' && token.kind !== 'number') continue
    if (++values > MAX_TEXT_VALUES) syntaxError(part, source, 'too-many-values', token.text, token.start)
  }
}
