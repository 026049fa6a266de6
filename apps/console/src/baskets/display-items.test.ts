import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { translator } from '../i18n/i18n.js'
import { displayLines } from './display-items.js'

const t = translator('en')

describe("a basket row's display items", () => {
  it('labels 20.10’s items, joins lists, writes the dates as days and leaves out empty ones', () => {
    const lines = displayLines(
      [
        { value: 'getPriority', cssClasses: [], icon: 'fa-traffic-light', displayValue: null },
        { value: 'getCategory', cssClasses: [], icon: 'fa-exchange-alt', displayValue: 'incoming' },
        { value: 'getDoctype', cssClasses: [], icon: 'fa-suitcase', displayValue: 'Demande de documents' },
        { value: 'getSenders', cssClasses: [], icon: 'fa-book', displayValue: ['Jean Dupont', 'Ville'] },
        { value: 'getRecipients', cssClasses: [], icon: 'fa-user', displayValue: [] },
        {
          value: 'getCreationAndProcessLimitDates',
          cssClasses: [],
          icon: 'fa-calendar',
          displayValue: { creationDate: '2026-12-02 04:27:54.548', processLimitDate: '2026-12-20 00:00:00' },
        },
        { value: 'getCustomField', cssClasses: [], icon: '', displayValue: 7 },
      ],
      t,
      'en',
    )
    expect(lines.map(({ label, text }) => [label, text])).toEqual([
      ['Category', 'incoming'],
      ['Type', 'Demande de documents'],
      ['Senders', 'Jean Dupont, Ville'],
      ['Dates', 'created 02/12/2026 · due 20/12/2026'],
      ['CustomField', '7'],
    ])
  })

  it('gives text for any value the server sends, and never throws', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            value: fc.string(),
            cssClasses: fc.constant<string[]>([]),
            icon: fc.string(),
            displayValue: fc.jsonValue(),
          }),
        ),
        (items) => {
          for (const line of displayLines(items, t, 'fr')) {
            expect(typeof line.text).toBe('string')
            expect(line.text).not.toBe('')
          }
        },
      ),
    )
  })
})
