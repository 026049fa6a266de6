import { mailroomVitestConfig } from '../vitest.shared.ts'

// The benchmark scripts sit at the package's top level; only their pure helpers have tests.
export default mailroomVitestConfig({ include: ['*.test.ts'] })
