import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildClause, errorPosition, excerptParts, literal, NO_FILTERS, withinRecords } from './clause-builder.js'

/** Splits a clause into its string literals and the text between them, as the server's tokenizer does. */
function outsideLiterals(clause: string): string {
  let out = ''
  let inside = false
  for (let i = 0; i < clause.length; i++) {
    const c = clause[i]!
    if (c === "'") {
      if (inside && clause[i + 1] === "'") {
        i++
        continue
      }
      inside = !inside
      continue
    }
    if (!inside) out += c
  }
  expect(inside).toBe(false)
  return out
}

describe('the clause the filter builder writes', () => {
  it('is 1=1 without filters', () => {
    expect(buildClause(NO_FILTERS)).toBe('1=1')
  })

  it('joins every filter given with and', () => {
    const clause = buildClause({
      ...NO_FILTERS,
      status: 'NEW',
      doctype: '101',
      destination: 'PJS',
      priority: 'poiuytre1379nbvc',
      createdFrom: '2026-01-31',
      createdTo: '2026-02-28',
      chrono: 'MAARCH/2026A/1',
      subjectWords: '  Demande  piscine ',
      customField: '3',
      customValue: 'Fax',
    })
    expect(clause).toBe(
      "status = 'NEW' and type_id = 101 and destination = 'PJS' and priority = 'poiuytre1379nbvc'" +
        " and creation_date >= '2026-01-31' and creation_date < '2026-03-01'" +
        " and alt_identifier = 'MAARCH/2026A/1' and subject ilike '%Demande%' and subject ilike '%piscine%' and custom_fields->>'3' = 'Fax'",
    )
  })

  it('leaves out a number or date filter that holds no number or date', () => {
    expect(
      buildClause({
        ...NO_FILTERS,
        doctype: '1 or 1=1',
        createdFrom: "2026-01-01' or '1'='1",
        customField: 'x',
        customValue: 'y',
      }),
    ).toBe('1=1')
  })

  it('keeps every value inside a literal, whatever it holds (property)', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.string(),
        fc.string(),
        fc.string(),
        fc.string(),
        (status, destination, priority, chrono, words) => {
          const clause = buildClause({ ...NO_FILTERS, status, destination, priority, chrono, subjectWords: words })
          const structure = outsideLiterals(clause)
          expect(structure).toMatch(/^(1=1|[a-z_]+ (=|ilike) ( and [a-z_]+ (=|ilike) )*)$/)
        },
      ),
    )
  })

  it('narrows a clause to the records a sender look-up found, or to none', () => {
    expect(withinRecords("status = 'NEW'", [4, 9])).toBe("(status = 'NEW') and res_id in (4, 9)")
    expect(withinRecords('1=1', [])).toBe('1=0')
    expect(withinRecords('1=1', [0, -1, 1.5])).toBe('1=0')
  })

  it('doubles quotes in literals', () => {
    expect(literal("l'école")).toBe("'l''école'")
  })

  it('reads the position of a server error', () => {
    expect(errorPosition('Bad Request: clause is not valid: unknown column "foo" at position 1')).toBe(1)
    expect(errorPosition('Bad Request: clause is not valid: unexpected end of input')).toBeNull()
  })
})

describe('full-text words', () => {
  it('become one fulltext() condition whose words are a literal', () => {
    expect(buildClause({ ...NO_FILTERS, words: " toiture de l'école ", status: 'NEW' })).toBe(
      "fulltext('toiture de l''école') and status = 'NEW'",
    )
  })

  it('marks the words found in an excerpt', () => {
    expect(excerptParts('la **toiture** du **gymnase**')).toEqual([
      { text: 'la ', found: false },
      { text: 'toiture', found: true },
      { text: ' du ', found: false },
      { text: 'gymnase', found: true },
    ])
  })
})
