import { describe, expect, it } from 'vitest'
import { WatermarkCache } from './watermark-cache.js'

describe('WatermarkCache', () => {
  it('hits on the same fingerprint and text only', () => {
    const cache = new WatermarkCache(1000)
    const pdf = new Uint8Array(10)
    cache.set('abc', 'le 05-03-2024 08:09', pdf)
    expect(cache.get('abc', 'le 05-03-2024 08:09')).toBe(pdf)
    expect(cache.get('abc', 'le 05-03-2024 08:10')).toBeUndefined()
    expect(cache.get('abd', 'le 05-03-2024 08:09')).toBeUndefined()
  })

  it('evicts the least recently used entries beyond the budget and skips outputs too large', () => {
    const cache = new WatermarkCache(1000)
    cache.set('a', 't', new Uint8Array(200))
    cache.set('b', 't', new Uint8Array(200))
    cache.get('a', 't')
    for (const k of ['c', 'd', 'e']) cache.set(k, 't', new Uint8Array(200))
    cache.set('f', 't', new Uint8Array(200))
    expect(cache.size).toBeLessThanOrEqual(1000)
    expect(cache.get('b', 't')).toBeUndefined()
    expect(cache.get('a', 't')).toBeDefined()
    cache.set('big', 't', new Uint8Array(300))
    expect(cache.get('big', 't')).toBeUndefined()
  })

  it('lets go of entries unused for a minute, so a steady stream of reads does not grow it', () => {
    let now = 0
    const cache = new WatermarkCache(1_000_000, { now: () => now })
    const kept = new Uint8Array(100)
    cache.set('kept', 't', kept)
    for (let second = 0; second < 600; second++) {
      now = second * 1000
      cache.set(`read-${second}`, `minute ${Math.floor(second / 60)}`, new Uint8Array(100))
      if (second % 30 === 0) expect(cache.get('kept', 't')).toBe(kept)
      // At most a minute of reads (plus the one kept alive by use) is held, whatever the run's length.
      expect(cache.size).toBeLessThanOrEqual(61 * 100)
    }
    now += 60_000
    expect(cache.get('kept', 't')).toBeUndefined()
    expect(cache.size).toBe(0)
  })
})
