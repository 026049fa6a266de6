import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { earlierReferences, translateEarlierBody } from './earlier-variant.js'
import type { EarlierReferenceFacts } from './ports.js'

const BODY = { status: 'NEW', format: 'pdf', encodedFile: 'JVBERi0=', type_id: 101, category_id: 'incoming' }
const facts = (priorityIdByOrder: string | null): EarlierReferenceFacts => ({
  modelId: 1,
  entityIdsByCode: new Map(),
  priorityIdByOrder,
})

describe('earlier form: numeric priority', () => {
  it('asks for the priority of that order for a number or a numeric string, and for none otherwise', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), (order) => {
        expect(earlierReferences({ ...BODY, priority: order }).priorityOrder).toBe(order)
        expect(earlierReferences({ ...BODY, priority: String(order) }).priorityOrder).toBe(order)
        expect(earlierReferences({ ...BODY, priority: ` ${order} ` }).priorityOrder).toBe(order)
      }),
    )
    for (const priority of [undefined, null, '', 'poiuytre1357nbvc', '2a', 2.5, true, [2]]) {
      expect(earlierReferences({ ...BODY, priority }).priorityOrder, String(priority)).toBeNull()
    }
  })

  it('names the priority of that order, passes an unmatched number on as an id, keeps an id as sent', () => {
    expect(translateEarlierBody({ ...BODY, priority: 2 }, facts('urgent')).priority).toBe('urgent')
    expect(translateEarlierBody({ ...BODY, priority: '2' }, facts('urgent')).priority).toBe('urgent')
    // No priority has that order: the current form's check decides (`Body priority does not exist`).
    expect(translateEarlierBody({ ...BODY, priority: 9 }, facts(null)).priority).toBe('9')
    expect(translateEarlierBody({ ...BODY, priority: 'poiuytre1357nbvc' }, facts(null)).priority).toBe(
      'poiuytre1357nbvc',
    )
    expect(translateEarlierBody({ ...BODY, priority: '' }, facts(null))).not.toHaveProperty('priority')
    expect(translateEarlierBody(BODY, facts(null))).not.toHaveProperty('priority')
  })
})
