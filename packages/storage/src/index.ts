/**
 * @module @mailroom/storage
 * PostgreSQL (pg) and embedded PGlite persistence, the document storage, conversion adapters and the
 * `createMailroom` entry point that wires core's use cases without any HTTP layer.
 */
export { createMailroom } from './mailroom.js'
export type { Mailroom, MailroomOptions } from './mailroom.js'
export { databaseFromKysely, databaseFromPool, MAILROOM_PG_TYPES, openDatabase, targetFromString } from './database/open-database.js'
export type { DatabaseTarget, MailroomDatabase, PgPoolLike } from './database/open-database.js'
export { PgliteDialect } from './database/pglite-dialect.js'
export { MIGRATIONS, migrateToLatest, migrateToLatest as migrate } from './database/migrations/index.js'
export type { Database } from './database/schema.js'
export { DEMO_PASSWORDS, demoOrganisationPath, demoOrganisationText, hasUsers, loadDemoData } from './demo/demo-dataset.js'
export { createOrganisationAdmin } from './organisation/organisation-admin.js'
export type { OrganisationAdmin, OrganisationAdminDependencies } from './organisation/organisation-admin.js'
export { readOrganisation, readOrganisationState, readUsage } from './organisation/read-organisation.js'
export type { ReadOrganisationOptions } from './organisation/read-organisation.js'
export { formatOrganisationYaml, ORGANISATION_SCHEMA_FILE, parseOrganisationText } from './organisation/organisation-text.js'
export { RECOMMENDED_SCRYPT_COST, ScryptPasswordHasher, type ScryptCost } from './security/scrypt-password-hasher.js'
export { HmacTokenSigner, signingKeyId } from './security/hmac-token-signer.js'
export { DEFAULT_THROTTLE_SETTINGS, KyselyAuthThrottle } from './security/kysely-auth-throttle.js'
export type { ThrottleSettings } from './security/kysely-auth-throttle.js'
export { KyselyUserRepository } from './users/kysely-user-repository.js'
export { KyselyEntityRepository } from './entities/kysely-entity-repository.js'
export { DocserverRoot } from './docserver/docserver-root.js'
export * from './content/index.js'
export * from './search/index.js'
export { checkDocumentStorage } from './docserver/check-document-storage.js'
export type { StorageCheckOptions, StorageCheckReport, StorageProblem } from './docserver/check-document-storage.js'
export { DocumentWriter, FILES_PER_FOLDER } from './docserver/document-writer.js'
export type { StoredDocument } from './docserver/document-writer.js'
export { CREATION_HISTORY_INFO, KyselyRecordsRepository } from './records/kysely-records-repository.js'
export type { RecordCreateFaults } from './records/kysely-records-repository.js'
export type { RecordsServicesOptions } from './records/create-records-services.js'
export { isRefusedQuery, runSearch } from './search/run-search.js'
export { jsonIndexHints } from './search/json-index-hints.js'
export { BASE64_CHUNK_BYTES, base64Chunks, originalFilePath, originalFilesOf } from './search/original-files.js'
export { PerimeterGuard } from './perimeter/perimeter-guard.js'
export { JournalWriter, journalActor } from './journal/journal-writer.js'
export type {
  JournalConsultationRequest,
  JournalDepositRequest,
  JournalIntegrityCheckRequest,
  JournalReadRequest,
  JournalWriterOptions,
} from './journal/journal-writer.js'
export { verifyJournal } from './journal/verify-journal.js'
export type { JournalBreak, JournalBreakReason, JournalVerification, SafeVerification, VerifyJournalOptions } from './journal/verify-journal.js'
export { SEAL_BATCH_SIZE, sealJournal } from './journal/journal-sealer.js'
export type { SealJournalOptions } from './journal/journal-sealer.js'
export { UNSEALED_AFTER_MS } from './journal/verify-journal.js'
