import { parseClause } from '@mailroom/core'
import { describe, expect, it } from 'vitest'
import { isServedByWordsIndex } from './words-index.js'

describe('isServedByWordsIndex', () => {
  it.each([
    "destination in ('PJS', 'PE')",
    "destination = 'PJS'",
    "'PJS' = destination",
    'typist = 3',
    "dest_user = 3 or initiator = 'DGS'",
    "destination in ('PJS') and status <> 'DEL'",
    "status <> 'DEL' and destination = 'PJS'",
    "(destination = 'PJS' or typist = 4) and category_id = 'incoming'",
    '1=1',
    '1=0',
    "1=0 or destination = 'PJS'",
  ])('serves %s: an index scan per alternative', (clause) => {
    expect(isServedByWordsIndex(parseClause(clause))).toBe(true)
  })

  it.each([
    "status = 'NEW'",
    "destination in ('PJS') or status = 'NEW'",
    "destination <> 'PJS'",
    "destination not in ('PJS')",
    "destination like 'P%'",
    'typist = dest_user',
    "destination = 'PJS' or not (typist = 3)",
    "custom_fields->>'1' = 'x'",
  ])('does not serve %s: one alternative needs every record holding the words', (clause) => {
    expect(isServedByWordsIndex(parseClause(clause))).toBe(false)
  })

  const basket = (clause: string) => parseClause(clause, { author: 'administrator' })

  it.each([
    "res_id in (select res_id from listinstance where item_id = 3 and item_mode = 'cc')",
    "destination = 'PJS' or res_id in (select distinct res_id from listinstance where item_type = 'entity_id' group by res_id)",
    "res_id in (select res_id from listinstance where item_id = 3) and status not in ('END')",
  ])('serves %s: the sub-select is a set of records, an array the primary key serves', (clause) => {
    expect(isServedByWordsIndex(basket(clause))).toBe(true)
  })

  it.each([
    'res_id not in (select res_id from res_mark_as_read where user_id = 3)',
    'res_id in (select res_id from listinstance where res_view_letterbox.typist = item_id)',
    '(res_id, 3) in (select res_id, item_id from listinstance)',
    'res_id in (select res_id from listinstance order by listinstance_id limit 1)',
    'dest_user in (select user_id from users_entities)',
  ])('does not serve %s: the sub-select depends on the record tested', (clause) => {
    expect(isServedByWordsIndex(basket(clause))).toBe(false)
  })

  it('serves an IN list emptied by macro expansion (a constant)', () => {
    const emptied = { kind: 'in', negated: false, operand: { kind: 'column', name: 'status' }, items: [] } as const
    expect(isServedByWordsIndex(emptied)).toBe(true)
    expect(isServedByWordsIndex({ ...emptied, negated: true })).toBe(true)
  })
})
