import { mailroomVitestConfig } from '../../vitest.shared.ts'

// On PGlite: the SDK is an HTTP client, and what the server does on each database and each document store is
// tested where it is done (storage and http-koa, on PGlite, PostgreSQL and the s3 project). The organisation's
// end to end — from an empty database to users, groups and records, over HTTP only — runs on PostgreSQL too.
export default mailroomVitestConfig({ databases: 'both', alsoOnPostgres: ['src/organisation.test.ts'] })
