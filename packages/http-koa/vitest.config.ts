import { mailroomVitestConfig } from '../../vitest.shared.ts'

// CORS headers do not depend on the database kind: that test runs once, on PGlite.
export default mailroomVitestConfig({ databases: 'both', databaseFree: ['src/middleware/cross-origin.test.ts'] })
