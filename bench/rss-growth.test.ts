import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { median, quantile } from './bench-kit.js'
import { MIN_SAMPLES_FOR_VERDICT, rssGrowth } from './rss-growth.js'

const flat = (n: number, mb: number) => Array.from({ length: n }, () => mb)

describe('rssGrowth', () => {
  it('finds growth when the last quarter sits well above the second', () => {
    const samples = [...flat(10, 250), ...flat(10, 330)]
    expect(rssGrowth(samples)).toEqual({ judged: true, grew: true, warmMb: 250, lastMb: 330, highestMb: 330 })
  })

  it('ignores a single high sample before a garbage collection', () => {
    const samples = flat(20, 260)
    samples[18] = 415
    expect(rssGrowth(samples)).toMatchObject({ judged: true, grew: false, warmMb: 260, lastMb: 260, highestMb: 415 })
  })

  it('needs both 20 % and 48 MB: 30 MB on a small heap is not growth, nor 60 MB on a large one', () => {
    expect(rssGrowth([...flat(10, 100), ...flat(10, 130)]).grew).toBe(false)
    expect(rssGrowth([...flat(10, 400), ...flat(10, 460)]).grew).toBe(false)
  })

  it('gives no verdict on a run too short to have quarters of several samples', () => {
    const short = [...flat(MIN_SAMPLES_FOR_VERDICT / 2, 200), ...flat(MIN_SAMPLES_FOR_VERDICT / 2 - 1, 400)]
    expect(rssGrowth(short)).toMatchObject({ judged: false, grew: false })
  })

  it('never finds growth in a series that does not rise', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 50, max: 2000, noNaN: true }), { minLength: 1, maxLength: 80 }),
        (samples) => {
          const falling = [...samples].sort((a, b) => b - a)
          expect(rssGrowth(falling).grew).toBe(false)
        },
      ),
    )
  })
})

describe('quantile and median', () => {
  it('take the nearest rank of sorted values, NaN when there are none', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(3)
    expect(quantile([1, 2, 3, 4], 0.99)).toBe(4)
    expect(quantile([], 0.5)).toBeNaN()
    expect(median([9, 1, 5])).toBe(5)
  })
})
