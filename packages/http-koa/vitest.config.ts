import { mailroomVitestConfig } from '../../vitest.shared.ts'

// Neither serving the console's files nor CORS headers read the database: once, on PGlite, is enough.
export default mailroomVitestConfig({ databases: 'both', databaseFree: ['src/console/serve-console.test.ts', 'src/middleware/cross-origin.test.ts'] })
