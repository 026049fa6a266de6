import { mailroomVitestConfig } from '../../vitest.shared.ts'

// Neither serving the console's files, CORS headers, the request log line nor the OpenAPI document read the
// database: once, on PGlite, is enough.
export default mailroomVitestConfig({
  databases: 'both',
  databaseFree: [
    'src/console/serve-console.test.ts',
    'src/web-client/serve-web-client.test.ts',
    'src/import-loops.test.ts',
    'src/middleware/cross-origin.test.ts',
    'src/middleware/request-context.test.ts',
    'src/openapi/committed-document.test.ts',
    'src/openapi/openapi-examples.test.ts',
    'src/openapi/openapi-document.test.ts',
  ],
  // A route reads and writes through storage's services, whose tests run on both databases: the routes' tests
  // run on PostgreSQL (twice as fast as PGlite here), and on the embedded default too for the endpoint fuzz
  // (every route, bad input), the core paths (records created and read, searched), and the comparisons with the
  // answers the real Maarch 20.10 gave, which issue 32 asks on both databases.
  alsoOnPglite: [
    'src/routes/session-shell-routes.test.ts',
    'src/web-client/routes-not-served.test.ts',
    'src/fuzz/endpoint-fuzz.test.ts',
    'src/fuzz/hostile-values.test.ts',
    'src/fuzz/hostile-requests.test.ts',
    'src/routes/records-routes.test.ts',
    'src/routes/search-routes.test.ts',
    'src/routes/criteria-search-routes.test.ts',
    'src/routes/reference-maarch-answers.test.ts',
    'src/routes/contacts-maarch-answers.test.ts',
    'src/routes/attachments-maarch-answers.test.ts',
    'src/routes/database-freeze.test.ts',
    'src/routes/attachments-manage-maarch-answers.test.ts',
    'src/routes/actions-routes.test.ts',
    'src/routes/baskets-routes.test.ts',
    'src/routes/baskets-journey.test.ts',
    'src/routes/processing-page-routes.test.ts',
    'src/routes/letter-page-journey.test.ts',
    'src/routes/letter-page-routes.test.ts',
    'src/routes/baskets-list-query.test.ts',
    'src/routes/web-client-html.test.ts',
    'src/routes/list-template-routes.test.ts',
  ],
  // Routes that store, read, convert, search or verify documents: again on object storage (the s3 project).
  // storage-faults.test.ts (a full and a read-only tmpfs) and health-routes.test.ts (a removed folder) stay
  // folder-only; apps/server/test/object-storage.test.ts covers those failures on a bucket.
  objectStore: [
    'src/routes/content-routes.test.ts',
    'src/routes/records-routes.test.ts',
    'src/routes/journal-end-to-end.test.ts',
    'src/routes/search-routes.test.ts',
  ],
})
