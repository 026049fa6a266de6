/** What `durationsFromReport` reads of a vitest JSON report. */
export interface VitestTimedReport {
  testResults?: { name: string; startTime: number; endTime: number }[]
}
export type TestDurations = Record<string, number>
export const TEST_DURATIONS_FILE: string
export const UNKNOWN_FILE_SECONDS: number
/** Seconds per repository-relative file; a file run by two projects keeps the longer run. */
export function durationsFromReport(report: VitestTimedReport, repositoryRoot: string): TestDurations
/** The committed table, or an empty one when it is missing or unreadable. */
export function readTestDurations(file?: string): TestDurations
/** `files` longest first by `durations` (unknown ones count UNKNOWN_FILE_SECONDS); equal ones keep their order. */
export function longestFirst<T extends { readonly path: string }>(files: readonly T[], durations: TestDurations): T[]
