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

export { createActionsServices } from './actions/create-actions-services.js'
export type { AttachmentCreateFaults } from './attachments/attachment-writer.js'
export { createAttachmentServices } from './attachments/create-attachment-services.js'
export { createBasketsServices } from './baskets/create-baskets-services.js'
export type {
  BasketLoan,
  BasketPreference,
  BasketUsage,
  BasketUsageWritten,
  MarkedAsRead,
} from './baskets-administration/basket-usage.js'
export { writeBasketUsage } from './baskets-administration/basket-usage.js'
export { KyselyContactRepository } from './contacts/kysely-contact-repository.js'
export type { ContentSettings } from './content/content-settings.js'
export { DEFAULT_CONTENT_SETTINGS } from './content/content-settings.js'
export { createContentServices } from './content/create-content-services.js'
export type { FileDigest } from './content/stored-file.js'
export type { FullTextSearchSettings } from './criteria-search/create-criteria-search-services.js'
export {
  createCriteriaSearchServices,
  DEFAULT_FULLTEXT_CANDIDATES,
} from './criteria-search/create-criteria-search-services.js'
export { MIGRATIONS, migrateToLatest, pendingMigrations } from './database/migrations/index.js'
export type { DatabaseTarget, MailroomDatabase, PgPoolLike, PoolStatistics } from './database/open-database.js'
export {
  databaseFromKysely,
  databaseFromPool,
  MAILROOM_PG_TYPES,
  openDatabase,
  PGLITE_EXTENSIONS,
  targetFromString,
} from './database/open-database.js'
export { PgliteDialect } from './database/pglite-dialect.js'
export { DEFAULT_PGLITE_STALL_TIMEOUT_MS, PgliteWatchdog } from './database/pglite-watchdog.js'
export { preparingPool } from './database/prepared-statements.js'
export type { Database } from './database/schema.js'
export { SESSION_SETTINGS_SQL } from './database/session-settings.js'
export type { StartupLockOptions } from './database/startup-lock.js'
export { withStartupLock } from './database/startup-lock.js'
export { createDiffusionListServices } from './diffusion-list/create-diffusion-list-services.js'
export type { StorageCheckOptions, StorageCheckReport, StorageProblem } from './docserver/check-document-storage.js'
export { checkDocumentStorage } from './docserver/check-document-storage.js'
export type { CopyProblem, CopyProgress, CopyReport } from './docserver/copy-document-store.js'
export { copyDocumentStore } from './docserver/copy-document-store.js'
export { DocserverRoot } from './docserver/docserver-root.js'
export type { ByteRange, DocumentStore, ListedDocument, StoredDocument } from './docserver/document-store.js'
export { DocumentWriter } from './docserver/document-writer.js'
export { digestStream } from './docserver/file-digest.js'
export { FolderDocumentStore } from './docserver/folder-document-store.js'
export type { WritableStorageArea } from './docserver/storage-areas.js'
export { attachmentStorageArea, writableStorageAreas } from './docserver/storage-areas.js'
export { KyselyEntityRepository } from './entities/kysely-entity-repository.js'
export type { FullTextServices } from './fulltext/create-fulltext-services.js'
export { createFullTextServices } from './fulltext/create-fulltext-services.js'
export { DatabaseFullTextIndex } from './fulltext/database-fulltext-index.js'
export type { FullTextQueueStatus } from './fulltext/fulltext-queue.js'
export type { FullTextSettings } from './fulltext/fulltext-settings.js'
export { DEFAULT_FULLTEXT_SETTINGS } from './fulltext/fulltext-settings.js'
export type { FullTextObserver, JobOutcome } from './fulltext/fulltext-worker.js'
export type { JournalServicesOptions } from './journal/create-journal-services.js'
export { createJournalServices } from './journal/create-journal-services.js'
export type { JournalWriterOptions } from './journal/journal-writer.js'
/** The digital-safe journal's writer: importers deposit their records' files through it, inside their own transactions. */
export { JournalWriter } from './journal/journal-writer.js'
export type {
  JournalBreak,
  JournalBreakReason,
  JournalVerification,
  SafeVerification,
  VerifyJournalOptions,
} from './journal/verify-journal.js'
export { verifyJournal } from './journal/verify-journal.js'
export { createLinksServices } from './links/create-links-services.js'
export type { Logger } from './logger.js'
export { SILENT_LOGGER } from './logger.js'
export { createNotesServices } from './notes/create-notes-services.js'
export { readOperationalStatistics } from './observability/operational-statistics.js'
export type { OrganisationAdmin, OrganisationAdminDependencies } from './organisation/organisation-admin.js'
export { createOrganisationAdmin } from './organisation/organisation-admin.js'
export {
  formatOrganisationYaml,
  ORGANISATION_SCHEMA_FILE,
  parseOrganisationText,
} from './organisation/organisation-text.js'
export { PerimeterGuard } from './perimeter/perimeter-guard.js'
export { recordPerimeterOf } from './perimeter/record-perimeter.js'
export type { RecordsServicesOptions } from './records/create-records-services.js'
export { createRecordsServices } from './records/create-records-services.js'
export type { CommittedImportBatch, UnfinishedImportBatch } from './records/import-batches.js'
export {
  beginImportBatch,
  commitImportBatch,
  committedImportBatches,
  forgetImportBatch,
  leaveImportBatchOpen,
  unfinishedImportBatches,
} from './records/import-batches.js'
export type { ImportRunStart } from './records/import-runs.js'
export { finishImportRun, lastImportCutoff, startImportRun } from './records/import-runs.js'
export type {
  ImportedAttachmentRow,
  ImportedContactRow,
  ImportedHistoryRow,
  ImportedListItemRow,
  ImportedNoteRow,
  ImportedRecord,
  ImportedRecordRow,
  ImportedVersionRow,
} from './records/imported-record.js'
export {
  existingAttachmentIds,
  existingRecordIds,
  insertImportedRecord,
  insertImportedRecords,
  refreshImportStatistics,
} from './records/imported-record.js'
export type { ImportedRecordChanges, ImportedRecordState, StoredRow } from './records/imported-record-changes.js'
export { applyImportedRecordChanges, importedRecordState } from './records/imported-record-changes.js'
export type { GivenChronoNumber } from './records/record-counters.js'
export { highestChronoNumbers, moveRecordIdsPastHighest, raiseChronoCounter } from './records/record-counters.js'
export { createReferenceServices } from './reference/create-reference-services.js'
export type { SearchSettings } from './search/create-search-services.js'
export { createSearchServices } from './search/create-search-services.js'
export { KyselyAuthThrottle } from './security/kysely-auth-throttle.js'
export { createStatusServices } from './status/create-status-services.js'
export type { StorageContext } from './storage-context.js'
export { KyselyUserRepository } from './users/kysely-user-repository.js'
export { userLogins } from './users/user-logins.js'
