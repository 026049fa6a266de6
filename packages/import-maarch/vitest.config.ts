import { mailroomVitestConfig } from '../../vitest.shared.ts'
import { announcePublisherFixtures } from './test/publisher-fixtures.ts'

// The tests on the publisher's sample installation (src/publisher-sample/) need it beside the repository:
// skipped where it is not, saying so here once; with CI=true its absence fails the run.
announcePublisherFixtures()

// The source is always PostgreSQL (Maarch's). The target: the importer's statements are storage's, the same SQL on
// both databases; what the embedded one does differently is its single connection (batches written at once queue on
// it) and its own rollback, seen by the import end to end, a batch failing midway and the publisher's own sample
// installation (where it is beside the repository), on both. The other files
// (carried-over rows, repairs, attachments, authentication, the delta import, --verify) run on PostgreSQL: on PGlite
// they took twice its time for the same statements.
export default mailroomVitestConfig({
  databases: 'both',
  testTimeout: 120_000,
  databaseFree: [
    'src/files.test.ts',
    'src/map-baskets.test.ts',
    'src/map-organisation.test.ts',
    'src/module-layout.test.ts',
    'src/report-file.test.ts',
    'src/source.test.ts',
    'test/publisher-fixtures.test.ts',
  ],
  alsoOnPglite: [
    'src/import-maarch.test.ts',
    'src/import-maarch-failure.test.ts',
    'src/publisher-sample/import-maarch.test.ts',
    'src/publisher-sample/letter-page-answers.test.ts',
  ],
  // No s3 project: an import into a bucket (every file, a failure in the middle, a store that hangs) is
  // apps/server/test/import-maarch-s3.test.ts; what these tests check is the same on every document store.
})
