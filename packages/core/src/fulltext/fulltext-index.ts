import type { FullTextLanguage } from './ports.js'

/** Which file of a record a text was read from: its document (`resource`) or one of its attachments. */
export interface FullTextFileRef {
  readonly fileKind: 'resource' | 'attachment'
  /** The record's id for `resource`, the attachment's id for `attachment`. */
  readonly fileId: number
}

/** The text of one file, as the extraction queue stored it, to be made searchable. */
export interface FullTextIndexedText extends FullTextFileRef {
  /** The record the file belongs to (an attachment's master record): what a search finds. */
  readonly resId: number
  readonly language: FullTextLanguage
  readonly text: string
}

/** What a search asks an index: the caller's words (web-search syntax) and how many candidates at most. */
export interface FullTextIndexQuery {
  readonly words: string
  readonly language: FullTextLanguage
  /** The most candidates to return, best first (createMailroom's `fulltext.candidates`). */
  readonly limit: number
}

/**
 * A file whose text holds the words: its record, how well it matches (higher is better, any scale) and a
 * short excerpt with the words between `**` (null when the engine gives none).
 */
export interface FullTextCandidate extends FullTextFileRef {
  readonly resId: number
  readonly rank: number
  readonly excerpt: string | null
}

/**
 * The full-text index port (issue 35): where the text of every file is made searchable. The default is
 * PostgreSQL's own index (a GIN-indexed tsvector beside the kept text, storage's `DatabaseFullTextIndex`),
 * whose matching runs inside the search's SQL; an installation that has outgrown one machine passes an
 * implementation over its search engine to `createMailroom({ fulltext: { index } })`.
 *
 * An index only proposes candidates: the database keeps the perimeter, the rest of the clause, the order and
 * the paging, and drops candidates whose file no longer has a kept text (a deleted record, a superseded
 * attachment). So an engine that lags or holds stale entries can miss a match, never show a record outside
 * the caller's perimeter.
 */
export interface FullTextIndex {
  /** Makes one file's text searchable, replacing what the index held for that file. */
  put(text: FullTextIndexedText): Promise<void>
  /** Forgets one file's text (unknown files are ignored). */
  remove(file: FullTextFileRef): Promise<void>
  /** The files whose text holds the words, best first, at most `query.limit`. */
  search(query: FullTextIndexQuery): Promise<readonly FullTextCandidate[]>
}
