import { mailroomVitestConfig } from '../../vitest.shared.ts'

// Document processing opens no database: one run, no PostgreSQL project.
export default mailroomVitestConfig()
