/**
 * The soak's verdict on memory: did the server's RSS grow after warm-up? Compares the median of the second
 * quarter of the samples with the median of the last quarter, because a single sample taken just before a
 * major garbage collection can sit 100 MB above its neighbours without anything having grown.
 */
import { median } from './bench-kit.js'

/** Fewer samples than this (a run under four minutes at one every 30 s) make quarters of one or two samples. */
export const MIN_SAMPLES_FOR_VERDICT = 8
/** Growth counts only when it is both relative and absolute: small heaps fluctuate by more than 20 %. */
const GROWTH_RATIO = 1.2
const GROWTH_MB = 48

export interface RssGrowth {
  /** False when the run was too short to judge; `grew` is then false too. */
  readonly judged: boolean
  readonly grew: boolean
  /** Median of the second quarter of the samples (after warm-up), MB. */
  readonly warmMb: number
  /** Median of the last quarter of the samples, MB. */
  readonly lastMb: number
  readonly highestMb: number
}

export function rssGrowth(samplesMb: readonly number[]): RssGrowth {
  const quarter = Math.max(1, Math.floor(samplesMb.length / 4))
  const warmMb = median(samplesMb.slice(quarter, 2 * quarter))
  const lastMb = median(samplesMb.slice(-quarter))
  const judged = samplesMb.length >= MIN_SAMPLES_FOR_VERDICT
  const grew = judged && lastMb > warmMb * GROWTH_RATIO && lastMb - warmMb > GROWTH_MB
  return { judged, grew, warmMb, lastMb, highestMb: Math.max(...samplesMb) }
}

/** Runs `work`, sampling the process's RSS (MB) every 250 ms, and times it. */
export async function sampledRss<T>(
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; samplesMb: number[] }> {
  const samplesMb: number[] = []
  const sample = () => samplesMb.push(process.memoryUsage().rss / 1024 / 1024)
  sample()
  const sampler = setInterval(sample, 250)
  const t0 = performance.now()
  try {
    const result = await work()
    return { result, seconds: (performance.now() - t0) / 1000, samplesMb }
  } finally {
    clearInterval(sampler)
    sample()
  }
}
