/**
 * @module @mailroom/storage
 * The database and the document storage of Mailroom: the kysely schema and its migrations, PostgreSQL (pg)
 * and embedded PGlite, the repositories and the storage-side wiring of each capability over them, search
 * execution, the digital-safe journal (writer, sealer, verifier), the docserver writer and its checks.
 *
 * Storage does no document processing: sniffing, conversion, watermarking and the chrono merge come in
 * through core's ports in the `StorageContext` (`@mailroom/documents` implements them). Services embed
 * Mailroom through `@mailroom/mailroom`, whose `createMailroom` builds that context; the capability wirings
 * and repositories exported here are what it composes.
 */
export { databaseFromKysely, databaseFromPool, MAILROOM_PG_TYPES, openDatabase, targetFromString } from './database/open-database.js'
export type { DatabaseTarget, MailroomDatabase, PgPoolLike } from './database/open-database.js'
export { PgliteDialect } from './database/pglite-dialect.js'
export { MIGRATIONS, migrateToLatest, migrateToLatest as migrate } from './database/migrations/index.js'
export { withStartupLock } from './database/startup-lock.js'
export type { StartupLockOptions } from './database/startup-lock.js'
export type { Database } from './database/schema.js'
export type { StorageContext } from './storage-context.js'
export { SILENT_LOGGER } from './logger.js'
export type { Logger } from './logger.js'
export { createOrganisationAdmin } from './organisation/organisation-admin.js'
export type { OrganisationAdmin, OrganisationAdminDependencies } from './organisation/organisation-admin.js'
export { readOrganisation, readOrganisationState, readUsage } from './organisation/read-organisation.js'
export type { ReadOrganisationOptions } from './organisation/read-organisation.js'
export { formatOrganisationYaml, ORGANISATION_SCHEMA_FILE, parseOrganisationText } from './organisation/organisation-text.js'
export { KyselyAuthThrottle } from './security/kysely-auth-throttle.js'
export { KyselyUserRepository } from './users/kysely-user-repository.js'
export { KyselyEntityRepository } from './entities/kysely-entity-repository.js'
export { PerimeterGuard } from './perimeter/perimeter-guard.js'
export { createRecordsServices } from './records/create-records-services.js'
export type { RecordsServicesOptions } from './records/create-records-services.js'
export { createSearchServices } from './search/create-search-services.js'
export type { SearchSettings } from './search/create-search-services.js'
export { createContentServices } from './content/create-content-services.js'
export { DEFAULT_CONTENT_SETTINGS } from './content/content-settings.js'
export type { ContentSettings } from './content/content-settings.js'
export { createStatusServices } from './status/create-status-services.js'
export { createJournalServices } from './journal/create-journal-services.js'
export type { JournalServicesOptions } from './journal/create-journal-services.js'
export { DocserverRoot } from './docserver/docserver-root.js'
export { DocumentWriter } from './docserver/document-writer.js'
export { FolderDocumentStore } from './docserver/folder-document-store.js'
export type { ByteRange, DocumentStore, ListedDocument, StoredDocument } from './docserver/document-store.js'
export { digestStream } from './content/stored-file.js'
export type { FileDigest } from './content/stored-file.js'
export { checkDocumentStorage } from './docserver/check-document-storage.js'
export { copyDocumentStore } from './docserver/copy-document-store.js'
export type { CopyProblem, CopyProgress, CopyReport } from './docserver/copy-document-store.js'
export type { StorageCheckOptions, StorageCheckReport, StorageProblem } from './docserver/check-document-storage.js'
/** The digital-safe journal's writer: importers deposit their records' files through it, inside their own transactions. */
export { JournalWriter } from './journal/journal-writer.js'
export type { JournalWriterOptions } from './journal/journal-writer.js'
export { verifyJournal } from './journal/verify-journal.js'
export type { JournalBreak, JournalBreakReason, JournalVerification, SafeVerification, VerifyJournalOptions } from './journal/verify-journal.js'
export { pendingMigrations } from './database/migrations/index.js'
export type { PoolStatistics } from './database/open-database.js'
export { readOperationalStatistics } from './observability/operational-statistics.js'
