import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { clauseArbitrary } from '../../../testing/src/arbitraries/clause-arbitrary.js'
import { DomainError, isDomainError } from '../errors/domain-error.js'
import type { ClauseAst } from './ast.js'
import { MAX_CLAUSE_BYTES, MAX_IN_LIST_ITEMS, MAX_NESTING_DEPTH, MAX_TEXT_VALUES, MAX_TREE_HEIGHT } from './limits.js'
import { parseClause, parseOrderItem } from './parser.js'
import { printClause, printOrderItem } from './printer.js'

const RUNS = { numRuns: 300, seed: 20201020 }

function refusal(text: string, options?: { allowMacros?: boolean }): DomainError {
  try {
    parseClause(text, options)
  } catch (error) {
    if (error instanceof DomainError) return error
    throw error
  }
  throw new Error(`accepted: ${text}`)
}

describe('parseClause: the clauses real clients send (B8.11)', () => {
  it('reads 1=1', () => {
    expect(parseClause('1=1')).toEqual({
      kind: 'comparison',
      op: '=',
      left: { kind: 'number', value: '1' },
      right: { kind: 'number', value: '1' },
    })
  })

  it('reads a chrono lookup', () => {
    expect(parseClause("alt_identifier='MAARCH/2021D/12' AND status <> 'DEL'")).toEqual({
      kind: 'logical',
      op: 'and',
      left: {
        kind: 'comparison',
        op: '=',
        left: { kind: 'column', name: 'alt_identifier' },
        right: { kind: 'string', value: 'MAARCH/2021D/12' },
      },
      right: {
        kind: 'comparison',
        op: '<>',
        left: { kind: 'column', name: 'status' },
        right: { kind: 'string', value: 'DEL' },
      },
    })
  })

  it('reads a custom field through ->> with the json operator binding tighter than =', () => {
    expect(parseClause("status <> 'END' AND custom_fields ->> '3' = 'X'")).toEqual({
      kind: 'logical',
      op: 'and',
      left: {
        kind: 'comparison',
        op: '<>',
        left: { kind: 'column', name: 'status' },
        right: { kind: 'string', value: 'END' },
      },
      right: {
        kind: 'comparison',
        op: '=',
        left: {
          kind: 'json',
          op: '->>',
          operand: { kind: 'column', name: 'custom_fields' },
          key: { kind: 'string', value: '3' },
        },
        right: { kind: 'string', value: 'X' },
      },
    })
  })

  it('reads a cast then like', () => {
    expect(parseClause("external_id::text like '%<20210101.abc@mail.example>%'")).toEqual({
      kind: 'like',
      op: 'like',
      negated: false,
      operand: { kind: 'cast', operand: { kind: 'column', name: 'external_id' }, type: 'text' },
      pattern: { kind: 'string', value: '%<20210101.abc@mail.example>%' },
    })
  })
})

describe('parseClause: the language', () => {
  const cases: [string, string][] = [
    ["STATUS = 'it''s'", "status = 'it''s'"],
    ['res_view_letterbox.res_id > 10', 'res_id > 10'],
    ["Res_View_Letterbox . Subject ILIKE '%a%'", "subject ilike '%a%'"],
    ["subject not like 'x'", "subject not like 'x'"],
    ["status != 'A'", "status <> 'A'"],
    ['res_id in (1, 2, 3)', 'res_id in (1, 2, 3)'],
    ["status NOT IN ('A','B')", "status not in ('A', 'B')"],
    ['res_id between 1 and 10 and typist is not null', 'res_id between 1 and 10 and typist is not null'],
    ['res_id not between 1 + 1 and 2 * 5', 'res_id not between 1 + 1 and 2 * 5'],
    ['binding is true or retention_frozen is not false', 'binding is true or retention_frozen is not false'],
    ['not (typist = 1)', 'not typist = 1'],
    ['(1 = 1 or 1 = 2) and 1 = 1', '(1 = 1 or 1 = 2) and 1 = 1'],
    ['filesize % 2 = 0 and -filesize < - -3', 'filesize % 2 = 0 and -filesize < - -3'],
    ["subject || ' ' || barcode like '%x%'", "subject || ' ' || barcode like '%x%'"],
    ["custom_fields -> 'a' -> 0 ->> 'b' is null", "custom_fields -> 'a' -> 0 ->> 'b' is null"],
    ["CAST(doc_date AS date) = DATE '2021-01-01'", "doc_date::date = date '2021-01-01'"],
    ['typist::int = 5', 'typist::integer = 5'],
    ["creation_date > now() - INTERVAL '7 days'", "creation_date > now() - interval '7 days'"],
    ["creation_date < TIMESTAMP '2021-01-01 10:00:00'", "creation_date < timestamp '2021-01-01 10:00:00'"],
    [
      'doc_date <= current_date and creation_date <= CURRENT_TIMESTAMP()',
      'doc_date <= current_date and creation_date <= current_timestamp',
    ],
    ["lower(subject) = upper(trim(' x '))", "lower(subject) = upper(trim(' x '))"],
    ["coalesce(barcode, alt_identifier, '') <> ''", "coalesce(barcode, alt_identifier, '') <> ''"],
    ["substring(subject from 2 for 3) = 'abc'", "substring(subject, 2, 3) = 'abc'"],
    ['extract(YEAR from creation_date) = 2021', 'extract(year from creation_date) = 2021'],
    ["date_trunc('month', creation_date) = date(doc_date)", "date_trunc('month', creation_date) = date(doc_date)"],
    [
      "to_char(creation_date, 'YYYY') = '2021' and abs(-1) = greatest(1, least(2, 3)) and length(subject) > 1.5e3",
      "to_char(creation_date, 'YYYY') = '2021' and abs(-1) = greatest(1, least(2, 3)) and length(subject) > 1.5e3",
    ],
    ['res_id = .5 or res_id = 1.', 'res_id = .5 or res_id = 1.'],
    ['TRUE AND NOT FALSE OR NULL IS NULL', 'true and not false or null is null'],
    ['1=1 OR 1=1', '1 = 1 or 1 = 1'],
  ]
  it.each(cases)('%s', (input, printed) => {
    const ast = parseClause(input)
    expect(printClause(ast)).toBe(printed)
    expect(parseClause(printed)).toEqual(ast)
  })

  it('gives AND precedence over OR and keeps left associativity', () => {
    const ast = parseClause('1 = 1 or 2 = 2 and 3 = 3 or 4 = 4') as Extract<ClauseAst, { kind: 'logical' }>
    expect(ast.op).toBe('or')
    expect(printClause(ast.left)).toBe('1 = 1 or 2 = 2 and 3 = 3')
    expect(printClause(parseClause('1 - 2 - 3'))).toBe('1 - 2 - 3')
    expect(printClause(parseClause('1 - (2 - 3)'))).toBe('1 - (2 - 3)')
  })
})

describe('parseClause: refusals name the token and its position', () => {
  const cases: [string, string][] = [
    ['subject = 1 and foo = 2', 'Bad Request: clause is not valid: unknown column "foo" at position 17'],
    [
      'dundermifflin_clients.branch = 1',
      'Bad Request: clause is not valid: unknown table "dundermifflin_clients" at position 1',
    ],
    ['res_id in (select res_id from users)', 'Bad Request: clause is not valid: unknown table "users" at position 31'],
    [
      'res_id = (select res_id from listinstance)',
      'Bad Request: clause is not valid: sub-queries are not allowed: "select" at position 11',
    ],
    [
      '1=1; drop table users',
      'Bad Request: clause is not valid: statement separators are not allowed: ";" at position 4',
    ],
    ['1=1 -- x', 'Bad Request: clause is not valid: comments are not allowed: "--" at position 5'],
    ['1=1 /* x */', 'Bad Request: clause is not valid: comments are not allowed: "/*" at position 5'],
    ['"status" = 1', 'Bad Request: clause is not valid: quoted identifiers are not allowed: "\\"" at position 1'],
    ['res_id = $1', 'Bad Request: clause is not valid: parameters are not allowed: "$" at position 10'],
    ['pg_sleep(10) is null', 'Bad Request: clause is not valid: unknown function "pg_sleep" at position 1'],
    ["'users'::regclass is null", 'Bad Request: clause is not valid: cast to "regclass" is not allowed at position 10'],
    [
      'lower(subject, 1) = 1',
      'Bad Request: clause is not valid: wrong number of arguments for function "lower" at position 1',
    ],
    ["subject = 'abc", 'Bad Request: clause is not valid: unterminated string literal "\'abc" at position 11'],
    ['typist = @user_id', 'Bad Request: clause is not valid: macro "@user_id" is not allowed here at position 10'],
    ['res_id = 1 1', 'Bad Request: clause is not valid: unexpected token "1" at position 12'],
    ['res_id = ', 'Bad Request: clause is not valid: unexpected end of input at position 10'],
    ['(res_id = 1', 'Bad Request: clause is not valid: unexpected end of input at position 12'],
    ['res_id = 1)', 'Bad Request: clause is not valid: unexpected token ")" at position 11'],
    ['subject = ‘x’', 'Bad Request: clause is not valid: unexpected character "‘" at position 11'],
    ['é = 1', 'Bad Request: clause is not valid: unexpected character "é" at position 1'],
    ['😀 = 1 or x', 'Bad Request: clause is not valid: unexpected character "😀" at position 1'],
    ["'😀' = foo", 'Bad Request: clause is not valid: unknown column "foo" at position 7'],
    [
      'subject ->> 1 = 1',
      'Bad Request: clause is not valid: operator "->>" needs a json column on its left at position 9',
    ],
    [
      'custom_fields ->> subject = 1',
      'Bad Request: clause is not valid: the key of a json operator must be a string or integer literal, not "subject" at position 19',
    ],
    [
      'extract(fortnight from doc_date) = 1',
      'Bad Request: clause is not valid: unknown extract field "fortnight" at position 9',
    ],
    ['res_id = 12abc', 'Bad Request: clause is not valid: malformed number "12abc" at position 10'],
    ["subject = E'\\x27'", 'Bad Request: clause is not valid: unknown column "E" at position 11'],
    ['res_id in ()', 'Bad Request: clause is not valid: unexpected token ")" at position 12'],
    ['res_id = 1 = 1', 'Bad Request: clause is not valid: unexpected token "=" at position 12'],
    ['res_id \\ 1', 'Bad Request: clause is not valid: unexpected character "\\\\" at position 8'],
    [
      "subject = 'a\u0000b'",
      'Bad Request: clause is not valid: string literal "\'a\\u0000b\'" holds a NUL character or a lone surrogate at position 11',
    ],
  ]
  it.each(cases)('%s', (input, message) => {
    const error = refusal(input)
    expect(error.message).toBe(message)
    expect(error.kind).toBe('bad-request')
    expect(error.code).toBe('SEARCH_CLAUSE_SYNTAX')
  })

  it('truncates a huge offending token in the message', () => {
    const error = refusal(`${'x'.repeat(500)} = 1`)
    expect(error.message).toBe(`Bad Request: clause is not valid: unknown column "${'x'.repeat(40)}..." at position 1`)
  })
})

describe('parseClause: limits', () => {
  it(`refuses more than ${MAX_CLAUSE_BYTES} bytes, counting UTF-8`, () => {
    const ok = `subject = '${'a'.repeat(MAX_CLAUSE_BYTES - 12)}'`
    expect(ok.length).toBe(MAX_CLAUSE_BYTES)
    expect(() => parseClause(ok)).not.toThrow()
    expect(refusal(`subject = '${'é'.repeat(MAX_CLAUSE_BYTES / 2)}'`).message).toBe(
      'Bad Request: clause is not valid: text is longer than 262144 bytes',
    )
  })

  it(`refuses nesting deeper than ${MAX_NESTING_DEPTH}`, () => {
    const nested = (n: number) => `${'('.repeat(n)}1 = 1${')'.repeat(n)}`
    expect(() => parseClause(nested(MAX_NESTING_DEPTH))).not.toThrow()
    expect(refusal(nested(MAX_NESTING_DEPTH + 1)).message).toBe(
      'Bad Request: clause is not valid: "(" nests deeper than 32 levels at position 33',
    )
    expect(refusal(`${'not '.repeat(40)}true`).message).toBe(
      'Bad Request: clause is not valid: "not" nests deeper than 32 levels at position 129',
    )
    expect(refusal(`${'- '.repeat(40)}1 = 1`).message).toMatch(/nests deeper than 32 levels at position 65$/)
    expect(refusal(`${'lower('.repeat(40)}subject${')'.repeat(40)} = ''`).message).toMatch(
      /"lower" nests deeper than 32 levels/,
    )
  })

  it('parses a long flat chain without growing the stack', () => {
    const chain = Array.from({ length: 800 }, () => '1 = 1').join(' or ')
    expect(printClause(parseClause(chain))).toBe(chain)
  })

  it(`refuses chains taller than ${MAX_TREE_HEIGHT} levels with a clear message, however long the text`, () => {
    const chain = (n: number) => Array.from({ length: n }, (_, i) => `res_id = ${i}`).join(' or ')
    expect(() => parseClause(chain(MAX_TREE_HEIGHT - 1))).not.toThrow()
    const message =
      'Bad Request: clause is not valid: more than 1000 conditions or operations chained in one expression; write long lists of values as IN (...)'
    expect(refusal(chain(MAX_TREE_HEIGHT + 1)).message).toBe(message)
    // 20,000 terms fit in 256 KiB: refused, not a stack overflow.
    expect(refusal(Array.from({ length: 20_000 }, () => '1 = 1').join(' or ')).message).toBe(message)
    expect(refusal(`${Array.from({ length: 5000 }, () => 'filesize').join(' + ')} > 0`).message).toBe(message)
  })

  it(`refuses IN lists of more than ${MAX_IN_LIST_ITEMS} items`, () => {
    const list = (n: number) => `res_id in (${Array.from({ length: n }, () => '1').join(',')})`
    expect(() => parseClause(list(MAX_IN_LIST_ITEMS))).not.toThrow()
    expect(refusal(list(MAX_IN_LIST_ITEMS + 1)).message).toBe(
      'Bad Request: clause is not valid: IN list has more than 50000 items, first extra item "1" at position 100012',
    )
  })

  it('accepts what reconciliation scripts send: 10,000 ids and a day of chrono numbers in one clause', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => 100_000 + i)
    const chronos = Array.from({ length: 2_000 }, (_, i) => `'MAARCH/2026A/${i + 1}'`)
    const clause = `res_id in (${ids.join(', ')}) or alt_identifier in (${chronos.join(', ')})`
    const ast = parseClause(clause)
    expect(ast).toMatchObject({
      kind: 'logical',
      op: 'or',
      left: { kind: 'in', items: { length: 10_000 } },
      right: { kind: 'in', items: { length: 2_000 } },
    })
    expect(printClause(ast)).toBe(clause)
  })

  it(`refuses more than ${MAX_TEXT_VALUES} literal values (each is a bound parameter)`, () => {
    const list = (n: number) => `res_id in (${Array.from({ length: n }, () => '7').join(',')})`
    const half = MAX_TEXT_VALUES / 2
    expect(() => parseClause(`${list(half)} or ${list(half)}`)).not.toThrow()
    const refused = refusal(`${list(half)} or ${list(half + 1)}`)
    expect(refused.message).toMatch(
      /^Bad Request: clause is not valid: more than 60000 literal values, first extra value "7" at position \d+$/,
    )
  })
})

describe('parseClause: macros', () => {
  it('reads group clauses only with allowMacros', () => {
    const text = 'destination in (@my_entities, @subentities[@my_primary_entity]) or typist = @user_id'
    const ast = parseClause(text, { allowMacros: true })
    expect(printClause(ast)).toBe(text)
    expect(ast).toMatchObject({
      left: {
        kind: 'in',
        items: [
          { kind: 'macro', name: 'my_entities', args: null },
          { kind: 'macro', name: 'subentities', args: [{ kind: 'macro', name: 'my_primary_entity', args: null }] },
        ],
      },
    })
    expect(refusal(text).message).toBe(
      'Bad Request: clause is not valid: macro "@my_entities" is not allowed here at position 17',
    )
  })

  it("reads quoted and numeric macro arguments and @entity_type['T']", () => {
    const text = "destination in (@subentities['A', 'B'], @subentities_id[1, @my_entities_id], @entity_type['Service'])"
    expect(printClause(parseClause(text, { allowMacros: true }))).toBe(text)
  })

  it('keeps list macros inside IN lists', () => {
    expect(refusal('destination = @my_entities', { allowMacros: true }).message).toBe(
      'Bad Request: clause is not valid: macro "@my_entities" yields a list and is only allowed inside IN (...) at position 15',
    )
    expect(refusal('destination in ((@my_entities))', { allowMacros: true }).message).toMatch(/yields a list/)
    expect(refusal('destination in (@my_entities || 1)', { allowMacros: true }).message).toMatch(/yields a list/)
    expect(parseClause('destination in (@my_primary_entity || 1, 2)', { allowMacros: true })).toMatchObject({
      kind: 'in',
    })
  })

  it('refuses unknown macros and malformed arguments', () => {
    expect(refusal('typist = @root', { allowMacros: true }).message).toBe(
      'Bad Request: clause is not valid: unknown macro "@root" at position 10',
    )
    expect(refusal('destination in (@subentities)', { allowMacros: true }).message).toBe(
      'Bad Request: clause is not valid: unexpected token ")" at position 29',
    )
    expect(refusal('destination in (@subentities[subject])', { allowMacros: true }).message).toBe(
      'Bad Request: clause is not valid: unexpected token "subject" at position 30',
    )
    expect(refusal('typist = @ user_id', { allowMacros: true }).message).toBe(
      'Bad Request: clause is not valid: unexpected character "@" at position 10',
    )
  })
})

describe('orderBy items', () => {
  it('reads direction and nulls placement', () => {
    expect(parseOrderItem('res_id')).toEqual({
      expr: { kind: 'column', name: 'res_id' },
      direction: 'asc',
      nulls: null,
    })
    expect(parseOrderItem('lower(subject) DESC NULLS LAST')).toEqual({
      expr: { kind: 'call', name: 'lower', args: [{ kind: 'column', name: 'subject' }] },
      direction: 'desc',
      nulls: 'last',
    })
    expect(printOrderItem(parseOrderItem('creation_date asc nulls first'))).toBe('creation_date asc nulls first')
  })

  it('refuses with the orderBy message', () => {
    expect(() => parseOrderItem('res_id; drop table users')).toThrow(
      'Bad Request: orderBy parameter not valid: statement separators are not allowed: ";" at position 7',
    )
    expect(() => parseOrderItem('res_id desc nulls')).toThrow(
      'Bad Request: orderBy parameter not valid: unexpected end of input at position 18',
    )
    expect(() => parseOrderItem('@user_id')).toThrow(
      'Bad Request: orderBy parameter not valid: macro "@user_id" is not allowed here at position 1',
    )
    expect(() => parseOrderItem('(select 1)')).toThrow(
      'Bad Request: orderBy parameter not valid: sub-queries are not allowed: "select" at position 2',
    )
  })
})

/** Grammar-shaped noise: fragments of the language and of attacks glued together, to reach deep paths. */
const FRAGMENTS = [
  'res_id',
  'subject',
  'custom_fields',
  'external_id',
  'res_view_letterbox',
  '.',
  "'x'",
  "''",
  "'",
  '1',
  '1.5',
  '.5',
  '1e3',
  '(',
  ')',
  ',',
  '=',
  '<>',
  '!=',
  '<',
  '>=',
  '+',
  '-',
  '*',
  '/',
  '%',
  '||',
  '->',
  '->>',
  '::',
  'text',
  'int',
  'regclass',
  'and',
  'or',
  'not',
  'in',
  'like',
  'ilike',
  'between',
  'is',
  'null',
  'true',
  'false',
  'cast',
  'as',
  'from',
  'for',
  'select',
  'lower',
  'coalesce',
  'substring',
  'extract',
  'year',
  'date',
  'timestamp',
  'interval',
  'current_date',
  'now',
  '@user_id',
  '@my_entities',
  '@subentities',
  '[',
  ']',
  ';',
  '--',
  '/*',
  '"',
  '$1',
  '\\',
  '\u0000',
  '‘',
  'é',
  '😀',
  '\ud800',
  'users',
  'pg_sleep',
  'union',
  'asc',
  'desc',
  'nulls',
  'last',
]
const tokenSoup = fc
  .array(fc.constantFrom(...FRAGMENTS), { maxLength: 30 })
  .chain((parts) => fc.constantFrom(parts.join(' '), parts.join('')))

function neverThrowsOtherThanDomainError(text: string, allowMacros: boolean): void {
  try {
    const ast = parseClause(text, { allowMacros })
    // Whatever is accepted prints to text that reads back to the same tree.
    expect(parseClause(printClause(ast), { allowMacros })).toEqual(ast)
  } catch (error) {
    if (!isDomainError(error)) throw error
    expect(error.kind).toBe('bad-request')
    expect(error.message.startsWith('Bad Request: clause is not valid: ')).toBe(true)
  }
}

describe('properties', () => {
  it('throws nothing but a bad-request DomainError for any string', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme-ascii' }), tokenSoup),
        fc.boolean(),
        neverThrowsOtherThanDomainError,
      ),
      RUNS,
    )
  })

  it('throws nothing but a DomainError for grammar-shaped noise, and accepts some of it', () => {
    let accepted = 0
    fc.assert(
      fc.property(tokenSoup, fc.boolean(), (text, allowMacros) => {
        neverThrowsOtherThanDomainError(text, allowMacros)
        try {
          parseClause(text, { allowMacros })
          accepted++
        } catch {}
      }),
      { numRuns: 2000, seed: 7 },
    )
    expect(accepted).toBeGreaterThan(0)
  })

  it('reads back what it prints (parse(print(ast)) = ast)', () => {
    fc.assert(
      fc.property(clauseArbitrary(), (ast) => {
        expect(parseClause(printClause(ast))).toEqual(ast)
      }),
      RUNS,
    )
  })

  it('reads back what it prints, macros included', () => {
    fc.assert(
      fc.property(clauseArbitrary({ macros: true }), (ast) => {
        expect(parseClause(printClause(ast), { allowMacros: true })).toEqual(ast)
      }),
      RUNS,
    )
  })

  it('reads back printed order items', () => {
    const item = fc.record({
      expr: clauseArbitrary({ maxDepth: 3 }),
      direction: fc.constantFrom('asc' as const, 'desc' as const),
      nulls: fc.constantFrom('first' as const, 'last' as const, null),
    })
    fc.assert(
      fc.property(item, (order) => {
        expect(parseOrderItem(printOrderItem(order))).toEqual(order)
      }),
      RUNS,
    )
  })
})

describe('full-text conditions', () => {
  it('reads fulltext() and fulltext_rank() with one string of words', () => {
    expect(parseClause("fulltext('toiture du gymnase') and status = 'NEW'")).toEqual({
      kind: 'logical',
      op: 'and',
      left: { kind: 'fulltext', measure: 'match', query: 'toiture du gymnase' },
      right: {
        kind: 'comparison',
        op: '=',
        left: { kind: 'column', name: 'status' },
        right: { kind: 'string', value: 'NEW' },
      },
    })
    expect(parseOrderItem("FULLTEXT_RANK('école') desc")).toEqual({
      expr: { kind: 'fulltext', measure: 'rank', query: 'école' },
      direction: 'desc',
      nulls: null,
    })
    expect(printClause(parseClause("not fulltext('l''école')"))).toBe("not fulltext('l''école')")
  })

  it('refuses anything but one non-blank string literal', () => {
    for (const clause of [
      'fulltext()',
      "fulltext('  ')",
      'fulltext(subject)',
      "fulltext('a', 'b')",
      "fulltext('a' || 'b')",
    ])
      expect(() => parseClause(clause), clause).toThrow(/takes one string of words/)
  })
})
