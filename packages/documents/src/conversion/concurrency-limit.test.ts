import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConcurrencyLimit } from './concurrency-limit.js'

describe('ConcurrencyLimit', () => {
  it('never runs more than its limit at once, runs every task in arrival order, and frees the slot of a failed task', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.tuple(fc.nat(3), fc.boolean()), { maxLength: 30 }),
        async (limit, tasks) => {
          const gate = new ConcurrencyLimit(limit)
          let running = 0
          let peak = 0
          const started: number[] = []
          const outcomes = await Promise.allSettled(
            tasks.map(([ticks, fails], index) =>
              gate.run(async () => {
                started.push(index)
                peak = Math.max(peak, ++running)
                for (let i = 0; i < ticks; i++) await Promise.resolve()
                running--
                if (fails) throw new Error(`task ${index}`)
                return index
              }),
            ),
          )
          expect(peak).toBeLessThanOrEqual(limit)
          expect(started).toEqual(tasks.map((_, i) => i))
          expect(outcomes.map((o) => o.status)).toEqual(tasks.map(([, fails]) => (fails ? 'rejected' : 'fulfilled')))
        },
      ),
    )
  })
})
