/** What `testSummaryLine` reads of a vitest JSON report. */
export interface VitestJsonReport {
  numPassedTests?: number
  numFailedTests?: number
  testResults?: { name: string; assertionResults?: { fullName: string; status: string }[] }[]
}
/** The closing line of `npm test`: counts, and every skipped test named, grouped by file (relative to `root`). */
export function testSummaryLine(reports: VitestJsonReport[], root: string): string
