// How long each test file of the suite lasts, so the suite's run starts the longest first (vitest.suite.config.ts's
// sequencer). Vitest's own order runs the projects one after the other, each file by the duration its cache
// remembers; a clean clone (CI) has no cache, so the minutes-long files (a browser journey, LibreOffice, a
// server's restarts) fell wherever their project came, and one of them running alone at the end kept a core idle.
// The table is committed (test-durations.json) and refreshed from a run's report:
//   node scripts/test-durations.mjs .test-reports/suite.json
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

/** The committed table's place: repository-relative test file path → seconds. */
export const TEST_DURATIONS_FILE = join(root, 'test-durations.json')

/** A file the table does not know (a new test) counts this long: most files last a few seconds. */
export const UNKNOWN_FILE_SECONDS = 5

/**
 * Seconds per file, from a vitest JSON report (paths relative to `repositoryRoot`). A file run by two projects
 * (PGlite and PostgreSQL) keeps the longer run, since the order needs each run's length, not their sum.
 */
export function durationsFromReport(report, repositoryRoot) {
  const table = {}
  for (const file of report.testResults ?? []) {
    const path = relative(repositoryRoot, file.name)
    const seconds = Math.round((file.endTime - file.startTime) / 100) / 10
    if (!(path in table) || table[path] < seconds) table[path] = seconds
  }
  return Object.fromEntries(Object.entries(table).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The table as committed, or an empty one when it is missing or unreadable (the order then is vitest's). */
export function readTestDurations(file = TEST_DURATIONS_FILE) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return {}
  }
}

/**
 * `files` (anything with a repository-relative `path`) longest first, by `durations`; equal ones keep their order.
 * Longest first is the classic rule for few workers and many jobs of unequal length: the last to start are short,
 * so the workers finish together.
 */
export function longestFirst(files, durations) {
  const seconds = (file) => durations[file.path] ?? UNKNOWN_FILE_SECONDS
  return files
    .map((file, index) => ({ file, index }))
    .sort((a, b) => seconds(b.file) - seconds(a.file) || a.index - b.index)
    .map(({ file }) => file)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const reportFile = resolve(process.argv[2] ?? join(root, '.test-reports', 'suite.json'))
  const report = JSON.parse(readFileSync(reportFile, 'utf8'))
  // The report's own checkout (a clone's report can refresh this one's table): the folder above .test-reports.
  const table = durationsFromReport(report, dirname(dirname(reportFile)))
  writeFileSync(TEST_DURATIONS_FILE, `${JSON.stringify(table, null, 2)}\n`)
  console.log(`${Object.keys(table).length} files written to ${relative(process.cwd(), TEST_DURATIONS_FILE)}`)
}
