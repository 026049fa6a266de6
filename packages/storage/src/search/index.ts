/** SQL compiler of the search language: clause trees and checked searches to parameterised kysely queries. */
export { compileClause, compileSearch } from './compile-clause.js'
export type { SearchPerimeter, SearchRow, SearchViewDatabase } from './compile-clause.js'
