/**
 * @module @mailroom/mailroom
 * Mailroom without HTTP, for services that embed it: `createMailroom` wires `@mailroom/core`'s use cases
 * over `@mailroom/storage` (database, document storage, journal) and `@mailroom/documents` (sniffing,
 * conversion, watermark, chrono merge). The HTTP server (`@mailroom/http-koa`) serves what it builds.
 *
 * It also holds the demo organisation and its loader, and the default password hasher and token signer.
 * What an embedding service needs from storage and documents (opening and migrating the database, the
 * converters, the maintenance checks) is re-exported here, so it installs this one package.
 */
export { createMailroom } from './mailroom.js'
export type { Mailroom, MailroomOptions } from './mailroom.js'
export { DEMO_PASSWORDS, demoOrganisationPath, demoOrganisationText, hasUsers, loadDemoData } from './demo/demo-dataset.js'
export { RECOMMENDED_SCRYPT_COST, ScryptPasswordHasher, type ScryptCost } from './security/scrypt-password-hasher.js'
export { HmacTokenSigner, signingKeyId } from './security/hmac-token-signer.js'
export {
  checkDocumentStorage,
  DEFAULT_CONTENT_SETTINGS,
  DEFAULT_THROTTLE_SETTINGS,
  DocserverRoot,
  databaseFromKysely,
  databaseFromPool,
  formatOrganisationYaml,
  MAILROOM_PG_TYPES,
  MIGRATIONS,
  migrate,
  migrateToLatest,
  ORGANISATION_SCHEMA_FILE,
  openDatabase,
  PgliteDialect,
  parseOrganisationText,
  targetFromString,
  verifyJournal,
  withStartupLock,
} from '@mailroom/storage'
export type {
  ContentSettings,
  Database,
  DatabaseTarget,
  JournalBreak,
  JournalBreakReason,
  JournalVerification,
  MailroomDatabase,
  OrganisationAdmin,
  PgPoolLike,
  SafeVerification,
  StorageCheckOptions,
  StorageCheckReport,
  StartupLockOptions,
  StorageProblem,
  ThrottleSettings,
  VerifyJournalOptions,
} from '@mailroom/storage'
export { ConversionService, findSoffice, LibreOfficeConverter } from '@mailroom/documents'
export type { ConversionServiceOptions, LibreOfficeConverterOptions, OfficeConverter } from '@mailroom/documents'
