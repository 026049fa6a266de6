import { describe, expect, it } from 'vitest'
import type { Actor } from '../actors/actor.js'
import { LINK_HISTORY } from './link-request.js'
import { linkHistoryPair, listLinks } from './link-use-cases.js'
import type { LinkedResource } from './linked-resource.js'
import type { LinksStore } from './ports.js'

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

describe('listLinks', () => {
  const record = (resId: number, format: string | null): Omit<LinkedResource, 'canConvert'> => ({
    resId,
    subject: null,
    documentDate: null,
    status: null,
    destUser: null,
    destination: null,
    chrono: null,
    categoryId: 'incoming',
    filename: format ? `f.${format}` : null,
    format,
    confidentiality: false,
    hasDocument: format !== null,
    senders: [],
    recipients: [],
    visaCircuit: [],
  })
  const formats = new Map<number, string | null>([
    [3, 'docx'],
    [4, 'zip'],
    [5, null],
    [6, 'pdf'],
  ])
  const links: LinksStore = {
    linkedIds: async () => ['3', '4', 'not an id', '5', '6', '0'],
    describe: async (ids) => ids.map((id) => record(id, formats.get(id) ?? null)),
    link: async () => {},
    unlink: async () => {},
  }
  const actor = { id: 1 } as Actor

  it('lists the linked records the actor may see, each saying whether its file converts to PDF', async () => {
    const perimeter = {
      allows: async () => true,
      allowedAmong: async (_: Actor, ids: readonly number[]) => new Set(ids.filter((id) => id !== 6)),
    }
    const { linkedResources } = await listLinks({ links, perimeter }, actor, '1')
    expect(linkedResources.map((r) => [r.resId, r.canConvert])).toEqual([
      [3, true],
      [4, false],
      [5, false],
    ])
  })
})
