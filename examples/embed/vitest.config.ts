import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({ databases: 'both' })
