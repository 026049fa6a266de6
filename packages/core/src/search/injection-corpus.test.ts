import { describe, expect, it } from 'vitest'
import { INJECTION_CORPUS } from '../../../testing/src/fixtures/injection-corpus.js'
import { isDomainError } from '../errors/domain-error.js'
import type { ClauseAst } from './ast.js'
import { parseClause } from './parser.js'
import { printClause } from './printer.js'

/** The AGENT perimeter of the runtime contract, as the lead will put it around caller clauses. */
const PERIMETER = 'destination in (@my_entities, @subentities[@my_primary_entity])'

function outcome(payload: string): { accepted: ClauseAst } | { refused: string } {
  try {
    return { accepted: parseClause(payload) }
  } catch (error) {
    if (!isDomainError(error)) throw error
    expect(error.kind).toBe('bad-request')
    expect(error.code).toBe('SEARCH_CLAUSE_SYNTAX')
    return { refused: error.message }
  }
}

describe('injection corpus', () => {
  it('holds at least 300 distinct payloads', () => {
    expect(new Set(INJECTION_CORPUS).size).toBeGreaterThanOrEqual(300)
  })

  it('refuses every payload with a DomainError, or accepts it as one self-contained expression', () => {
    const accepted: string[] = []
    for (const payload of INJECTION_CORPUS) {
      const result = outcome(payload)
      if ('refused' in result) continue
      accepted.push(payload)
      // Wrapped the way the compiler wraps it, the clause stays the right operand of the perimeter's AND.
      const wrapped = parseClause(`(${PERIMETER}) and (${printClause(result.accepted)})`, { allowMacros: true })
      // Compared through the printer: a deep accepted tree (a long OR chain) overflows a structural matcher.
      expect(wrapped).toMatchObject({ kind: 'logical', op: 'and' })
      expect(wrapped.kind === 'logical' && printClause(wrapped.right)).toBe(printClause(result.accepted))
    }
    // The accepted ones are plain expressions over the view, or sub-selects over the tables a search may read
    // (subquery-tables.ts): their string literals become parameters.
    const allowListed = /\bin \(select res_id from listinstance\b/gi
    expect(
      accepted.filter((p) =>
        /\b(select|union|pg_\w+|regclass|users\.|;)/i.test(p.replace(/'(?:[^']|'')*'/g, "''").replace(allowListed, '')),
      ),
    ).toEqual([])
    expect(accepted.length).toBeGreaterThan(20)
    expect(accepted.length).toBeLessThan(INJECTION_CORPUS.length / 2)
  })
})
