/**
 * @module @mailroom/core/internal
 * Helpers that Mailroom's own packages share (storage, documents, http-koa, import-maarch): the journal's recorder
 * and chaining, the clause language's names for SQL, the journal envelope's and search answer's rendering, format
 * names, the organisation plan's wording. Under 30 names, each imported by production code outside core
 * (`packages/testing/src/storage-internal-imports.test.ts`); use cases' factories are public.
 *
 * **Not public API**: anything here may change or disappear in any release, without notice or changeset.
 * Other programs use `@mailroom/core`.
 */

export { displayName, isRoot, primaryEntityOf } from './actors/actor.js'
export { conversionKind, normaliseFormat } from './content/formats.js'
export { journalEnvelopeChunks, journalErrorEnvelope } from './journal/journal-envelope.js'
export { ARCHIVE_OBJECT_CLASS } from './journal/journal-event.js'
export type { JournalRecorder, PendingJournalEvent } from './journal/journal-recorder.js'
export { createJournalRecorder, linkJournalEvent } from './journal/journal-recorder.js'
export { buildSafeDirectory } from './journal/safe-directory.js'
export { INDEXING_CATEGORIES, INDEXING_KEYWORDS, ORGANISATION_SECTIONS } from './organisation/organisation-schema.js'
export { administratorOf } from './organisation/organisation-services.js'
export { describePlan, isEmptyPlan, summarisePlan } from './organisation/plan-organisation.js'
export { checkPerimeterClause } from './organisation/validate-organisation.js'
export { chronoPlan } from './records/chrono.js'
export { scanJsonText } from './request-values/json-text.js'
export { fullTextQueries } from './search/ast.js'
export type { PerimeterContext, PerimeterEntity } from './search/expand-macros.js'
export { expandMacros } from './search/expand-macros.js'
export { streamSearchResult } from './search/search-result.js'
export { SEARCH_VIEW_NAME } from './search/view-columns.js'
