import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({
  databases: 'both',
  // Pure code and file work: nothing here depends on the database kind.
  databaseFree: [
    'src/records/insert-record-statement.test.ts',
    'src/records/reference-cache.test.ts',
    'src/journal/random-pool.test.ts',
    'src/content/file-reader-pool.test.ts',
    'src/content/stored-file.test.ts',
    'src/content/watermark-cache.test.ts',
    'src/search/original-files.test.ts',
    'src/docserver/document-writer.test.ts',
    'src/docserver/folder-syncs.test.ts',
    'src/fulltext/lease-keeper.test.ts',
    // The compilers' SQL checked on a PGlite of their own (tables made for the test), whatever the project's
    // database: run twice they did the same 30 s of work twice.
    'src/search/compile-clause.test.ts',
    'src/search/compile-subquery.test.ts',
    'src/baskets/compiled-baskets.test.ts',
    'src/criteria-search/search-resources.test.ts',
  ],
  // What PostgreSQL's server does with named prepared statements, a pool's statement timeout and two connections
  // writing at once, which PGlite (one connection) does not have.
  postgresOnly: [
    'src/criteria-search/generic-plan.test.ts',
    'src/database/migrations/migrate-to-latest.test.ts',
    'src/database/migrations/0019-fulltext-record-document.concurrent.test.ts',
  ],
  // Tests that store, read, check or convert documents: again on object storage (the s3 project). The
  // docserver/ and reader-pool tests test the folder store itself (fsync, temporary files, threads): folder-only.
  objectStore: [
    'src/content/content-read-ports.test.ts',
    'src/records/records-ports.test.ts',
    'src/journal/verify-journal.test.ts',
    'src/attachments/attachment-writer.test.ts',
  ],
})
