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

export { DEFAULT_THROTTLE_POLICY, type ThrottlePolicy } from '@mailroom/core'
export type {
  LdapAccountSearchSettings,
  LdapConnectionSettings,
  LdapDirectorySettings,
  LdapSearchSettings,
  LdapSyncSettings,
  OidcSettings,
} from '@mailroom/directory'
export { createLdapAccountSource, createLdapDirectory, syncUsersFromDirectory } from '@mailroom/directory'
export type {
  CommandLineTextExtractorOptions,
  ConversionServiceOptions,
  LibreOfficeConverterOptions,
  OfficeConverter,
} from '@mailroom/documents'
export { CommandLineTextExtractor, ConversionService, findSoffice, LibreOfficeConverter } from '@mailroom/documents'
export type { S3StoreOptions } from '@mailroom/object-store'
export { isS3Url, parseS3Url, S3DocumentStore } from '@mailroom/object-store'
export type {
  ContentSettings,
  CopyProblem,
  CopyProgress,
  CopyReport,
  Database,
  DatabaseTarget,
  DocumentStore,
  FullTextObserver,
  FullTextQueueStatus,
  FullTextServices,
  FullTextSettings,
  JobOutcome,
  JournalBreak,
  JournalBreakReason,
  JournalVerification,
  ListedDocument,
  MailroomDatabase,
  OrganisationAdmin,
  PgPoolLike,
  SafeVerification,
  StartupLockOptions,
  StorageCheckOptions,
  StorageCheckReport,
  StorageProblem,
  VerifyJournalOptions,
} from '@mailroom/storage'
export {
  checkDocumentStorage,
  copyDocumentStore,
  DEFAULT_CONTENT_SETTINGS,
  databaseFromKysely,
  databaseFromPool,
  FolderDocumentStore,
  formatOrganisationYaml,
  MAILROOM_PG_TYPES,
  MIGRATIONS,
  migrateToLatest,
  ORGANISATION_SCHEMA_FILE,
  openDatabase,
  PGLITE_EXTENSIONS,
  PgliteDialect,
  PgliteWatchdog,
  parseOrganisationText,
  preparingPool,
  targetFromString,
  verifyJournal,
  withStartupLock,
} from '@mailroom/storage'
export {
  DEMO_PASSWORDS,
  demoOrganisationPath,
  demoOrganisationText,
  hasUsers,
  loadDemoData,
} from './demo/demo-dataset.js'
export type { DocumentStoreChoice } from './document-store-choice.js'
export { documentStoreFor } from './document-store-choice.js'
export type { Mailroom, MailroomOptions } from './mailroom.js'
export { createMailroom } from './mailroom.js'
export { HmacTokenSigner, signingKeyId } from './security/hmac-token-signer.js'
export { RECOMMENDED_SCRYPT_COST, type ScryptCost, ScryptPasswordHasher } from './security/scrypt-password-hasher.js'
