// The summary lives in scripts/ so `npm test` (scripts/bootstrap.mjs) prints it without a build of its own.
import { describe, expect, it } from 'vitest'
import { testSummaryLine, type VitestJsonReport } from '../../../scripts/test-summary.mjs'

const root = '/repo'
const report = (file: string, tests: [string, string][], passed = 0, failed = 0): VitestJsonReport => ({
  numPassedTests: passed,
  numFailedTests: failed,
  testResults: [
    { name: `${root}/${file}`, assertionResults: tests.map(([fullName, status]) => ({ fullName, status })) },
  ],
})

describe("npm test's closing line", () => {
  it('counts passed, failed and skipped tests, and says nothing more when none was skipped', () => {
    expect(testSummaryLine([report('a/x.test.ts', [['works', 'passed']], 1, 0)], root)).toBe(
      'tests: 1 passed, 0 failed, 0 skipped',
    )
  })

  it('names every skipped test by file, a whole file skipped in one entry, todos marked, projects counted', () => {
    const publisher: [string, string][] = [
      ['sample > imports it', 'skipped'],
      ['sample > serves it', 'skipped'],
    ]
    const importer: [string, string][] = [
      ['imports', 'passed'],
      ['lists the notes', 'todo'],
      ['on a gateway', 'pending'],
    ]
    // Two projects of one run (PGlite, PostgreSQL) report each file twice.
    const line = testSummaryLine(
      [
        {
          numPassedTests: 2,
          numFailedTests: 1,
          testResults: [publisher, publisher, importer, importer].map((tests, i) => ({
            name: `${root}/pkg/src/${i < 2 ? 'publisher' : 'importer'}.test.ts`,
            assertionResults: tests.map(([fullName, status]) => ({ fullName, status })),
          })),
        },
        report('other/y.test.ts', [['in a browser', 'skipped']]),
      ],
      root,
    )
    expect(line).toBe(
      'tests: 2 passed, 1 failed, 9 skipped (other/y.test.ts: all 1 test; pkg/src/importer.test.ts: "lists the notes (todo)" ×2, "on a gateway" ×2; pkg/src/publisher.test.ts: all 2 tests ×2)',
    )
  })
})
