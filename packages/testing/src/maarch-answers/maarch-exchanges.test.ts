import { describe, expect, it } from 'vitest'
import { type MaarchLetterRows, maarchExchange, readMaarchBasketIds, readMaarchExchanges } from './maarch-exchanges.js'

const basketFiles = [
  'baskets-letters.json',
  'baskets-home.json',
  'baskets-lists.json',
  'baskets-filters.json',
  'baskets-actions-list.json',
  'baskets-list-queries.json',
  'baskets-is-allowed.json',
  'baskets-locks.json',
  'baskets-actions.json',
  'baskets-refusals.json',
  'baskets-lent.json',
]

describe('the basket answers recorded from Maarch 20.10', () => {
  it('are exchanges with a request and an answer, named once per file', () => {
    for (const file of basketFiles) {
      const exchanges = readMaarchExchanges(file)
      expect(exchanges.length, file).toBeGreaterThan(0)
      for (const exchange of exchanges) {
        expect(exchange.request.path, `${file}: ${exchange.name}`).toMatch(/^\//)
        expect(exchange.response.status, `${file}: ${exchange.name}`).toBeGreaterThanOrEqual(200)
      }
      const names = exchanges.map((exchange) => exchange.name)
      expect(new Set(names).size, file).toBe(names.length)
    }
  })

  it('name the letters they filed by the ids the ids file gives a replay to map', () => {
    const ids = readMaarchBasketIds() as { letters: Record<string, number>; users: Record<string, number> }
    for (const [key, resId] of Object.entries(ids.letters)) {
      expect(maarchExchange('baskets-letters.json', `letter "${key}"`).response.body).toEqual({ resId })
    }
    expect(maarchExchange('baskets-home.json', 'profile of bbain').response.body).toMatchObject({ id: ids.users.bbain })
  })

  it("keep the letter's rows after an action: action 20 closed it and wrote 20.10's history line", () => {
    const ids = readMaarchBasketIds() as { letters: Record<string, number> }
    const closed = maarchExchange('baskets-actions.json', 'closeMailAction 20 with a note')
    expect(closed.response.status).toBe(204)
    const rows = (closed.database as Record<string, MaarchLetterRows>)[String(ids.letters.close)]
    expect(rows?.res_letterbox?.status).toBe('END')
    expect(rows?.history.map((line) => line.info)).toContain('Courriers à traiter : Cloturer')
  })
})
