import { describe, expect, it } from 'vitest'
import { browserLanguage, translator } from './i18n.js'
import { EN, FR } from './messages.js'

describe('console languages', () => {
  it('have the same keys and the same placeholders in French and English', () => {
    expect(Object.keys(FR).sort()).toEqual(Object.keys(EN).sort())
    for (const key of Object.keys(EN) as (keyof typeof EN)[]) {
      const names = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
      expect(names(FR[key]), key).toEqual(names(EN[key]))
    }
  })

  it("follow the browser's first supported language, English otherwise", () => {
    expect(browserLanguage(['fr-FR', 'en'])).toBe('fr')
    expect(browserLanguage(['de-DE', 'en-GB'])).toBe('en')
    expect(browserLanguage(['de'])).toBe('en')
    expect(browserLanguage([])).toBe('en')
  })

  it('fill placeholders', () => {
    expect(translator('fr')('recordTitle', { resId: 12 })).toBe('Courrier 12')
    expect(translator('en')('resultCount', { count: 3 })).toBe('3 record(s)')
  })
})
