import { mailroomVitestConfig } from '../../vitest.shared.ts'

// Serving the console's files reads no database: once, on PGlite, is enough.
export default mailroomVitestConfig({ databases: 'both', databaseFree: ['src/console/serve-console.test.ts'] })
