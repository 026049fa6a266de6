/**
 * @module @mailroom/import-maarch
 * Imports an existing Maarch Courrier 20.10 installation (organisation, users with their passwords, records,
 * files, history, chrono counters) into Mailroom, reading the source read-only.
 */

export type { DocserverLocations, FingerprintCheck } from './files.js'
export { checkFingerprint, maarchFilePath } from './files.js'
export { importMaarch } from './import-maarch.js'
export type { ImportProgress, ImportStart, MaarchImportOptions, MaarchImportTarget } from './import-options.js'
export { DEFAULT_BATCH_SIZE, DEFAULT_FALLBACK_DEPOSITOR, defaultJobs } from './import-options.js'
export type { MaarchBasketRows, UnreadableClause } from './map-baskets.js'
export { mapBaskets } from './map-baskets.js'
export type { MaarchOrganisationRows, MaarchUserMapping, OrganisationNote } from './map-organisation.js'
export { mapOrganisation } from './map-organisation.js'
export type { Related, RelatedTable } from './related-rows.js'
export { RelatedRowsInOrder } from './related-rows.js'
export type {
  AttachmentEntry,
  BasketsReport,
  ImportCounts,
  ImportReportSink,
  MaarchImportReport,
  MaarchImportSummary,
  RecordEntry,
  RecordReport,
  ReportHeader,
} from './report.js'
export { ReportCollector } from './report.js'
export { JsonReportFile } from './report-file.js'
export type { MaarchSource, SourceCursor } from './source.js'
export { openMaarchSource, SUPPORTED_VERSION } from './source.js'
export type {
  VerifyDifference,
  VerifyKind,
  VerifyKindCounts,
} from './verify/tally.js'
export { VERIFY_KINDS } from './verify/tally.js'
export type {
  MaarchVerification,
  MaarchVerifyOptions,
  MaarchVerifyTarget,
  VerifyProgress,
} from './verify/verify-maarch.js'
export { verifyMaarchImport } from './verify/verify-maarch.js'
