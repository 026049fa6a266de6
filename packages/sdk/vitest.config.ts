import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({
  databases: 'both',
  databaseFree: ['src/blob-bytes.test.ts'],
  // Records, versions and content read through the SDK: again on object storage (the s3 project).
  objectStore: ['src/client.test.ts'],
})
