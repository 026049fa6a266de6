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
export { documentStoreFor } from './document-store-choice.js'
export type { DocumentStoreChoice } from './document-store-choice.js'
export { isS3Url, parseS3Url, S3DocumentStore } from '@mailroom/object-store'
export type { S3StoreOptions } from '@mailroom/object-store'
export type { Mailroom, MailroomOptions } from './mailroom.js'
export { DEMO_PASSWORDS, demoOrganisationPath, demoOrganisationText, hasUsers, loadDemoData } from './demo/demo-dataset.js'
export { RECOMMENDED_SCRYPT_COST, ScryptPasswordHasher, type ScryptCost } from './security/scrypt-password-hasher.js'
export { HmacTokenSigner, signingKeyId } from './security/hmac-token-signer.js'
export { DEFAULT_THROTTLE_POLICY, type ThrottlePolicy } from '@mailroom/core'
export {
  checkDocumentStorage,
  copyDocumentStore,
  DEFAULT_CONTENT_SETTINGS,
  DocserverRoot,
  databaseFromKysely,
  digestStream,
  FolderDocumentStore,
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
  CopyProblem,
  CopyProgress,
  CopyReport,
  Database,
  DatabaseTarget,
  DocumentStore,
  ListedDocument,
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
  VerifyJournalOptions,
} from '@mailroom/storage'
export { ConversionService, findSoffice, LibreOfficeConverter } from '@mailroom/documents'
export type { ConversionServiceOptions, LibreOfficeConverterOptions, OfficeConverter } from '@mailroom/documents'
