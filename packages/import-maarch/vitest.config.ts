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
  // No s3 project: an import into a bucket (every file, a failure in the middle, a store that hangs) is
  // apps/server/test/import-maarch-s3.test.ts; what these tests check is the same on every document store.
})
