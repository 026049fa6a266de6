/**
 * What tests need of core beyond its two entries: the parsers, shapers and builders that production code reaches
 * through a use case, taken from core's sources (tests resolve workspace packages to their sources, so these
 * are the very modules the use cases run). Only tests import this file; it is no part of any package's API and
 * does not count in `@mailroom/core/internal` (storage-internal-imports.test.ts).
 */

export { checkFormatAllowed } from '../../core/src/content/formats.js'
export { createContentReads } from '../../core/src/content/read-content.js'
export { withInertHtml } from '../../core/src/criteria-search/list-row-html.js'
export { parseSearchCriteria } from '../../core/src/criteria-search/parse-criteria.js'
export {
  buildConsultationEvent,
  buildDepositEvent,
  buildIntegrityCheckEvent,
  buildJournalReadEvent,
  chainPositionAfter,
} from '../../core/src/journal/build-journal-event.js'
export { parseJournalQuery, selectJournalPage } from '../../core/src/journal/journal-query.js'
export { toLifeCycleEvent } from '../../core/src/journal/life-cycle-event.js'
export { JSON_NESTING_LIMIT } from '../../core/src/request-values/json-text.js'
export {
  ARITHMETIC_OPERATORS,
  CAST_TYPES,
  COMPARISON_OPERATORS,
  EXTRACT_FIELDS,
  MACROS,
  SEARCH_FUNCTIONS,
  TYPED_LITERAL_TYPES,
} from '../../core/src/search/ast.js'
export { parseSearchRequest } from '../../core/src/search/search-request.js'
export { streamSearchResult } from '../../core/src/search/search-result.js'
