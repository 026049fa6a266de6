import type { PerimeterContext } from '@mailroom/core/internal'
import { describe, expect, it } from 'vitest'
import { CompiledBaskets, MAX_COMPILED_BASKETS } from './compiled-baskets.js'

const TREE = [{ id: 1, entityId: 'PJS', parentEntityId: null, entityType: 'Service', enabled: true }]
const owner = (entities: string[], allEntities = TREE): PerimeterContext => ({
  userId: 3,
  login: 'bbain',
  email: null,
  entities: entities.map((entityId, i) => ({ id: i + 1, entityId })),
  primaryEntity: null,
  allEntities,
})
const basket = (clause: string, basketId = 'MyBasket') => ({ basketId, basketName: 'Mes courriers', clause })

/** A cache whose compilations are counted, each giving a new value. */
function counted() {
  const cache = new CompiledBaskets<number>()
  let compilations = 0
  return { of: (b: ReturnType<typeof basket>, o: PerimeterContext) => cache.of(b, o, () => ++compilations) }
}

describe('CompiledBaskets', () => {
  it('compiles a clause once for the same owner and tree, again when anything it read differs', () => {
    const cache = counted()
    expect(cache.of(basket("status = 'NEW'"), owner(['PJS']))).toBe(1)
    expect(cache.of(basket("status = 'NEW'"), owner(['PJS']))).toBe(1)
    // The clause's text, the owner's macro values, the basket named in a refusal, the entity tree.
    expect(cache.of(basket("status = 'COU'"), owner(['PJS']))).toBe(2)
    expect(cache.of(basket("status = 'NEW'"), owner(['PJS', 'DGS']))).toBe(3)
    expect(cache.of(basket("status = 'NEW'", 'OtherBasket'), owner(['PJS']))).toBe(4)
    expect(cache.of(basket("status = 'NEW'"), owner(['PJS'], [...TREE]))).toBe(5)
    expect(cache.of(basket("status = 'NEW'"), owner(['PJS']))).toBe(1)
  })

  it('throws a refusal again without compiling again', () => {
    const cache = new CompiledBaskets<number>()
    let attempts = 0
    const refuse = () => {
      attempts++
      throw new Error('refused')
    }
    expect(() => cache.of(basket('x'), owner([]), refuse)).toThrow('refused')
    expect(() => cache.of(basket('x'), owner([]), refuse)).toThrow('refused')
    expect(attempts).toBe(1)
  })

  it(`keeps at most ${MAX_COMPILED_BASKETS} clauses per tree, the oldest going first`, () => {
    const cache = counted()
    for (let i = 0; i <= MAX_COMPILED_BASKETS; i++) cache.of(basket(`res_id = ${i}`), owner([]))
    expect(cache.of(basket(`res_id = ${MAX_COMPILED_BASKETS}`), owner([]))).toBe(MAX_COMPILED_BASKETS + 1)
    expect(cache.of(basket('res_id = 0'), owner([]))).toBe(MAX_COMPILED_BASKETS + 2)
  })
})
