import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({ databases: 'both', testTimeout: 120_000 })
