/** The search language of POST /rest/res/list: view catalogue, clause parser, printer, macros, request checks. */
export * from './ast.js'
export type { PerimeterContext, PerimeterEntity } from './expand-macros.js'
export { expandMacros } from './expand-macros.js'
export * from './limits.js'
export type { ParseClauseOptions } from './parser.js'
export { parseClause, parseOrderItem, parseSelectNames } from './parser.js'
export { printClause, printOrderItem } from './printer.js'
export type { SearchQuery } from './search-request.js'
export {
  checkSearchLimit,
  isPhpEmpty,
  parseSearchRequest,
  parseSelect,
  refuseTooManyResults,
  SVE_START_DATE,
  searchRequestBodySchema,
} from './search-request.js'
export type { JsonValue, SearchFile, SearchHit, SearchHits, SearchRecord, SearchResult } from './search-result.js'
export { FILE_CONTENT_KEY, readSearchFile, streamSearchResult, toJsonValue } from './search-result.js'
export type { SearchPart } from './syntax-error.js'
export { characterPosition } from './syntax-error.js'
export * from './view-columns.js'
