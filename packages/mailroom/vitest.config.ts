import { mailroomVitestConfig } from '../../vitest.shared.ts'

export default mailroomVitestConfig({
  databases: 'both',
  // Pure code: nothing here depends on the database kind.
  databaseFree: ['src/security/scrypt-password-hasher.test.ts', 'src/security/hmac-token-signer.test.ts'],
})
