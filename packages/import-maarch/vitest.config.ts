import { mailroomVitestConfig } from '../../vitest.shared.ts'
import { announcePublisherFixtures } from './test/publisher-fixtures.ts'

// The tests on the publisher's sample installation (src/publisher-sample/) need it beside the repository:
// skipped where it is not, saying so here once; with CI=true its absence fails the run.
announcePublisherFixtures()

// The source is always PostgreSQL (Maarch's); the target runs on both.
export default mailroomVitestConfig({
  databases: 'both',
  testTimeout: 120_000,
  databaseFree: [
    'src/files.test.ts',
    'src/map-organisation.test.ts',
    'src/report-file.test.ts',
    'src/source.test.ts',
    'test/publisher-fixtures.test.ts',
  ],
  // Imports store every original and converted PDF: again into a bucket (the s3 project).
  objectStore: [
    'src/import-maarch.test.ts',
    'src/import-maarch-carried-over.test.ts',
    'src/import-maarch-failure.test.ts',
    'src/import-maarch-repairs.test.ts',
  ],
})
