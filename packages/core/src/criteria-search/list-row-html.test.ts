import { describe, expect, it } from 'vitest'
import { withInertHtml } from './list-row-html.js'

const J = '\u2060'

const row = {
  resId: 7,
  chrono: 'MAARCH/2026A/<b>7</b>',
  barcode: '<svg onload=alert(1)>',
  subject: "<img src=x onerror=alert(1)> l'école &amp; la piscine",
  statusLabel: 'Nouveau <courrier>',
  folders: [{ id: 1, label: '<i>Dossier</i>' }],
  display: [
    {
      value: 'getSenders',
      cssClasses: [],
      icon: 'fa-book',
      displayValue: ['<b>Dupont</b> & Fils', 'Mairie d’Orléans'],
    },
    { value: 'getAssignee', cssClasses: [], icon: 'fa-sitemap', displayValue: 'Barbara BAIN (Pôle Jeunesse et Sport)' },
    {
      value: 'getVisaWorkflow',
      cssClasses: [],
      icon: 'fa-list',
      displayValue: [{ user: '<u>Jean</u>', mode: 'visa', date: '', current: true }],
    },
    { value: 'getParallelOpinionsNumber', cssClasses: [], icon: 'fa-comment', displayValue: 2 },
    {
      value: 'getCreationAndProcessLimitDates',
      cssClasses: [],
      icon: 'fa-calendar',
      displayValue: { creationDate: '2026-12-01 22:53:41.768918', processLimitDate: null },
    },
    { value: 'indexingCustomField_1', cssClasses: [], icon: '', displayLabel: '<b>Réf</b>', displayValue: '</td>' },
  ],
}

describe('withInertHtml', () => {
  it('makes inert what the web client renders as HTML: chrono, barcode, subject, every string of a display value', () => {
    const inert = withInertHtml(row)
    expect(inert.chrono).toBe(`MAARCH/2026A/<${J}b>7<${J}/b>`)
    expect(inert.barcode).toBe(`<${J}svg onload=alert(1)>`)
    expect(inert.subject).toBe(`<${J}img src=x onerror=alert(1)> l'école &${J}amp; la piscine`)
    expect(inert.display.map((item) => item.displayValue)).toEqual([
      [`<${J}b>Dupont<${J}/b> & Fils`, 'Mairie d’Orléans'],
      'Barbara BAIN (Pôle Jeunesse et Sport)',
      [{ user: `<${J}u>Jean<${J}/u>`, mode: 'visa', date: '', current: true }],
      2,
      { creationDate: '2026-12-01 22:53:41.768918', processLimitDate: null },
      `<${J}/td>`,
    ])
  })

  it('leaves what the client shows as text, and the rest of the row, as it is', () => {
    const inert = withInertHtml(row)
    expect(inert.statusLabel).toBe(row.statusLabel)
    expect(inert.folders).toEqual(row.folders)
    expect(inert.display[5]).toMatchObject({ displayLabel: '<b>Réf</b>', value: 'indexingCustomField_1', icon: '' })
    expect(withInertHtml({ ...row, chrono: null, barcode: null, subject: null })).toMatchObject({
      chrono: null,
      barcode: null,
      subject: null,
    })
  })
})
