import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { badCriteriaBodyArbitrary, criteriaBodyArbitrary } from '../../../testing/src/arbitraries/criteria-arbitrary.js'
import { isDomainError } from '../errors/domain-error.js'
import { parseSearchCriteria } from './parse-criteria.js'
import { parseSearchPaging } from './parse-paging.js'

function refusal(run: () => unknown): { code: string; message: string } {
  try {
    run()
  } catch (error) {
    if (isDomainError(error)) return { code: error.code, message: error.message }
    throw error
  }
  throw new Error('accepted')
}

describe('parseSearchCriteria', () => {
  it('turns every well-formed criterion into one term', () => {
    fc.assert(
      fc.property(criteriaBodyArbitrary, (body) => {
        expect(parseSearchCriteria(body).terms).toHaveLength(Object.keys(body).length)
      }),
    )
  })

  it('refuses a body with one bad criterion, naming it, whatever the good ones beside it', () => {
    fc.assert(
      fc.property(badCriteriaBodyArbitrary, ({ body, name }) => {
        const { code, message } = refusal(() => parseSearchCriteria(body))
        expect(code).toMatch(/^CRITERIA_SEARCH_/)
        expect(message).toContain(`Body ${name.slice(0, 40)}`)
      }),
    )
  })

  it('reads the criteria of the capture client and the web client as 20.10 does', () => {
    expect(parseSearchCriteria({ chrono: { values: 'MAARCH/2026A/1' } }).terms).toEqual([
      { kind: 'chrono', text: 'MAARCH/2026A/1' },
    ])
    expect(parseSearchCriteria({ meta: { values: '  "MAARCH/2020A/1" ' } }).terms).toEqual([
      { kind: 'quick', text: 'MAARCH/2020A/1', exact: true },
    ])
    expect(parseSearchCriteria({ status: { values: [5, '4', null] } }).terms).toEqual([
      { kind: 'statusIdentifiers', identifiers: [5, 4], orNull: true },
    ])
    expect(parseSearchCriteria({ senders: { values: ['Alpha'] } }).terms).toEqual([
      { kind: 'correspondentCompany', mode: 'sender', text: 'Alpha' },
    ])
    expect(parseSearchCriteria({ creationDate: { values: { start: '2020-01-01', end: null } } }).terms).toEqual([
      { kind: 'dateRange', column: 'creation_date', start: '2020-01-01', end: null },
    ])
  })

  it('answers 400 where 20.10 ignores the criterion or answers 500 (NOTES.md §4)', () => {
    const cases: [unknown, string][] = [
      [
        { status: { values: [{ id: 'NEW' }] } },
        'Body status values must be a non-empty array of status identifiers (integers, not codes) or null',
      ],
      [
        { status: { values: ['NEW'] } },
        'Body status values must be a non-empty array of status identifiers (integers, not codes) or null',
      ],
      [{ chrono: { values: 12 } }, 'Body chrono values must be a non-empty string'],
      [{ chrono: 'MAARCH/2020A/1' }, 'Body chrono must be an object {"values": ...}'],
      [{ nope: { values: 'x' } }, 'Body nope is not a search criterion'],
      [
        { role_dest: { values: [] } },
        'Body role_dest values must be a non-empty array of {id, type} (type user or entity) or null',
      ],
      [
        { indexingCustomField_7: { values: 'x' } },
        'Body indexingCustomField_7 names no custom field of this installation',
      ],
      [{ registeredMail_nope: { values: 'x' } }, 'Body registeredMail_nope is not a search criterion'],
      [
        { attachment_type: { values: 'response_project' } },
        'Body attachment_type values must be a non-empty array of attachment type ids (strings)',
      ],
      [
        { creationDate: { values: { start: 'yesterday', end: 12 } } },
        'Body creationDate values must be an object {start, end} of dates YYYY-MM-DD (at least one)',
      ],
      [{ chrono: { values: '   ' } }, 'Body chrono values must be a non-empty string'],
      [[{ chrono: { values: 'x' } }], 'Body is not an object of search criteria'],
      [{ filters: { nope: { values: [] } } }, 'Body filters.nope is not a search criterion'],
    ]
    for (const [body, message] of cases) expect(refusal(() => parseSearchCriteria(body)).message).toBe(message)
  })

  it("reads the criteria of 20.10's search form: roles, departments, signatory groups, registered mail, custom fields", () => {
    expect(
      parseSearchCriteria({
        role_dest: { values: [{ id: '3', type: 'user', label: 'Barbara BAIN' }, null] },
        role_avis_copy: { values: [{ id: 6, type: 'entity' }] },
        senderDepartment: { values: ['13', 75, null, '13'] },
        groupSign: { values: [2, null] },
        registeredMail_reference: { values: '2C' },
      }).terms,
    ).toEqual([
      { kind: 'role', role: 'dest', items: [{ id: 3, type: 'user' }], orNone: true },
      { kind: 'role', role: 'avis_copy', items: [{ id: 6, type: 'entity' }], orNone: false },
      { kind: 'senderDepartment', departments: ['13', '75'], orNone: true },
      { kind: 'groupSign', groupIds: [2], orNone: true },
      { kind: 'registeredMail', criterion: 'registeredMail_reference' },
    ])
    const fields = new Map([
      [1, 'date'],
      [3, 'select'],
      [4, 'string'],
    ] as const)
    expect(
      parseSearchCriteria(
        {
          indexingCustomField_1: { values: { start: '2020-01-01' } },
          indexingCustomField_3: { values: ['Fax', null] },
          indexingCustomField_4: { values: '"REF 1"' },
        },
        fields,
      ).terms,
    ).toEqual([
      { kind: 'customField', fieldId: 1, match: { kind: 'dayRange', start: '2020-01-01', end: null } },
      { kind: 'customField', fieldId: 3, match: { kind: 'oneOf', values: ['Fax'], orNull: true } },
      { kind: 'customField', fieldId: 4, match: { kind: 'text', text: 'REF 1', exact: true } },
    ])
    expect(refusal(() => parseSearchCriteria({ indexingCustomField_3: { values: 'Fax' } }, fields)).message).toBe(
      'Body indexingCustomField_3 values must be a non-empty array of values (strings) or null',
    )
  })

  it('reads an absent body as no criterion, and the selected facets of filters', () => {
    expect(parseSearchCriteria(undefined)).toEqual({ terms: [], selection: {}, expansion: {} })
    const parsed = parseSearchCriteria({
      filters: {
        statuses: {
          values: [
            { id: 'NEW', selected: true },
            { id: 'END', selected: false },
          ],
          expand: true,
        },
      },
    })
    expect(parsed.selection).toEqual({ statuses: ['NEW'] })
    expect(parsed.expansion).toEqual({ statuses: true })
  })
})

describe('parseSearchPaging', () => {
  it("applies 20.10's defaults", () => {
    expect(parseSearchPaging({})).toEqual({ limit: 25, offset: 0, order: null, direction: null, skipFacets: false })
    expect(parseSearchPaging({ limit: '3', offset: '5', order: 'chrono', orderDir: 'DESC', filters: 'x' })).toEqual({
      limit: 3,
      offset: 5,
      order: 'chrono',
      direction: 'DESC',
      skipFacets: true,
    })
  })

  it('names the parameter it refuses', () => {
    expect(refusal(() => parseSearchPaging({ limit: '-1' })).message).toBe(
      'Query limit must be an integer from 1 to 1000',
    )
    expect(refusal(() => parseSearchPaging({ offset: 'x' })).message).toBe(
      'Query offset must be an integer from 0 to 2147483647',
    )
    expect(refusal(() => parseSearchPaging({ order: 'res_id; drop' })).message).toMatch(
      /^Query order must be one of chrono/,
    )
    expect(refusal(() => parseSearchPaging({ orderDir: 'up' })).message).toBe('Query orderDir must be ASC or DESC')
  })
})
