import { mailroomVitestConfig } from '../../vitest.shared.ts'

// The source is always PostgreSQL (Maarch's); the target runs on both.
export default mailroomVitestConfig({
  databases: 'both',
  testTimeout: 120_000,
  databaseFree: ['test/map-and-files.test.ts', 'test/source.test.ts', 'test/report-file.test.ts'],
  // Imports store every original and converted PDF: again into a bucket (the s3 project).
  objectStore: [
    'test/import-maarch.test.ts',
    'test/import-carried-over.test.ts',
    'test/import-failure.test.ts',
    'test/import-repairs.test.ts',
  ],
})
