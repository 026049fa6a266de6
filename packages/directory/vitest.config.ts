import { mailroomVitestConfig } from '../../vitest.shared.ts'

// The directory client does not touch the database: it runs once, on PGlite's project.
export default mailroomVitestConfig()
