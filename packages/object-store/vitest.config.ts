import { mailroomVitestConfig } from '../../vitest.shared.ts'

// The store contract does not depend on the database kind: it runs once, on PGlite.
export default mailroomVitestConfig()
