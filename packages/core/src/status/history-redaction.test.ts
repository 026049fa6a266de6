import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HIDDEN_LINKED_RECORD, linkedChronoOf, redactHistoryEntry } from './history-redaction.js'
import type { HistoryEntry } from './record-history.js'

const entry = (info: string | null): HistoryEntry => ({
  id: 7,
  eventDate: '2026-12-01T10:00:00.000Z',
  eventType: 'UP',
  eventId: 'resourceModification',
  userId: 2,
  login: 'cchaplin',
  info,
  module: 'resource',
})

describe('linkedChronoOf', () => {
  it('reads the chrono of the lines 20.10 writes when records are linked or unlinked, and nothing else', () => {
    expect(linkedChronoOf('Liaison ajoutée : MAARCH/2026A/3')).toBe('MAARCH/2026A/3')
    expect(linkedChronoOf('Liaison supprimée : MAARCH/2026A/22')).toBe('MAARCH/2026A/22')
    expect(linkedChronoOf('Liaison ajoutée : ')).toBeNull()
    expect(linkedChronoOf('Courrier créé')).toBeNull()
    expect(linkedChronoOf('Pièce jointe ajoutée : Liaison ajoutée : X')).toBeNull()
    expect(linkedChronoOf(null)).toBeNull()
  })
})

describe('redactHistoryEntry', () => {
  it("replaces the chrono of a linked record the reader may not see, keeping the line's wording", () => {
    expect(redactHistoryEntry(entry('Liaison ajoutée : MAARCH/2026A/3'), new Set())).toEqual(
      entry(`Liaison ajoutée : ${HIDDEN_LINKED_RECORD}`),
    )
    expect(redactHistoryEntry(entry('Liaison supprimée : MAARCH/2026A/3'), new Set(['MAARCH/2026A/4']))).toEqual(
      entry(`Liaison supprimée : ${HIDDEN_LINKED_RECORD}`),
    )
  })

  it('leaves a visible chrono and every other line as written', () => {
    const visible = new Set(['MAARCH/2026A/3'])
    for (const info of ['Liaison ajoutée : MAARCH/2026A/3', 'Liaison ajoutée : ', 'Courrier créé', null])
      expect(redactHistoryEntry(entry(info), visible)).toEqual(entry(info))
  })

  it('never shows a chrono outside the visible ones in a link line', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Liaison ajoutée', 'Liaison supprimée'),
        fc.string({ minLength: 1 }),
        (what, chrono) => {
          const shown = redactHistoryEntry(entry(`${what} : ${chrono}`), new Set()).info
          expect(shown).toBe(`${what} : ${HIDDEN_LINKED_RECORD}`)
        },
      ),
    )
  })
})
