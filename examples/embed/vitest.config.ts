import { mailroomVitestConfig } from '../../vitest.shared.ts'

// One run, on PGlite (the example's own default): @mailroom/mailroom's tests cover both databases.
export default mailroomVitestConfig()
