import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({ databases: 'both', databaseFree: ['src/blob-bytes.test.ts'] })
