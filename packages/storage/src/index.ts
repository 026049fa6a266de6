/**
 * @module @mailroom/storage
 * The database and the document storage of Mailroom: the kysely schema and its migrations, PostgreSQL (pg)
 * and embedded PGlite, the repositories and each capability's ports over them (`<capability>Ports(context)`:
 * what core's `create<Capability>UseCases` is built over), search execution, the digital-safe journal (writer,
 * sealer, verifier), the docserver writer and its checks.
 *
 * Storage does no document processing: sniffing, conversion, watermarking and the chrono merge come in
 * through core's ports in the `StorageContext` (`@mailroom/documents` implements them). Services embed
 * Mailroom through `@mailroom/mailroom`, whose `createMailroom` builds that context and composes core's use
 * cases over the ports and repositories exported here.
 */

export { actionsPorts } from './actions/actions-ports.js'
export { attachmentPorts } from './attachments/attachment-ports.js'
export type { AttachmentCreateFaults } from './attachments/attachment-writer.js'
export { basketsPorts } from './baskets/baskets-ports.js'
export type {
  BasketLoan,
  BasketPreference,
  BasketUsage,
  BasketUsageWritten,
  MarkedAsRead,
} from './baskets-administration/basket-usage.js'
export { writeBasketUsage } from './baskets-administration/basket-usage.js'
export { KyselyContactRepository } from './contacts/kysely-contact-repository.js'
export { contentPorts } from './content/content-ports.js'
export { ContentReadPorts } from './content/content-read-ports.js'
export type { ContentSettings } from './content/content-settings.js'
export { DEFAULT_CONTENT_SETTINGS } from './content/content-settings.js'
export type { FileDigest } from './content/stored-file.js'
export { criteriaSearchPorts } from './criteria-search/criteria-search-ports.js'
export type { FullTextSearchSettings } from './criteria-search/criteria-search-store.js'
export { DEFAULT_FULLTEXT_CANDIDATES } from './criteria-search/criteria-search-store.js'
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
export { diffusionListPorts } from './diffusion-list/diffusion-list-ports.js'
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
export type { JournalPortsOptions } from './journal/journal-ports.js'
export { journalPorts } from './journal/journal-ports.js'
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
export { kyselyLetterPageStore, letterPagePorts } from './letter-page/letter-page-ports.js'
export { linksPorts } from './links/links-ports.js'
export { listTemplatePorts } from './list-templates/list-template-ports.js'
export type { Logger } from './logger.js'
export { SILENT_LOGGER } from './logger.js'
export { notesPorts } from './notes/notes-ports.js'
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
export { processingPagePorts } from './processing-page/processing-page-ports.js'
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
export type { RecordsPortsOptions } from './records/records-ports.js'
export { recordsPorts } from './records/records-ports.js'
export { referencePorts } from './reference/reference-ports.js'
export type { SearchSettings } from './search/search-ports.js'
export { searchPorts } from './search/search-ports.js'
export { KyselyAuthThrottle } from './security/kysely-auth-throttle.js'
export { statusPorts } from './status/status-ports.js'
export type { StorageContext } from './storage-context.js'
export { KyselyUserRepository } from './users/kysely-user-repository.js'
export { userLogins } from './users/user-logins.js'
