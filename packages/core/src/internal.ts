/**
 * @module @mailroom/core/internal
 * Helpers that Mailroom's own packages share (storage, documents, mailroom, http-koa, import-maarch): request
 * parsers, journal event builders and hashing, search result shaping, file names and the like.
 *
 * **Not public API**: anything here may change or disappear in any release, without notice or changeset.
 * Other programs use `@mailroom/core`.
 */

export { createActionsUseCases } from './actions/actions-services.js'
export { displayName, isRoot, primaryEntityOf } from './actors/actor.js'
export { attachmentTypesBody } from './attachments/attachment-services.js'
export {
  ATTACHMENT_TEXT_LIMITS,
  createAttachment,
  NEW_ATTACHMENT_STATUSES,
} from './attachments/create-attachment.js'
export { createAttachmentReads } from './attachments/read-attachments.js'
export {
  type AttachmentToRemove,
  attachmentRemovalHistory,
  checkAttachmentRemoval,
  parseAttachmentRemovalId,
  removedVersionsRoot,
} from './attachments/remove-attachment.js'
export {
  basketClauseRefusal,
  basketClauseTree,
} from './baskets/basket-clause.js'
export {
  type BasketListQuery,
  MAX_BASKET_PAGE,
  type NullableFilter,
  parseBasketListQuery,
} from './baskets/basket-list-query.js'
export { createBasketsUseCases } from './baskets/basket-use-cases.js'
export { contentDisposition } from './content/content-filename.js'
export { createNewVersion } from './content/create-version.js'
export { canConvertToPdf, checkFormatAllowed, conversionKind, normaliseFormat } from './content/formats.js'
export { createContentReads } from './content/read-content.js'
export { parseSearchCriteria } from './criteria-search/parse-criteria.js'
export { createCriteriaSearchUseCases } from './criteria-search/search-by-criteria.js'
export { CATEGORY_LABELS } from './criteria-search/search-configuration.js'
export { createDiffusionListUseCases } from './diffusion-list/list-instance.js'
export { readEntity } from './entities/read-entity.js'
export type {
  DepositEventInput,
  JournalActor,
  JournalBuilderDeps,
  JournalChainPosition,
} from './journal/build-journal-event.js'
export {
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  buildNewResourceEvent,
  buildPendingConsultationEvent,
  buildPendingDepositEvent,
  chainPositionAfter,
  createJournalEventIdGenerator,
} from './journal/build-journal-event.js'
export { computeEventHash } from './journal/event-hash.js'
export type { JournalEnvelopeHead } from './journal/journal-envelope.js'
export { envelopeHead, envelopeTail, journalErrorEnvelope, renderLifeCycleEvent } from './journal/journal-envelope.js'
export type { UnhashedJournalEvent } from './journal/journal-event.js'
export { ARCHIVE_OBJECT_CLASS } from './journal/journal-event.js'
export { parseJournalQuery, selectJournalPage } from './journal/journal-query.js'
export { toLifeCycleEvent } from './journal/life-cycle-event.js'
export { createJournalUseCases } from './journal/read-journal.js'
export { buildSafeDirectory } from './journal/safe-directory.js'
export { createLinksUseCases } from './links/link-use-cases.js'
export { createNotesUseCases } from './notes/note-use-cases.js'
export { canonicalAction, canonicalBasket } from './organisation/basket-definitions.js'
export { INDEXING_CATEGORIES, INDEXING_KEYWORDS, ORGANISATION_SECTIONS } from './organisation/organisation-schema.js'
export { administratorOf } from './organisation/organisation-services.js'
export { describePlan, isEmptyPlan, summarisePlan } from './organisation/plan-organisation.js'
export { checkBasketClause, checkPerimeterClause } from './organisation/validate-organisation.js'
export { chronoPlan } from './records/chrono.js'
export { createRecordsUseCases } from './records/records-services.js'
export type { IdColumn } from './request-values/database-id.js'
export { databaseIdOf, ID_COLUMN_MAX } from './request-values/database-id.js'
export { JSON_NESTING_LIMIT, scanJsonText } from './request-values/json-text.js'
export {
  ARITHMETIC_OPERATORS,
  CAST_TYPES,
  COMPARISON_OPERATORS,
  EXTRACT_FIELDS,
  fullTextQueries,
  MACROS,
  SEARCH_FUNCTIONS,
  TYPED_LITERAL_TYPES,
} from './search/ast.js'
export type { PerimeterContext, PerimeterEntity } from './search/expand-macros.js'
export { expandMacros } from './search/expand-macros.js'
export { createSearchUseCases } from './search/find-records.js'
export { parseSearchRequest } from './search/search-request.js'
export { streamSearchResult } from './search/search-result.js'
export { SEARCH_VIEW_NAME } from './search/view-columns.js'
export { createStatusUseCases } from './status/change-status.js'
