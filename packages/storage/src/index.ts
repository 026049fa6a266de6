/**
 * @module @mailroom/storage
 * PostgreSQL (pg) and embedded PGlite persistence, the document storage, conversion adapters and the
 * `createMailroom` entry point that wires core's use cases without any HTTP layer.
 *
 * The public API is what an embedding service needs: building a Mailroom, opening and migrating its
 * database, the demo dataset, the password hasher and token signer it may replace or reuse, the
 * converters and content settings, and the maintenance checks of the command line. Repositories, SQL
 * compilers and the journal's writer are internals.
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
export { DEFAULT_THROTTLE_SETTINGS } from './security/kysely-auth-throttle.js'
export type { ThrottleSettings } from './security/kysely-auth-throttle.js'
export { DocserverRoot } from './docserver/docserver-root.js'
export { DocumentWriter } from './docserver/document-writer.js'
export type { StoredDocument } from './docserver/document-writer.js'
export { checkDocumentStorage } from './docserver/check-document-storage.js'
export type { StorageCheckOptions, StorageCheckReport, StorageProblem } from './docserver/check-document-storage.js'
export { ConversionService } from './content/pdf-converter.js'
export type { ConversionServiceOptions, OfficeConverter } from './content/pdf-converter.js'
export { findSoffice, LibreOfficeConverter } from './content/libreoffice-converter.js'
export type { LibreOfficeConverterOptions } from './content/libreoffice-converter.js'
export { DEFAULT_CONTENT_SETTINGS } from './content/content-settings.js'
export type { ContentSettings } from './content/content-settings.js'
/** The digital-safe journal's writer: importers deposit their records' files through it, inside their own transactions. */
export { JournalWriter } from './journal/journal-writer.js'
export type { JournalWriterOptions } from './journal/journal-writer.js'
export { verifyJournal } from './journal/verify-journal.js'
export type { JournalBreak, JournalBreakReason, JournalVerification, SafeVerification, VerifyJournalOptions } from './journal/verify-journal.js'
