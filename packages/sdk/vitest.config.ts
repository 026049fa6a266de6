import { mailroomVitestConfig } from '../../vitest.shared.ts'

// One run, on PGlite: the SDK is an HTTP client, and what the server does on each database and each document
// store is tested where it is done (storage and http-koa, on PGlite, PostgreSQL and the s3 project).
export default mailroomVitestConfig()
