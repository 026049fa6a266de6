import { describe, expect, it } from 'vitest'
import { LINK_HISTORY } from './link-request.js'
import { linkHistoryPair } from './link-use-cases.js'

describe('linkHistoryPair', () => {
  it('writes the event on both records, each naming the other by its chrono (empty when it has none)', () => {
    const chronos = new Map<number, string | null>([
      [4, 'MAARCH/2026A/4'],
      [9, null],
    ])
    expect(linkHistoryPair(4, 9, LINK_HISTORY.added, chronos)).toEqual([
      {
        tableName: 'res_letterbox',
        recordId: 4,
        eventType: 'UP',
        eventId: 'resourceModification',
        module: 'resource',
        info: 'Liaison ajoutée : ',
      },
      {
        tableName: 'res_letterbox',
        recordId: 9,
        eventType: 'UP',
        eventId: 'resourceModification',
        module: 'resource',
        info: 'Liaison ajoutée : MAARCH/2026A/4',
      },
    ])
    expect(linkHistoryPair(4, 9, LINK_HISTORY.removed, chronos).map((row) => row.info)).toEqual([
      'Liaison supprimée : ',
      'Liaison supprimée : MAARCH/2026A/4',
    ])
  })
})
