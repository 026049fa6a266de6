// The closing line of `npm test`, from the vitest JSON reports in .test-reports/ (the suite's run writes one): counts
// of passed, failed and skipped tests, and every skipped one named, so that a newcomer sees what did not run.
import { relative } from 'node:path'

const SKIPPED = new Set(['skipped', 'pending', 'todo', 'disabled'])

/**
 * One line: `tests: P passed, F failed, S skipped`, then the skipped tests grouped by file: a file whose
 * tests were all skipped is named once with their count; otherwise each test is named (a todo says so).
 * A test skipped in several projects of a run (PGlite, PostgreSQL) counts once per project: `×2`.
 */
export function testSummaryLine(reports, root) {
  let passed = 0
  let failed = 0
  let skipped = 0
  const files = new Map()
  for (const report of reports) {
    passed += report.numPassedTests ?? 0
    failed += report.numFailedTests ?? 0
    for (const file of report.testResults ?? []) {
      const name = relative(root, file.name).split('\\').join('/')
      const entry = files.get(name) ?? { total: new Map(), skipped: new Map() }
      files.set(name, entry)
      for (const test of file.assertionResults ?? []) {
        const key = test.status === 'todo' ? `${test.fullName} (todo)` : test.fullName
        entry.total.set(test.fullName, (entry.total.get(test.fullName) ?? 0) + 1)
        if (!SKIPPED.has(test.status)) continue
        skipped++
        entry.skipped.set(key, (entry.skipped.get(key) ?? 0) + 1)
      }
    }
  }
  const times = (n) => (n > 1 ? ` ×${n}` : '')
  const groups = [...files]
    .filter(([, entry]) => entry.skipped.size > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, entry]) => {
      const runs = [...entry.skipped.values()]
      if (entry.skipped.size === entry.total.size && runs.every((n) => n === runs[0]))
        return `${name}: all ${entry.total.size} test${entry.total.size > 1 ? 's' : ''}${times(runs[0])}`
      return `${name}: ${[...entry.skipped].map(([test, n]) => `"${test}"${times(n)}`).join(', ')}`
    })
  return `tests: ${passed} passed, ${failed} failed, ${skipped} skipped${groups.length > 0 ? ` (${groups.join('; ')})` : ''}`
}
