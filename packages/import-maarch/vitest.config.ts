import { mailroomVitestConfig } from '../../vitest.shared.ts'

// The source is always PostgreSQL (Maarch's); the target runs on both.
export default mailroomVitestConfig({
  databases: 'both',
  testTimeout: 120_000,
  databaseFree: ['test/map-and-files.test.ts', 'test/source.test.ts', 'test/report-file.test.ts'],
  // No s3 project: an import into a bucket (every file, a failure in the middle, a store that hangs) is
  // apps/server/test/import-maarch-s3.test.ts; what these tests check is the same on every document store.
})
