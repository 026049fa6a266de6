// The order lives in scripts/ beside the table it reads; vitest.suite.config.ts's sequencer applies it.
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  durationsFromReport,
  longestFirst,
  readTestDurations,
  UNKNOWN_FILE_SECONDS,
} from '../../../scripts/test-durations.mjs'

const repository = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')

describe("the suite's order", () => {
  it('reads seconds per repository-relative file from a report, keeping the longer of two projects’ runs', () => {
    const run = (file: string, seconds: number) => ({
      name: `/repo/${file}`,
      startTime: 1000,
      endTime: 1000 + seconds * 1000,
    })
    expect(
      durationsFromReport(
        { testResults: [run('b/y.test.ts', 2.04), run('a/x.test.ts', 12.5), run('b/y.test.ts', 30.26)] },
        '/repo',
      ),
    ).toEqual({ 'a/x.test.ts': 12.5, 'b/y.test.ts': 30.3 })
  })

  it('starts the longest files first, an unknown file as a short one, equal ones in their given order', () => {
    const files = ['short', 'unknown', 'long', 'also-short', 'middle'].map((path) => ({ path }))
    const durations = { short: 1, 'also-short': 1, long: 300, middle: UNKNOWN_FILE_SECONDS + 1 }
    expect(longestFirst(files, durations).map((file) => file.path)).toEqual([
      'long',
      'middle',
      'unknown',
      'short',
      'also-short',
    ])
  })

  it('keeps every file exactly once, in an order that never puts a shorter file before a longer one', () => {
    const table = fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.float({ min: 0, max: 1000, noNaN: true }))
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 })), table, (paths, durations) => {
        const ordered = longestFirst(
          paths.map((path) => ({ path })),
          durations,
        ).map((file) => file.path)
        expect([...ordered].sort()).toEqual([...paths].sort())
        const seconds = ordered.map((path) => durations[path] ?? UNKNOWN_FILE_SECONDS)
        expect(seconds.every((value, index) => index === 0 || seconds[index - 1]! >= value)).toBe(true)
      }),
    )
  })

  it('is committed, and names files of this repository by paths relative to its root', () => {
    const durations = readTestDurations()
    const paths = Object.keys(durations)
    expect(paths.length).toBeGreaterThan(100)
    expect(paths.filter((path) => path.startsWith('/') || path.startsWith('..'))).toEqual([])
    // A table naming mostly vanished files no longer orders anything: refresh it (scripts/test-durations.mjs).
    const present = paths.filter((path) => existsSync(join(repository, path)))
    expect(present.length / paths.length).toBeGreaterThan(0.8)
  })

  it('reads as empty when the table is missing, so the run keeps its files', () => {
    expect(readTestDurations(join(repository, 'no-such-durations.json'))).toEqual({})
  })
})
