import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({
  databases: 'both',
  databaseFree: [
    'src/demo-policy.test.ts',
    'src/settings.test.ts',
    'src/embedded/database-lock.test.ts',
    'src/embedded/operator-channel.test.ts',
    'src/content-settings.test.ts',
    'src/commands/docserver-copy.test.ts',
    'src/metrics/metrics-settings.test.ts',
    'test/browser/cors-in-a-browser.test.ts',
    'src/logging.test.ts',
    'test/log-secrets.test.ts',
    'test/slow-clients.test.ts',
  ],
})
